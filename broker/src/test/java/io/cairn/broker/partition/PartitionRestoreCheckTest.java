package io.cairn.broker.partition;

import static io.cairn.broker.partition.TestLedgerComponent.command;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backup.BackupConfig;
import io.cairn.backup.BackupMetrics;
import io.cairn.backup.BackupMetrics.RestoreCheckResult;
import io.cairn.backup.restore.RestoreMarker;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.micrometer.core.instrument.Counter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state digest check of a restored partition, wired by {@link BackupComponent}, on three
 * members of one partition (deterministic, {@link PartitionCluster}). "Restored" here: the members
 * are stopped with a known state, a {@link RestoreMarker} naming the position the next command will
 * get and the digest of that state is put into every member's directory, and they are started
 * again; that next command is the {@code CHECKPOINT CREATE} of the marker — the situation a restore
 * leaves, where the log ends with the kept {@code CREATE} not yet processed.
 */
final class PartitionRestoreCheckTest {

  private static final long SEED = 61;
  private static final long BACKUP_ID = 1;
  private static final String OTHER_DIGEST = "0123456789abcdef0123456789abcdef";

  @TempDir Path directory;
  private PartitionCluster cluster;

  @AfterEach
  void closeCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** A member: the checkpoint component (no backup store) and the test ledger. */
  private static List<PartitionComponent> components(
      PartitionCluster running, PartitionCluster.Member member) {
    return List.of(
        new BackupComponent(
            Optional.empty(), BackupConfig.defaults(), 1, running.scheduler.executor()),
        member.ledger);
  }

  /** What the "restored" cluster must reproduce at the checkpoint. */
  private record Restored(long checkpointPosition, String digest) {}

  /**
   * Builds a state (2 accounts, 3 deposits), stops every member, writes a marker expecting {@code
   * expectedDigest} (the real digest when null) at the next position, and starts them again.
   */
  private Restored restoredCluster(String expectedDigest) {
    return restoredCluster(expectedDigest, 0);
  }

  /**
   * As {@link #restoredCluster(String)}, with the kept {@code CREATE} at the position after the
   * next {@code commandsBefore} commands: the restored log holds that many unprocessed commands
   * before its checkpoint.
   */
  private Restored restoredCluster(String expectedDigest, int commandsBefore) {
    cluster =
        new PartitionCluster(
            directory, SEED, 3, PartitionCluster.CONFIG, PartitionRestoreCheckTest::components);
    Partition leader = cluster.awaitLeader();
    cluster.write(leader, command(AccountIntent.CREATE, new AccountValue("a", 0), 1));
    cluster.write(leader, command(AccountIntent.CREATE, new AccountValue("b", 0), 2));
    cluster.write(leader, command(DepositIntent.DEPOSIT, new DepositValue("a", 70), 3));
    cluster.write(leader, command(DepositIntent.DEPOSIT, new DepositValue("b", 20), 4));
    long last = cluster.write(leader, command(DepositIntent.DEPOSIT, new DepositValue("b", 10), 5));
    StateSummary state = cluster.awaitConverged(last, Duration.ofSeconds(10));
    long next = leader.logStream().lastWrittenPosition() + 1 + commandsBefore;
    Restored restored = new Restored(next, state.digest().toHex());
    for (int id : List.of(0, 1, 2)) {
      cluster.stop(id);
    }
    writeMarkers(
        restored.checkpointPosition(), expectedDigest == null ? restored.digest() : expectedDigest);
    for (int id : List.of(0, 1, 2)) {
      cluster.restart(id);
    }
    return restored;
  }

  private void writeMarkers(long position, String digest) {
    for (int id : List.of(0, 1, 2)) {
      writeMarker(
          id,
          new RestoreMarker(
              BACKUP_ID,
              PartitionCluster.PARTITION_ID,
              0,
              position,
              digest,
              Optional.empty(),
              "0.1.0"));
    }
  }

  private void writeMarker(int member, RestoreMarker marker) {
    try {
      Path partitionDirectory = partitionDirectory(member);
      Files.createDirectories(partitionDirectory);
      marker.write(partitionDirectory);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Path partitionDirectory(int member) {
    return PartitionLayout.of(cluster.dataDirectory(member), PartitionCluster.PARTITION_ID)
        .directory();
  }

  private static Record create(long id) {
    return command(
        CheckpointIntent.CREATE,
        new CheckpointValue(id, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP),
        100);
  }

  /** Writes the kept {@code CREATE} to the leader's log, at the position the markers name. */
  private void writeCheckpoint(Partition leader, Restored restored) {
    assertThat(cluster.write(leader, create(BACKUP_ID)))
        .as("the CREATE at the position the markers name")
        .isEqualTo(restored.checkpointPosition());
  }

  private double checks(int member, RestoreCheckResult result) {
    Counter counter =
        cluster
            .member(member)
            .registry
            .find(BackupMetrics.RESTORE_CHECKS)
            .tag("result", result.name().toLowerCase(java.util.Locale.ROOT))
            .counter();
    return counter == null ? 0 : counter.count();
  }

  private double allChecks(int member) {
    double sum = 0;
    for (RestoreCheckResult result : RestoreCheckResult.values()) {
      sum += checks(member, result);
    }
    return sum;
  }

  private static long created(Partition partition) {
    return PartitionCluster.committedRecords(partition).stream()
        .filter(r -> r.metadata().intent() == CheckpointIntent.CREATED)
        .count();
  }

  @Test
  void shouldServeOnceTheLeaderReproducedTheDigestAndNeverCheckAgainAfterRestarts() {
    // given a restored partition whose marker holds the digest of its state
    Restored restored = restoredCluster(null);
    Partition leader = cluster.awaitLeader();

    // when its leader processes the kept CREATE
    writeCheckpoint(leader, restored);
    cluster.runUntil(() -> created(leader) == 1, Duration.ofSeconds(5), "CREATED committed");

    // then the checkpoint carries the digest, every member is healthy, the leader counted a match
    CheckpointValue checkpoint =
        (CheckpointValue)
            PartitionCluster.committedRecords(leader).stream()
                .filter(r -> r.metadata().intent() == CheckpointIntent.CREATED)
                .findFirst()
                .orElseThrow()
                .value();
    assertThat(checkpoint.checkpointPosition()).isEqualTo(restored.checkpointPosition());
    long last = cluster.write(leader, command(DepositIntent.DEPOSIT, new DepositValue("a", 1), 6));
    cluster.awaitConverged(last, Duration.ofSeconds(10));
    for (Partition member : cluster.running()) {
      assertThat(member.health().isHealthy()).as("member %d", member.nodeId()).isTrue();
      assertThat(checks(member.nodeId(), RestoreCheckResult.MATCH))
          .as("matches counted on member %d", member.nodeId())
          .isEqualTo(member == leader ? 1.0 : 0.0);
      assertThat(allChecks(member.nodeId())).isEqualTo(member == leader ? 1.0 : 0.0);
    }

    // when every member restarts, even with a marker that would no longer match
    for (int id : List.of(0, 1, 2)) {
      cluster.stop(id);
    }
    writeMarkers(restored.checkpointPosition(), OTHER_DIGEST);
    for (int id : List.of(0, 1, 2)) {
      cluster.restart(id);
    }
    Partition next = cluster.awaitLeader();
    long after = cluster.write(next, command(DepositIntent.DEPOSIT, new DepositValue("b", 1), 7));

    // then the checked CREATE is not processed again: nothing is checked, every member serves
    cluster.awaitConverged(after, Duration.ofSeconds(10));
    for (Partition member : cluster.running()) {
      assertThat(member.health().isHealthy()).as("member %d", member.nodeId()).isTrue();
      assertThat(allChecks(member.nodeId())).as("checks on member %d", member.nodeId()).isZero();
    }
    assertThat(cluster.await(next.readState(TestLedgerComponent::balances), "balances"))
        .containsEntry("a", 71L)
        .containsEntry("b", 31L);
    assertThat(created(next)).isEqualTo(1);
  }

  @Test
  void shouldDropAStampedCommandBeforeTheKeptCheckpointInsteadOfDeferringItPastTheCut() {
    // given a restored partition whose kept log ends with a command stamped with the backup's
    // checkpoint id and then the kept CREATE, neither processed yet (when first processed, the
    // stamped command was deferred behind the checkpoint: it took effect after the cut)
    Restored restored = restoredCluster(null, 1);
    Partition leader = cluster.awaitLeader();
    long stamped =
        cluster.write(
            leader,
            new Record(
                RecordMetadata.builder()
                    .command(DepositIntent.DEPOSIT)
                    .checkpointId(BACKUP_ID)
                    .build(),
                new DepositValue("a", 5)));
    writeCheckpoint(leader, restored);
    assertThat(stamped).isEqualTo(restored.checkpointPosition() - 1);

    // when the leader processes them
    cluster.runUntil(() -> created(leader) == 1, Duration.ofSeconds(5), "CREATED committed");
    long last = cluster.write(leader, command(DepositIntent.DEPOSIT, new DepositValue("b", 1), 9));
    cluster.awaitConverged(last, Duration.ofSeconds(10));

    // then the digest is reproduced and the stamped command is dropped, not deferred past the
    // restored checkpoint: nothing was written for it, its deposit is not in any member's state
    assertThat(checks(leader.nodeId(), RestoreCheckResult.MATCH)).isEqualTo(1.0);
    assertThat(
            PartitionCluster.committedRecords(leader).stream()
                .filter(r -> r.metadata().sourcePosition() == stamped)
                .toList())
        .as("records written for the stamped command")
        .isEmpty();
    for (Partition member : cluster.running()) {
      assertThat(member.health().isHealthy()).as("member %d", member.nodeId()).isTrue();
      assertThat(cluster.await(member.readState(TestLedgerComponent::balances), "balances"))
          .as("balances on member %d", member.nodeId())
          .containsEntry("a", 70L)
          .containsEntry("b", 31L);
    }
  }

  @Test
  void shouldFailEveryLeaderThatProcessesTheCheckpointWhenTheDigestDiffers() {
    // given a restored partition whose state differs from the digest the backup recorded
    Restored restored = restoredCluster(OTHER_DIGEST);
    Partition first = cluster.awaitLeader();

    // when its leader processes the kept CREATE
    writeCheckpoint(first, restored);
    cluster.runUntil(
        () -> first.health().status() == PartitionHealthStatus.FAILED,
        Duration.ofSeconds(5),
        "the leader FAILED");

    // then that member's partition is FAILED with the report; nothing was written for the CREATE
    assertThat(first.role()).isEqualTo(PartitionRole.FAILED);
    assertThat(first.health().reason())
        .contains("Expected the restored state to have the backup's digest " + OTHER_DIGEST)
        .contains("but it has " + restored.digest())
        .contains("partition 1, backup 1, checkpoint position " + restored.checkpointPosition())
        .contains("TEST_LEDGER_ACCOUNTS 2 entries, digest ");
    assertThat(checks(first.nodeId(), RestoreCheckResult.MISMATCH)).isEqualTo(1.0);
    cluster.run(Duration.ofSeconds(1));
    assertThat(cluster.running()).allSatisfy(p -> assertThat(created(p)).isZero());
    assertThat(cluster.running())
        .filteredOn(p -> p != first)
        .allSatisfy(p -> assertThat(p.health().isHealthy()).isTrue());

    // when that member goes away, another one leads and processes the CREATE
    cluster.stop(first.nodeId());
    cluster.runUntil(
        () ->
            cluster.running().stream()
                .anyMatch(p -> p.health().status() == PartitionHealthStatus.FAILED),
        PartitionCluster.ELECTION_BOUND,
        "the next leader FAILED");

    // then it checks as well, fails the same way, and the partition still serves nothing
    Partition second =
        cluster.running().stream()
            .filter(p -> p.health().status() == PartitionHealthStatus.FAILED)
            .findFirst()
            .orElseThrow();
    assertThat(second.health().reason())
        .contains(OTHER_DIGEST)
        .contains(restored.digest())
        .contains("TEST_LEDGER_ACCOUNTS 2 entries");
    assertThat(checks(second.nodeId(), RestoreCheckResult.MISMATCH)).isEqualTo(1.0);
    assertThat(cluster.running()).allSatisfy(p -> assertThat(created(p)).isZero());
    assertThat(cluster.running())
        .filteredOn(p -> p != second)
        .allSatisfy(p -> assertThat(p.role()).isEqualTo(PartitionRole.FOLLOWER));
  }

  @Test
  void shouldCheckAgainOnTheNextLeaderWhenTheCheckedCheckpointBatchWasLost() {
    // given a restored partition whose leader checked the kept CREATE and wrote its CREATED ...
    Restored restored = restoredCluster(null);
    Partition first = cluster.awaitLeader();
    writeCheckpoint(first, restored);
    cluster.runTasksUntil(
        () -> first.logStream().lastWrittenPosition() > restored.checkpointPosition(),
        Duration.ofSeconds(2),
        "the leader to write CREATED");
    assertThat(checks(first.nodeId(), RestoreCheckResult.MATCH)).isEqualTo(1.0);

    // ... and is cut off before that batch leaves
    cluster.network.isolate(first.nodeId());
    for (Partition other : cluster.running()) {
      if (other != first) {
        assertThat(other.logStream().lastWrittenPosition())
            .isLessThanOrEqualTo(restored.checkpointPosition());
      }
    }

    // when another member leads
    Partition second = cluster.awaitLeaderOtherThan(first);

    // then it processes the CREATE again and checks it again
    cluster.runUntil(
        () -> checks(second.nodeId(), RestoreCheckResult.MATCH) == 1.0,
        Duration.ofSeconds(5),
        "the new leader's check");
    cluster.runUntil(() -> created(second) == 1, Duration.ofSeconds(5), "CREATED committed");
    cluster.network.heal();
    Partition leader = cluster.awaitLeader();
    long last = cluster.write(leader, command(DepositIntent.DEPOSIT, new DepositValue("a", 1), 8));
    cluster.awaitConverged(last, Duration.ofSeconds(20));
    for (Partition member : cluster.running()) {
      assertThat(member.health().isHealthy()).as("member %d", member.nodeId()).isTrue();
      assertThat(created(member)).isEqualTo(1);
    }
  }

  @Test
  void shouldFailAMemberWhoseRestoreMarkerCannotBeTrusted() throws IOException {
    // given member 1's marker names another partition and member 2's is not a marker at all
    Path marker1 =
        PartitionLayout.of(directory.resolve("node-1"), PartitionCluster.PARTITION_ID).directory();
    Files.createDirectories(marker1);
    new RestoreMarker(BACKUP_ID, 2, 0, 10, OTHER_DIGEST, Optional.empty(), "0.1.0").write(marker1);
    Path marker2 =
        PartitionLayout.of(directory.resolve("node-2"), PartitionCluster.PARTITION_ID).directory();
    Files.createDirectories(marker2);
    Files.writeString(marker2.resolve(RestoreMarker.FILE_NAME), "{\"formatVersion\":1,");

    // when the members start
    cluster =
        new PartitionCluster(
            directory, SEED, 3, PartitionCluster.CONFIG, PartitionRestoreCheckTest::components);
    cluster.runUntil(
        () ->
            cluster.partition(1).health().status() == PartitionHealthStatus.FAILED
                && cluster.partition(2).health().status() == PartitionHealthStatus.FAILED
                && List.of(PartitionRole.LEADER, PartitionRole.FOLLOWER)
                    .contains(cluster.partition(0).role()),
        PartitionCluster.ELECTION_BOUND,
        "members 1 and 2 FAILED, member 0 in a role");

    // then they are FAILED at once (not retried), each naming its file; member 0 is healthy
    assertThat(cluster.partition(1).health().reason())
        .contains(marker1.resolve(RestoreMarker.FILE_NAME).toString())
        .contains("to be of partition 1, but it is of partition 2")
        .contains("attempt 1 of");
    assertThat(cluster.partition(2).health().reason())
        .contains(marker2.resolve(RestoreMarker.FILE_NAME).toString())
        .contains("valid JSON")
        .contains("restore it again")
        .contains("attempt 1 of");
    assertThat(cluster.partition(0).health().isHealthy()).isTrue();
    assertThat(cluster.partition(1).role()).isEqualTo(PartitionRole.FAILED);
    assertThat(cluster.partition(2).role()).isEqualTo(PartitionRole.FAILED);
  }
}
