package io.cairn.broker.partition;

import static io.cairn.broker.partition.TestLedgerComponent.command;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.snapshot.PersistedSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A follower that lags behind a compacted leader catches up through snapshot installation: the
 * entries it needs are gone from the leader's log, so raft sends the leader's snapshot in chunks,
 * the partition rebuilds the follower's state from it and replays the rest of the log.
 */
final class PartitionSnapshotCatchUpTest {

  @TempDir Path directory;
  private PartitionCluster cluster;

  @AfterEach
  void closeCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void shouldCatchUpALaggingFollowerThroughSnapshotInstallation() {
    // given three members that processed some commands
    cluster = new PartitionCluster(directory, 31, 3);
    Partition leader = cluster.awaitLeader();
    long last = 0;
    for (int a = 0; a < 4; a++) {
      last = cluster.write(leader, command(AccountIntent.CREATE, new AccountValue("a" + a, 0), a));
    }
    cluster.awaitConverged(last, Duration.ofSeconds(5));

    // when a follower stops ...
    int lagging = (leader.nodeId() + 1) % 3;
    long laggingLastIndex = cluster.partition(lagging).context().journal().getLastIndex();
    cluster.stop(lagging);

    // ... the others process enough to fill several segments ...
    long deposited = 0;
    for (int i = 1; i <= 400; i++) {
      last =
          cluster.write(
              leader,
              command(DepositIntent.DEPOSIT, new DepositValue("a" + (i % 4), i), 1_000 + i));
      deposited += i;
      if (i % 20 == 0) {
        cluster.run(Duration.ofMillis(30));
      }
    }
    cluster.awaitConverged(last, Duration.ofSeconds(10));

    // ... and the leader takes two snapshots and compacts its log past what the follower has (up
    // to the first: a partition's first snapshot keeps the whole log while it needs a base, and
    // then it is the second one's base)
    PersistedSnapshot first =
        cluster.await(leader.takeSnapshot(), "snapshot on the leader").orElseThrow();
    for (int i = 1; i <= 10; i++) {
      last =
          cluster.write(
              leader, command(DepositIntent.DEPOSIT, new DepositValue("a1", 1), 4_000 + i));
      deposited += 1;
    }
    cluster.awaitConverged(last, Duration.ofSeconds(10));
    PersistedSnapshot snapshot =
        cluster.await(leader.takeSnapshot(), "second snapshot on the leader").orElseThrow();
    assertThat(snapshot.index()).isGreaterThan(first.index());
    Partition compacted = leader;
    cluster.runUntil(
        () -> compacted.context().journal().getFirstIndex() > laggingLastIndex + 1,
        Duration.ofSeconds(2),
        "the leader to compact its log past index " + (laggingLastIndex + 1));
    // a few more commands after the snapshot, which the follower must replay on top of it
    for (int i = 1; i <= 10; i++) {
      last =
          cluster.write(
              leader, command(DepositIntent.DEPOSIT, new DepositValue("a0", 1), 5_000 + i));
      deposited += 1;
    }

    // and the follower restarts
    cluster.restart(lagging);
    leader = cluster.awaitLeader();
    StateSummary converged = cluster.awaitConverged(last, Duration.ofSeconds(30));

    // then it installed the leader's snapshot (its log starts after it) ...
    Partition caughtUp = cluster.partition(lagging);
    assertThat(caughtUp.snapshotStore().latestSnapshot())
        .hasValueSatisfying(
            installed -> assertThat(installed.index()).isGreaterThanOrEqualTo(snapshot.index()));
    assertThat(caughtUp.context().journal().getFirstIndex()).isGreaterThan(snapshot.index());
    assertThat(
            cluster.member(lagging).registry.get(PartitionMetrics.STATE_REBUILDS).counter().count())
        .as("rebuilds: at start, and from the installed snapshot")
        .isGreaterThanOrEqualTo(2.0);
    // ... and holds the leader's state at the same positions
    StateSummary leaderSummary = cluster.summaryOrNull(leader);
    assertThat(cluster.summaryOrNull(caughtUp)).isEqualTo(leaderSummary).isEqualTo(converged);
    assertThat(caughtUp.role()).isEqualTo(PartitionRole.FOLLOWER);
    assertThat(caughtUp.health().isHealthy()).isTrue();
    Map<String, Long> balances =
        cluster.await(caughtUp.readState(TestLedgerComponent::balances), "balances");
    assertThat(balances.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(deposited);
  }
}
