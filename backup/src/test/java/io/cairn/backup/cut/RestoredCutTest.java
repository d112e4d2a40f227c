package io.cairn.backup.cut;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backup.BackupColumnFamily;
import io.cairn.backup.BackupMetrics;
import io.cairn.backup.CheckpointListener;
import io.cairn.backup.CheckpointRecords;
import io.cairn.backup.CheckpointState;
import io.cairn.backup.checkpoint.DigestBytes;
import io.cairn.backup.restore.DigestCheck;
import io.cairn.backup.restore.RestoreMarker;
import io.cairn.backup.restore.RestoredCheckpointCheck;
import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbConfig;
import io.cairn.engine.LedgerColumnFamily;
import io.cairn.engine.LedgerEngine;
import io.cairn.engine.LedgerEngineConfig;
import io.cairn.engine.PendingCredit;
import io.cairn.engine.RecordingInterPartitionSender;
import io.cairn.logstreams.InMemoryLogStream;
import io.cairn.logstreams.LogBatchAssembler;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordBatch;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RecordValue;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessor;
import io.cairn.streamprocessor.StreamProcessorColumnFamily;
import io.cairn.streamprocessor.StreamProcessorMode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restored partition processes the kept log before its checkpoint again (DESIGN.md §10); the
 * consistent cut must survive that. An inter-partition command stamped with the checkpoint's id
 * that sits <em>before</em> the checkpoint position was deferred by the cut interceptor in the
 * original run: the interceptor wrote {@code [CREATE(id), copy]} behind the checkpoint, so the
 * command took effect after the cut. A restore keeps the command but not its copy; processing it
 * again must not defer it once more, or the restored partition applies a command from another
 * partition's future — in the {@code cairn demo} run that lost 112, the {@code ACK}s of credits
 * that the restored target never applied (their pending credits vanished) and {@code APPLY}s of
 * debits the restored source never made.
 *
 * <p>One ledger partition (1 of 2) on a {@link DeterministicScheduler}: the original leader runs;
 * its committed log up to the checkpoint (the checkpoint's entry cut there, as {@code LogCut} does)
 * is installed in a fresh log and database, and a leader registered with the partition's {@link
 * RestoreMarker} processes it, with the broker's digest check.
 */
final class RestoredCutTest {

  private static final int PARTITION = 1;
  private static final int PARTITION_COUNT = 2;
  private static final long BACKUP_ID = 1;

  @TempDir Path directory;

  private final SimClock clock = new SimClock(1_000_000);
  private final DeterministicScheduler scheduler = new DeterministicScheduler(clock);
  private final AccountPlacement placement = new AccountPlacement(PARTITION_COUNT);
  private final String alice = accountOn(1, 0);
  private final String bob = accountOn(2, 0);
  private final List<Leader> leaders = new ArrayList<>();

  @AfterEach
  void close() {
    leaders.forEach(Leader::stop);
    scheduler.close();
    scheduler.runUntilIdle();
    leaders.forEach(l -> l.db.close());
  }

  @Test
  void shouldKeepTheCreditPendingWhenTheGatewaysCheckpointFollowsAStampedAckInTheLog() {
    // given a cross-partition transfer whose credit is pending on its source
    Leader original = leader("original", Optional.empty());
    long transferKey = pendingTransfer(original);

    // when the target's ACK, stamped with checkpoint 1 (the target applied the credit after its
    // cut), is in the log before the gateway's CREATE(1), and both are processed afterwards
    original.write(ack(transferKey, 1));
    original.write(create(BACKUP_ID));
    scheduler.runUntilIdle();

    // then the original run deferred the ACK behind the checkpoint: pending at the cut, settled
    // after
    Record created = created(original);
    long checkpointPosition = ((CheckpointValue) created.value()).checkpointPosition();
    assertThat(commandAt(original, checkpointPosition).metadata().sourcePosition())
        .as("the gateway's CREATE is the checkpoint")
        .isEqualTo(RecordMetadata.NO_POSITION);
    assertThat(acknowledged(original, transferKey))
        .singleElement()
        .satisfies(
            a -> assertThat(a.metadata().sourcePosition()).isGreaterThan(checkpointPosition));
    assertThat(original.engine.state().pendingCredits()).isEmpty();

    // when the backup of that checkpoint is restored and its leader processes the kept log
    Restored restored = restore(original, created);

    // then the state at the checkpoint is reproduced and the ACK, which belongs after the cut,
    // is not processed: the credit stays pending, so the restored leader re-sends its APPLY
    assertRestoredAtTheCut(restored, transferKey);

    // and after the cut the interceptor defers stamped commands as always: an ACK stamped with a
    // later checkpoint takes that checkpoint first, then settles the credit
    Leader leader = restored.leader();
    leader.write(ack(transferKey, 2));
    scheduler.runUntilIdle();
    assertThat(CheckpointState.of(leader.db).latestCheckpointId()).isEqualTo(2);
    assertThat(acknowledged(leader, transferKey)).hasSize(1);
    assertThat(leader.engine.state().pendingCredits()).isEmpty();
  }

  @Test
  void shouldKeepTheCreditPendingWhenADuplicateStampedAckPrecedesTheInterceptorsCheckpoint() {
    // given a pending credit, and two copies of the target's ACK stamped with checkpoint 1 written
    // before either is processed (a re-sent APPLY answered twice); no CREATE from the gateway
    Leader original = leader("original", Optional.empty());
    long transferKey = pendingTransfer(original);
    original.write(ack(transferKey, 1));
    original.write(ack(transferKey, 1));
    scheduler.runUntilIdle();

    // then the first ACK took the checkpoint: its CREATE is the checkpoint, the second ACK
    // (before it in the log) was deferred as well, and the credit was settled after the cut
    Record created = created(original);
    long checkpointPosition = ((CheckpointValue) created.value()).checkpointPosition();
    assertThat(commandAt(original, checkpointPosition).metadata().sourcePosition())
        .as("the interceptor's CREATE is the checkpoint")
        .isNotEqualTo(RecordMetadata.NO_POSITION);
    assertThat(acknowledged(original, transferKey))
        .singleElement()
        .satisfies(
            a -> assertThat(a.metadata().sourcePosition()).isGreaterThan(checkpointPosition));

    // when restored, the copy in the checkpoint's entry dropped (LogCut) and the second ACK kept
    Restored restored = restore(original, created);

    // then neither ACK is processed in the restored partition
    assertRestoredAtTheCut(restored, transferKey);
  }

  // ---- scenario --------------------------------------------------------------------------------

  private record Restored(Leader leader, long checkpointPosition, List<DigestCheck> checks) {}

  /** Alice (partition 1) gets 100 and sends 30 to Bob (partition 2); returns the transfer key. */
  private long pendingTransfer(Leader leader) {
    leader.write(command(AccountIntent.CREATE, new AccountValue(alice, 0)));
    leader.write(command(DepositIntent.DEPOSIT, new DepositValue(alice, 100)));
    leader.write(
        command(
            TransferIntent.CREATE,
            new TransferValue(
                alice, bob, 30, ValueDescriptor.NO_PARTITION_ID, ValueDescriptor.NO_PARTITION_ID)));
    scheduler.runUntilIdle();
    List<PendingCredit> pending = leader.engine.state().pendingCredits();
    assertThat(pending).hasSize(1);
    return pending.get(0).transferKey();
  }

  /**
   * What a restore installs: the committed log up to and including the checkpoint's {@code CREATE}
   * (its entry cut after it), a fresh state, the marker with the {@code CREATED}'s digest.
   */
  private Restored restore(Leader original, Record created) {
    CheckpointValue checkpoint = (CheckpointValue) created.value();
    long position = checkpoint.checkpointPosition();
    RestoreMarker marker =
        new RestoreMarker(
            checkpoint.checkpointId(),
            PARTITION,
            0,
            position,
            DigestBytes.fromBytes(checkpoint.stateDigest()).toHex(),
            Optional.empty(),
            "0.1.0");
    List<DigestCheck> checks = new ArrayList<>();
    Leader restored = leader("restored", Optional.of(new MarkerAndChecks(marker, checks)));
    for (RecordBatch batch : original.log.committedBatches()) {
      if (batch.lowestPosition() > position) {
        break;
      }
      List<Record> kept = batch.records().stream().filter(r -> r.position() <= position).toList();
      restored.log.appendRawEntry(
          batch.lowestPosition(),
          kept.get(kept.size() - 1).position(),
          LogBatchAssembler.encode(new RecordBatch(kept)).byteArray());
    }
    restored.startProcessing();
    scheduler.runUntilIdle();
    return new Restored(restored, position, checks);
  }

  private void assertRestoredAtTheCut(Restored restored, long transferKey) {
    Leader leader = restored.leader();
    assertThat(restored.checks())
        .as("the digest check at the kept CREATE")
        .singleElement()
        .satisfies(c -> assertThat(c.matches()).as(c.describe()).isTrue());
    assertThat(leader.processor.health().isHealthy()).isTrue();
    assertThat(CheckpointState.of(leader.db).latestCheckpointId()).isEqualTo(BACKUP_ID);
    assertThat(acknowledged(leader, transferKey)).as("ACKNOWLEDGED in the restored log").isEmpty();
    assertThat(leader.engine.state().pendingCredits())
        .as("pending credits of the restored partition")
        .extracting(PendingCredit::transferKey)
        .containsExactly(transferKey);
    assertThat(leader.engine.state().balance(alice)).hasValue(70);
    assertThat(
            leader.log.committedRecords().stream()
                .filter(r -> r.position() > restored.checkpointPosition())
                .filter(r -> r.metadata().recordType() == RecordType.COMMAND)
                .filter(r -> r.metadata().intent() != CheckpointIntent.CREATE))
        .as("commands the restored leader wrote behind the checkpoint")
        .isEmpty();
  }

  // ---- records ---------------------------------------------------------------------------------

  private Record ack(long transferKey, long checkpointId) {
    return new Record(
        RecordMetadata.builder()
            .command(CreditIntent.ACK)
            .key(transferKey)
            .checkpointId(checkpointId)
            .build(),
        new CreditValue(transferKey, bob, 30, PARTITION, 2));
  }

  private static Record create(long id) {
    return command(
        CheckpointIntent.CREATE,
        new CheckpointValue(id, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP));
  }

  private static Record command(Intent intent, RecordValue value) {
    return new Record(RecordMetadata.builder().command(intent).build(), value);
  }

  private static Record created(Leader leader) {
    List<Record> created =
        leader.log.committedRecords().stream()
            .filter(r -> r.metadata().intent() == CheckpointIntent.CREATED)
            .toList();
    assertThat(created).as("CREATED events").hasSize(1);
    return created.get(0);
  }

  private static Record commandAt(Leader leader, long position) {
    return leader.log.committedRecords().stream()
        .filter(r -> r.position() == position)
        .findFirst()
        .orElseThrow();
  }

  private static List<Record> acknowledged(Leader leader, long transferKey) {
    return leader.log.committedRecords().stream()
        .filter(r -> r.metadata().recordType() == RecordType.EVENT)
        .filter(r -> r.metadata().intent() == CreditIntent.ACKNOWLEDGED)
        .filter(r -> r.metadata().key() == transferKey)
        .toList();
  }

  private String accountOn(int partition, int skip) {
    return IntStream.range(0, 1_000)
        .mapToObj(i -> "acct-" + i)
        .filter(a -> placement.partitionOf(a) == partition)
        .skip(skip)
        .findFirst()
        .orElseThrow();
  }

  // ---- one leader ------------------------------------------------------------------------------

  private record MarkerAndChecks(RestoreMarker marker, List<DigestCheck> checks) {}

  private Leader leader(String name, Optional<MarkerAndChecks> restored) {
    Leader leader = new Leader(directory.resolve(name), restored);
    leaders.add(leader);
    if (restored.isEmpty()) {
      leader.startProcessing();
      scheduler.runUntilIdle();
    }
    return leader;
  }

  /** A partition-1 leader: checkpoint records (with the marker if restored) and the ledger. */
  private final class Leader {
    private final InMemoryLogStream log = new InMemoryLogStream(PARTITION, clock);
    private final CairnDb db;
    private final LedgerEngine engine;
    private final StreamProcessor processor;
    private boolean started;

    private Leader(Path directory, Optional<MarkerAndChecks> restored) {
      List<ColumnFamilyDefinition> families = new ArrayList<>(LedgerColumnFamily.all());
      families.addAll(BackupColumnFamily.all());
      families.addAll(StreamProcessorColumnFamily.all());
      db = CairnDb.open(directory, DbConfig.defaults(), families, new SimpleMeterRegistry());
      RecordProcessors.Builder builder = RecordProcessors.builder();
      BackupMetrics metrics = new BackupMetrics(new SimpleMeterRegistry(), PARTITION, clock);
      CheckpointState checkpoints =
          CheckpointRecords.register(
              PARTITION,
              db,
              builder,
              CheckpointListener.NONE,
              metrics,
              restored.map(MarkerAndChecks::marker));
      restored.ifPresent(
          r ->
              builder.interceptor(
                  new RestoredCheckpointCheck(r.marker(), db, true, r.checks()::add)));
      engine =
          LedgerEngine.builder()
              .partitionId(PARTITION)
              .db(db)
              .config(LedgerEngineConfig.of(PARTITION_COUNT))
              .sender(new RecordingInterPartitionSender())
              .checkpointIds(checkpoints::latestCheckpointId)
              .clock(clock)
              .meterRegistry(new SimpleMeterRegistry())
              .build();
      engine.register(builder);
      processor =
          StreamProcessor.builder()
              .logStream(log)
              .db(db)
              .processors(builder.build())
              .mode(StreamProcessorMode.LEADER)
              .meterRegistry(new SimpleMeterRegistry())
              .build();
    }

    void startProcessing() {
      started = true;
      scheduler.start(processor);
    }

    void write(Record command) {
      assertThat(log.writer().tryWrite(command)).isInstanceOf(WriteResult.Written.class);
    }

    void stop() {
      if (started) {
        processor.closeAsync();
        scheduler.runUntilIdle();
      }
      engine.close();
    }
  }
}
