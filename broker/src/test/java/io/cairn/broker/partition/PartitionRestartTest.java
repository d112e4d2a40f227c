package io.cairn.broker.partition;

import static io.cairn.broker.partition.TestLedgerComponent.command;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.streamprocessor.StreamProcessorMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Members restarted from their data directories reach the same state: snapshot, then replay. */
final class PartitionRestartTest {

  @TempDir Path directory;
  private PartitionCluster cluster;

  @AfterEach
  void closeCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void shouldRecoverARestartedMemberFromItsSnapshotAndReplayOnlyTheRest() {
    // given a follower with a snapshot, and commands processed after it
    cluster = new PartitionCluster(directory, 41, 3);
    Partition leader = cluster.awaitLeader();
    long last = cluster.write(leader, command(AccountIntent.CREATE, new AccountValue("a", 0), 1));
    for (int i = 1; i <= 50; i++) {
      last =
          cluster.write(leader, command(DepositIntent.DEPOSIT, new DepositValue("a", i), 10 + i));
    }
    cluster.awaitConverged(last, Duration.ofSeconds(10));
    int restarted = (leader.nodeId() + 2) % 3;
    PersistedSnapshot snapshot =
        cluster
            .await(cluster.partition(restarted).takeSnapshot(), "snapshot on the follower")
            .orElseThrow();
    for (int i = 1; i <= 7; i++) {
      last =
          cluster.write(
              leader, command(DepositIntent.DEPOSIT, new DepositValue("a", 100), 100 + i));
    }
    StateSummary before = cluster.awaitConverged(last, Duration.ofSeconds(10));

    // when it stops and starts again from its directory
    cluster.stop(restarted);
    PartitionLayout layout = PartitionLayout.of(cluster.dataDirectory(restarted), 1);
    assertThat(layout.journal()).isDirectory();
    assertThat(layout.raftMetaFile()).isRegularFile();
    assertThat(layout.snapshots().resolve("snapshots").resolve(snapshot.id().toString()))
        .isDirectory();
    assertThat(layout.runtime()).isDirectory();
    cluster.restart(restarted);
    StateSummary after = cluster.awaitConverged(last, Duration.ofSeconds(10));

    // then it holds the same state at the same positions, having replayed only what followed the
    // snapshot (7 deposits: 7 events) instead of the whole log (58 events)
    assertThat(after).isEqualTo(before);
    double replayed =
        cluster
            .member(restarted)
            .registry
            .get(StreamProcessorMetrics.REPLAYED_RECORDS)
            .counter()
            .count();
    assertThat(replayed).isEqualTo(7.0);
    assertThat(Files.exists(layout.runtime().resolve("CURRENT"))).isTrue();
  }

  @Test
  void shouldRestartEveryMemberToTheSameStateAndNotProcessAnythingTwice() {
    // given a partition with a snapshot on its leader and commands after it
    cluster = new PartitionCluster(directory, 43, 3);
    Partition leader = cluster.awaitLeader();
    cluster.write(leader, command(AccountIntent.CREATE, new AccountValue("a", 0), 1));
    long last = cluster.write(leader, command(AccountIntent.CREATE, new AccountValue("b", 0), 2));
    cluster.awaitConverged(last, Duration.ofSeconds(5));
    for (int i = 1; i <= 20; i++) {
      last =
          cluster.write(leader, command(DepositIntent.DEPOSIT, new DepositValue("a", i), 10 + i));
    }
    cluster.awaitConverged(last, Duration.ofSeconds(10));
    assertThat(cluster.await(leader.takeSnapshot(), "snapshot")).isPresent();
    for (int i = 1; i <= 5; i++) {
      last =
          cluster.write(leader, command(DepositIntent.DEPOSIT, new DepositValue("b", i), 50 + i));
    }
    StateSummary before = cluster.awaitConverged(last, Duration.ofSeconds(10));

    // when every member stops and starts again
    for (int id = 0; id < 3; id++) {
      cluster.stop(id);
    }
    for (int id = 0; id < 3; id++) {
      cluster.restart(id);
    }
    leader = cluster.awaitLeader();

    // then they reach the same state at the same positions ...
    assertThat(cluster.awaitConverged(before.lastProcessedPosition(), Duration.ofSeconds(10)))
        .isEqualTo(before);
    // ... and a new command is processed on top of it, nothing before it again
    last = cluster.write(leader, command(DepositIntent.DEPOSIT, new DepositValue("b", 1_000), 99));
    cluster.awaitConverged(last, Duration.ofSeconds(10));
    for (Partition partition : cluster.running()) {
      assertThat(cluster.await(partition.readState(TestLedgerComponent::balances), "balances"))
          .as("balances of member %d", partition.nodeId())
          .isEqualTo(Map.of("a", 210L, "b", 1_015L));
    }
  }
}
