package io.cairn.backup.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backup.BackupColumnFamily;
import io.cairn.backup.BackupMetrics;
import io.cairn.backup.Checkpoint;
import io.cairn.backup.CheckpointRecords;
import io.cairn.backup.CheckpointState;
import io.cairn.backup.ConfirmedBackup;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbCodecs;
import io.cairn.db.Digest128;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RejectionType;
import io.cairn.scheduler.SimClock;
import io.cairn.streamprocessor.HealthStatus;
import io.cairn.streamprocessor.StreamProcessorMode;
import io.cairn.streamprocessor.StreamProcessorPhase;
import io.cairn.streamprocessor.StreamProcessorTestKit;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checkpoint processors, appliers and the cut interceptor on a real stream processor. */
final class CheckpointRecordsTest {

  private static final int PARTITION = StreamProcessorTestKit.PARTITION_ID;

  @TempDir Path directory;

  private final List<Checkpoint> told = new ArrayList<>();
  private final SimpleMeterRegistry leaderRegistry = new SimpleMeterRegistry();
  private final BackupMetrics leaderMetrics =
      new BackupMetrics(leaderRegistry, PARTITION, new SimClock(0));
  private StreamProcessorTestKit kit;

  @BeforeEach
  void startLeader() {
    List<ColumnFamilyDefinition> families = new ArrayList<>(BackupColumnFamily.all());
    families.addAll(TestBalances.FAMILIES);
    kit =
        StreamProcessorTestKit.builder()
            .directory(directory)
            .families(families)
            .processors(
                (db, builder) -> {
                  CheckpointRecords.register(PARTITION, db, builder, told::add, leaderMetrics);
                  TestBalances.register(db, builder, 0);
                })
            .build();
    kit.startLeader();
  }

  @AfterEach
  void close() {
    kit.close();
  }

  @Test
  void shouldCreateCheckpointAtCommandPositionWithDigestOfStateAtThatPoint() {
    // given
    deposit("a", 10);
    Digest128 atCheckpoint = kit.db().stateDigest().total();
    var familiesAtCheckpoint = kit.db().stateDigest().families();

    // when a checkpoint is requested and more is processed after it
    long create = kit.writeCommand(CheckpointIntent.CREATE, new CheckpointValue(5, -1, -1));
    long createRequest = kit.lastRequestId();
    long timestamp = commandAt(create).metadata().timestamp();
    deposit("a", 7);

    // then CREATED carries the command's position, its timestamp and the digest before it
    Record created = kit.followUps(create).get(0);
    assertThat(created.metadata().intent()).isEqualTo(CheckpointIntent.CREATED);
    CheckpointValue value = (CheckpointValue) created.value();
    assertThat(value.checkpointId()).isEqualTo(5);
    assertThat(value.checkpointPosition()).isEqualTo(create);
    assertThat(value.timestamp()).isEqualTo(timestamp);
    assertThat(DigestBytes.fromBytes(value.stateDigest())).isEqualTo(atCheckpoint);
    assertThat(kit.db().stateDigest().total()).isNotEqualTo(atCheckpoint);

    // and the requester is told, the state keeps it, the listener and the gauges know it
    assertThat(kit.responseTo(createRequest))
        .hasValueSatisfying(
            r -> assertThat(r.record().metadata().intent()).isEqualTo(CheckpointIntent.CREATED));
    Checkpoint expected = new Checkpoint(5, create, timestamp, atCheckpoint);
    assertThat(CheckpointState.of(kit.db()).latestCheckpoint()).contains(expected);
    assertThat(CheckpointState.of(kit.db()).latestCheckpointId()).isEqualTo(5);
    assertThat(told)
        .containsExactly(new Checkpoint(5, create, timestamp, atCheckpoint, familiesAtCheckpoint));
    assertThat(told.get(0).familyDigests()).isNotEmpty();
    assertThat(leaderRegistry.get(BackupMetrics.CHECKPOINT_ID).gauge().value()).isEqualTo(5);
    assertThat(leaderRegistry.get(BackupMetrics.CHECKPOINT_POSITION).gauge().value())
        .isEqualTo(create);
  }

  @Test
  void shouldKeepCheckpointBookkeepingOutOfTheDigest() {
    // given
    deposit("a", 10);
    Digest128 before = kit.db().stateDigest().total();

    // when a checkpoint and its confirmation are applied
    checkpoint(3);
    kit.writeCommand(CheckpointIntent.CONFIRM_BACKUP, new CheckpointValue(3, -1, -1));
    kit.runUntilIdle();

    // then the state changed, the digest did not
    assertThat(CheckpointState.of(kit.db()).latestConfirmedBackup()).isPresent();
    assertThat(kit.db().stateDigest().total()).isEqualTo(before);
  }

  @Test
  void shouldIgnoreIdNotHigherThanLatestAndCarryTheCurrentOne() {
    // given
    long first = checkpoint(5);

    // when
    long equal = kit.writeCommand(CheckpointIntent.CREATE, new CheckpointValue(5, -1, -1));
    long equalRequest = kit.lastRequestId();
    long lower = kit.writeCommand(CheckpointIntent.CREATE, new CheckpointValue(2, -1, -1));
    kit.runUntilIdle();

    // then both are IGNORED with the current id and position, answered as such
    for (long position : List.of(equal, lower)) {
      Record ignored = kit.followUps(position).get(0);
      assertThat(ignored.metadata().intent()).isEqualTo(CheckpointIntent.IGNORED);
      assertThat(((CheckpointValue) ignored.value()).checkpointId()).isEqualTo(5);
      assertThat(((CheckpointValue) ignored.value()).checkpointPosition()).isEqualTo(first);
    }
    assertThat(kit.responseTo(equalRequest))
        .hasValueSatisfying(
            r -> assertThat(r.record().metadata().intent()).isEqualTo(CheckpointIntent.IGNORED));
    assertThat(CheckpointState.of(kit.db()).latestCheckpoint().orElseThrow().position())
        .isEqualTo(first);
    assertThat(told).hasSize(1);
  }

  @Test
  void shouldRejectCheckpointIdBelowOne() {
    // when
    long create = kit.writeCommand(CheckpointIntent.CREATE, new CheckpointValue(0, -1, -1));
    kit.runUntilIdle();

    // then
    Record rejection = kit.followUps(create).get(0);
    assertThat(rejection.metadata().recordType()).isEqualTo(RecordType.REJECTION);
    assertThat(rejection.metadata().rejectionType()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(CheckpointState.of(kit.db()).latestCheckpoint()).isEmpty();
    assertThat(kit.processor().health().isHealthy()).isTrue();
  }

  @Test
  void shouldConfirmBackupOfATakenCheckpointAndKeepTheHighest() {
    // given
    long position = checkpoint(5);

    // when
    long confirm =
        kit.writeCommand(CheckpointIntent.CONFIRM_BACKUP, new CheckpointValue(5, position, -1));
    long unknown = kit.writeCommand(CheckpointIntent.CONFIRM_BACKUP, new CheckpointValue(9, 1, -1));
    kit.runUntilIdle();
    checkpoint(6);
    long older = kit.writeCommand(CheckpointIntent.CONFIRM_BACKUP, new CheckpointValue(4, 1, -1));
    kit.runUntilIdle();

    // then
    assertThat(kit.followUps(confirm).get(0).metadata().intent())
        .isEqualTo(CheckpointIntent.CONFIRMED_BACKUP);
    Record rejection = kit.followUps(unknown).get(0);
    assertThat(rejection.metadata().rejectionType()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(kit.followUps(older).get(0).metadata().intent())
        .isEqualTo(CheckpointIntent.CONFIRMED_BACKUP);
    assertThat(CheckpointState.of(kit.db()).latestConfirmedBackup())
        .contains(new ConfirmedBackup(5, position));
  }

  @Test
  void shouldRebuildCheckpointStateByReplayWithoutTellingTheListener() {
    // given
    deposit("a", 10);
    long position = checkpoint(5);
    kit.writeCommand(CheckpointIntent.CONFIRM_BACKUP, new CheckpointValue(5, position, -1));
    deposit("b", 3);
    Checkpoint latest = CheckpointState.of(kit.db()).latestCheckpoint().orElseThrow();

    // when a follower replays the log, and the leader rebuilds from an empty state
    StreamProcessorTestKit.Replica follower = kit.replica("follower");
    follower.start(StreamProcessorMode.FOLLOWER);
    kit.leader().discardState();
    kit.leader().start(StreamProcessorMode.LEADER);

    // then both hold the same checkpoint state, and only the first processing told the listener
    for (StreamProcessorTestKit.Replica replica : List.of(follower, kit.leader())) {
      assertThat(CheckpointState.of(replica.db()).latestCheckpoint()).contains(latest);
      assertThat(CheckpointState.of(replica.db()).latestConfirmedBackup())
          .contains(new ConfirmedBackup(5, position));
      assertThat(replica.processor().health().isHealthy()).isTrue();
    }
    assertThat(told).hasSize(1);
  }

  @Test
  void shouldFailFollowerWhoseDigestDiffersAtTheCheckpoint() {
    // given a follower whose deposits apply differently (a diverged replica)
    SimpleMeterRegistry followerRegistry = new SimpleMeterRegistry();
    BackupMetrics followerMetrics = new BackupMetrics(followerRegistry, PARTITION, new SimClock(0));
    StreamProcessorTestKit.Replica follower =
        kit.replica(
            "diverged",
            (db, builder) -> {
              CheckpointRecords.register(PARTITION, db, builder, told::add, followerMetrics);
              TestBalances.register(db, builder, 1);
            });
    deposit("a", 10);
    checkpoint(5);
    deposit("a", 1);

    // when it replays the log
    follower.start(StreamProcessorMode.FOLLOWER);

    // then it fails at the CREATED event, counts the mismatch, and goes no further
    assertThat(follower.processor().health().status()).isEqualTo(HealthStatus.FAILED);
    assertThat(follower.processor().health().reason()).contains("diverged");
    assertThat(followerMetrics.digestMismatchCount()).isEqualTo(1);
    assertThat(followerRegistry.get(BackupMetrics.DIGEST_MISMATCHES).counter().count())
        .isEqualTo(1);
    assertThat(CheckpointState.of(follower.db()).latestCheckpoint()).isEmpty();
    assertThat(TestBalances.balance(follower.db(), "a")).isEqualTo(0); // rolled back
    // while the leader and an honest follower are fine
    StreamProcessorTestKit.Replica honest = kit.replica("honest");
    honest.start(StreamProcessorMode.FOLLOWER);
    assertThat(honest.processor().health().isHealthy()).isTrue();
    assertThat(kit.processor().health().isHealthy()).isTrue();
    assertThat(leaderMetrics.digestMismatchCount()).isZero();
  }

  @Test
  void shouldHaltPartitionInsteadOfRejectingWhenProcessingACheckpointFails() {
    // given checkpoint bookkeeping the processor cannot read
    checkpoint(1);
    kit.db()
        .columnFamily(BackupColumnFamily.BACKUP_CHECKPOINTS, DbCodecs.LONG, DbCodecs.BYTES)
        .put(CheckpointStateCodec.LATEST_CHECKPOINT_KEY, new byte[] {9, 9});
    long writtenBefore = kit.committedRecords().size();

    // when
    long create = kit.writeCommand(CheckpointIntent.CREATE, new CheckpointValue(2, -1, -1));
    deposit("a", 5);

    // then the partition failed at the command: no rejection, nothing after it processed
    assertThat(kit.processor().health().status()).isEqualTo(HealthStatus.FAILED);
    assertThat(kit.processor().phase()).isEqualTo(StreamProcessorPhase.FAILED);
    assertThat(kit.processor().health().reason())
        .contains(
            "checkpoint command CREATE at position " + create + " (partition " + PARTITION + ")")
        .contains("halts");
    assertThat(kit.followUps(create)).isEmpty();
    assertThat(kit.committedRecords()).hasSize((int) writtenBefore + 2); // the two commands only
    assertThat(kit.committedRecords(RecordType.REJECTION)).isEmpty();
    assertThat(told).hasSize(1);
  }

  @Test
  void shouldHaltPartitionWhenConfirmingABackupFails() {
    // given checkpoint bookkeeping the processor cannot read
    checkpoint(1);
    kit.db()
        .columnFamily(BackupColumnFamily.BACKUP_CHECKPOINTS, DbCodecs.LONG, DbCodecs.BYTES)
        .put(CheckpointStateCodec.LATEST_CHECKPOINT_KEY, new byte[] {9, 9});

    // when
    long confirm =
        kit.writeCommand(CheckpointIntent.CONFIRM_BACKUP, new CheckpointValue(1, -1, -1));
    long confirmRequest = kit.lastRequestId();
    kit.runUntilIdle();

    // then
    assertThat(kit.processor().health().status()).isEqualTo(HealthStatus.FAILED);
    assertThat(kit.processor().health().reason())
        .contains("checkpoint command CONFIRM_BACKUP at position " + confirm)
        .contains("halts");
    assertThat(kit.followUps(confirm)).isEmpty();
    assertThat(kit.responseTo(confirmRequest)).isEmpty();
  }

  @Test
  void shouldTakeCheckpointOfAStampedCommandBeforeProcessingIt() {
    // given
    deposit("a", 10);
    Digest128 beforeCommand = kit.db().stateDigest().total();

    // when an inter-partition command stamped with a higher checkpoint id arrives
    long stamped = kit.write(stampedDeposit("a", 4, 7));
    kit.runUntilIdle();

    // then CREATE(7) and a copy of the command are written in one batch, CREATE first ...
    List<Record> rewritten = kit.followUps(stamped);
    assertThat(rewritten)
        .extracting(r -> r.metadata().intent())
        .containsExactly(CheckpointIntent.CREATE, DepositIntent.DEPOSIT);
    long create = rewritten.get(0).position();
    long copy = rewritten.get(1).position();
    assertThat(copy).isEqualTo(create + 1);
    // ... the checkpoint is taken on the state without the command, then the command is applied
    Checkpoint checkpoint = CheckpointState.of(kit.db()).latestCheckpoint().orElseThrow();
    assertThat(checkpoint.id()).isEqualTo(7);
    assertThat(checkpoint.position()).isEqualTo(create);
    assertThat(checkpoint.stateDigest()).isEqualTo(beforeCommand);
    assertThat(kit.followUps(copy).get(0).metadata().intent()).isEqualTo(DepositIntent.DEPOSITED);
    assertThat(TestBalances.balance(kit.db(), "a")).isEqualTo(14);

    // and a command stamped with an id not above the latest is processed at once
    long notHigher = kit.write(stampedDeposit("a", 1, 7));
    kit.runUntilIdle();
    assertThat(kit.followUps(notHigher))
        .extracting(r -> r.metadata().intent())
        .containsExactly(DepositIntent.DEPOSITED);
  }

  @Test
  void shouldDeferEveryStampedCommandThatArrivesBeforeTheCheckpointIsProcessed() {
    // given two stamped commands written together, before either is processed
    long first = kit.write(stampedDeposit("a", 1, 4), stampedDeposit("b", 2, 4));
    kit.runUntilIdle();

    // then each was deferred behind a CREATE(4); the second CREATE is ignored; both applied after
    List<Record> created =
        kit.committedRecords().stream()
            .filter(r -> r.metadata().intent() == CheckpointIntent.CREATED)
            .toList();
    assertThat(created).hasSize(1);
    long checkpointPosition = ((CheckpointValue) created.get(0).value()).checkpointPosition();
    List<Record> deposited =
        kit.committedRecords().stream()
            .filter(r -> r.metadata().intent() == DepositIntent.DEPOSITED)
            .toList();
    assertThat(deposited).hasSize(2);
    assertThat(deposited)
        .allSatisfy(
            d -> assertThat(d.metadata().sourcePosition()).isGreaterThan(checkpointPosition));
    assertThat(kit.followUps(first + 1).get(0).metadata().intent())
        .isEqualTo(CheckpointIntent.CREATE);
    assertThat(
            kit.committedRecords().stream()
                .filter(r -> r.metadata().intent() == CheckpointIntent.IGNORED)
                .count())
        .isEqualTo(1);
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private void deposit(String account, long amount) {
    kit.writeCommand(DepositIntent.DEPOSIT, new DepositValue(account, amount));
    kit.runUntilIdle();
  }

  /** Takes checkpoint {@code id}; returns its position. */
  private long checkpoint(long id) {
    long position = kit.writeCommand(CheckpointIntent.CREATE, new CheckpointValue(id, -1, -1));
    kit.runUntilIdle();
    assertThat(kit.followUps(position).get(0).metadata().intent())
        .isEqualTo(CheckpointIntent.CREATED);
    return position;
  }

  private Record commandAt(long position) {
    return kit.committedRecords().stream()
        .filter(r -> r.position() == position)
        .findFirst()
        .orElseThrow();
  }

  private static Record stampedDeposit(String account, long amount, long checkpointId) {
    return new Record(
        RecordMetadata.builder().command(DepositIntent.DEPOSIT).checkpointId(checkpointId).build(),
        new DepositValue(account, amount));
  }
}
