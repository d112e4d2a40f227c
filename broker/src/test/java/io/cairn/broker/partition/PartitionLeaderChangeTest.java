package io.cairn.broker.partition;

import static io.cairn.broker.partition.TestLedgerComponent.command;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A leader change in the middle of a command stream: the old leader is cut off right after it
 * processed a command whose follow-up batch nobody else has. The partition must discard that
 * leader's state (rebuild it from a snapshot and the committed log) so that, once healed, every
 * member holds the same state, every command is processed exactly once, and nothing acknowledged is
 * lost.
 */
final class PartitionLeaderChangeTest {

  private static final long SEED = 23;

  @TempDir Path directory;
  private PartitionCluster cluster;

  @AfterEach
  void closeCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void shouldProcessEveryCommandOnceAndLoseNothingAcknowledgedAcrossALeaderChange() {
    // given a leader that processed a stream of commands, with a snapshot in the middle
    cluster = new PartitionCluster(directory, SEED, 3);
    Partition first = cluster.awaitLeader();
    cluster.write(first, command(AccountIntent.CREATE, new AccountValue("a", 0), 1));
    cluster.write(first, command(AccountIntent.CREATE, new AccountValue("b", 0), 2));
    long requestId = 10;
    for (int i = 0; i < 10; i++) {
      cluster.write(first, deposit(i % 2 == 0 ? "a" : "b", 1 + i, ++requestId));
    }
    cluster.run(Duration.ofMillis(200));
    assertThat(cluster.await(first.takeSnapshot(), "snapshot on the first leader")).isPresent();
    for (int i = 0; i < 10; i++) {
      cluster.write(first, deposit("a", 100 + i, ++requestId));
    }

    // when the leader processes one more command and is cut off before its batch leaves
    long lostCommand = cluster.write(first, deposit("b", 1_000, ++requestId));
    cluster.runTasksUntil(
        () -> first.logStream().lastWrittenPosition() > lostCommand,
        Duration.ofSeconds(2),
        "the first leader to write the follow-ups of position " + lostCommand);
    cluster.network.isolate(first.nodeId());
    long lostBatchEnd = first.logStream().lastWrittenPosition();
    for (Partition other : cluster.running()) {
      if (other != first) {
        assertThat(other.logStream().lastWrittenPosition())
            .as("member %d must not have the batch", other.nodeId())
            .isLessThan(lostBatchEnd);
      }
    }

    // and another member takes over, gets more commands, and the old leader returns
    Partition second = cluster.awaitLeaderOtherThan(first);
    long last = 0;
    for (int i = 0; i < 10; i++) {
      last = cluster.write(second, deposit(i % 2 == 0 ? "a" : "b", 10_000 + i, ++requestId));
    }
    cluster.run(Duration.ofMillis(300));
    cluster.network.heal();
    Partition leader = cluster.awaitLeader();
    StateSummary converged = cluster.awaitConverged(last, Duration.ofSeconds(20));

    // then every member holds the same state at the same positions (awaitConverged) ...
    assertThat(converged.lastProcessedPosition()).isGreaterThanOrEqualTo(last);
    // ... the old leader rebuilt its state instead of keeping the lost batch's effects ...
    assertThat(first.role()).isIn(PartitionRole.FOLLOWER, PartitionRole.LEADER);
    assertThat(rebuilds(first)).isGreaterThanOrEqualTo(2.0); // at start and after losing leadership
    // ... every command in the log has exactly one batch of follow-ups ...
    List<Record> log = PartitionCluster.committedRecords(leader);
    Map<Long, Integer> followUpsBySource = new HashMap<>();
    long deposited = 0;
    for (Record record : log) {
      if (record.metadata().recordType() != RecordType.COMMAND) {
        followUpsBySource.merge(record.metadata().sourcePosition(), 1, Integer::sum);
      }
      if (record.metadata().intent() == DepositIntent.DEPOSITED) {
        deposited += ((DepositValue) record.value()).amount();
      }
    }
    int commands = 0;
    for (Record record : log) {
      if (record.metadata().recordType() == RecordType.COMMAND) {
        commands++;
        assertThat(followUpsBySource.get(record.position()))
            .as("follow-ups of the command at %d", record.position())
            .isEqualTo(1);
      }
    }
    assertThat(commands).isEqualTo(2 + 10 + 10 + 1 + 10);
    // ... every deposit counts once, the lost one included (processed again by the new leader) ...
    Map<String, Long> balances =
        cluster.await(leader.readState(TestLedgerComponent::balances), "balances");
    assertThat(balances.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(deposited);
    assertThat(deposited).isEqualTo(55 + 1_045 + 1_000 + 100_045);
    // ... and every acknowledgement names a command in the final log (at the position it was
    // acknowledged with) whose one follow-up is the acknowledged event — the lost one's included,
    // which the old leader answered at once and the new leader processed again to the same result
    Map<Long, Record> followUpBySource = new HashMap<>();
    log.forEach(
        record -> {
          if (record.metadata().recordType() != RecordType.COMMAND) {
            followUpBySource.put(record.metadata().sourcePosition(), record);
          }
        });
    int acknowledged = 0;
    for (int id : List.of(0, 1, 2)) {
      PartitionCluster.Member member = cluster.member(id);
      for (Record response : member.responses) {
        acknowledged++;
        Record logged = followUpBySource.get(response.position());
        assertThat(logged).as("follow-up of the command at %d", response.position()).isNotNull();
        assertThat(logged.metadata().intent()).isEqualTo(response.metadata().intent());
        assertThat(logged.value()).isEqualTo(response.value());
      }
    }
    assertThat(acknowledged).isGreaterThanOrEqualTo(2 + 10 + 10 + 10);
  }

  private static Record deposit(String account, long amount, long requestId) {
    return command(DepositIntent.DEPOSIT, new DepositValue(account, amount), requestId);
  }

  private double rebuilds(Partition partition) {
    return cluster
        .member(partition.nodeId())
        .registry
        .get(PartitionMetrics.STATE_REBUILDS)
        .counter()
        .count();
  }
}
