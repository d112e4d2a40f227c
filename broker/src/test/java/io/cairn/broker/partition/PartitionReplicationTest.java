package io.cairn.broker.partition;

import static io.cairn.broker.partition.TestLedgerComponent.command;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.db.StateDigest;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.RecordType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three members of one partition: the leader processes, followers replay to the same state. */
final class PartitionReplicationTest {

  @TempDir Path directory;
  private PartitionCluster cluster;

  @AfterEach
  void closeCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void shouldProcessOnTheLeaderAndReplayTheSameStateOnFollowers() {
    // given
    cluster = new PartitionCluster(directory, 11, 3);
    Partition leader = cluster.awaitLeader();

    // when
    long last = 0;
    for (int a = 0; a < 3; a++) {
      last = cluster.write(leader, command(AccountIntent.CREATE, new AccountValue("a" + a, 0), a));
    }
    cluster.run(Duration.ofMillis(100));
    for (int i = 1; i <= 30; i++) {
      last =
          cluster.write(
              leader, command(DepositIntent.DEPOSIT, new DepositValue("a" + (i % 3), i), 100 + i));
      if (i % 10 == 0) {
        cluster.run(Duration.ofMillis(50));
      }
    }
    StateSummary summary = cluster.awaitConverged(last, Duration.ofSeconds(10));

    // then every member holds the leader's state at the same positions
    assertThat(summary.digest().toHex()).isNotEqualTo(StateDigest.EMPTY.toHex());
    for (Partition partition : cluster.running()) {
      assertThat(partition.health().isHealthy()).isTrue();
      assertThat(cluster.await(partition.readState(TestLedgerComponent::balances), "balances"))
          .as("balances of member %d", partition.nodeId())
          .isEqualTo(Map.of("a0", 165L, "a1", 145L, "a2", 155L));
      if (partition != leader) {
        assertThat(partition.role()).isEqualTo(PartitionRole.FOLLOWER);
        assertThat(cluster.member(partition.nodeId()).responses).isEmpty();
      }
    }
    // and only the leader answered, once per command, after the commit
    assertThat(cluster.member(leader.nodeId()).responses)
        .hasSize(33)
        .allMatch(response -> response.metadata().recordType() == RecordType.EVENT);
    assertThat(leader.term()).isEqualTo(leader.raftTerm());
  }
}
