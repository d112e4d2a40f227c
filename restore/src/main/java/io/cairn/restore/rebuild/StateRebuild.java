package io.cairn.restore.rebuild;

import io.cairn.backup.BackupColumnFamily;
import io.cairn.backup.BackupMetrics;
import io.cairn.backup.CheckpointListener;
import io.cairn.backup.CheckpointRecords;
import io.cairn.backup.CheckpointState;
import io.cairn.backup.restore.DigestCheck;
import io.cairn.backup.restore.RestoreMarker;
import io.cairn.backup.restore.RestoredCheckpointCheck;
import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbConfig;
import io.cairn.engine.InterPartitionSender;
import io.cairn.engine.LedgerColumnFamily;
import io.cairn.engine.LedgerEngine;
import io.cairn.engine.LedgerEngineConfig;
import io.cairn.journal.JournalConfig;
import io.cairn.journal.SegmentedJournal;
import io.cairn.restore.layout.DataDirectoryLayout;
import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotConfig;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.streamprocessor.CommandResponseWriter;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessor;
import io.cairn.streamprocessor.StreamProcessorColumnFamily;
import io.cairn.streamprocessor.StreamProcessorMode;
import io.cairn.streamprocessor.StreamProcessorPhase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Rebuilds a restored partition's state offline, the way its leader does after a restore (DESIGN.md
 * §10): the state from the installed snapshot (its digest checked against the snapshot's metadata),
 * then the broker's processors — the checkpoint records and the ledger engine — in a real {@link
 * StreamProcessor} as LEADER: replay of the log's follow-up records, then processing of every
 * command not yet processed, up to and including the kept {@code CHECKPOINT CREATE}, where {@link
 * RestoredCheckpointCheck} compares the state digest with the backup's. No side effect leaves the
 * rebuild: inter-partition commands go nowhere, responses nowhere, and what processing writes stays
 * in memory ({@link ReplayLogStream}).
 *
 * <p>Runs the processor on a {@link DeterministicScheduler} on the calling thread: blocking, no
 * threads, no wall clock.
 */
public final class StateRebuild {

  /**
   * The outcome: the digest check, or why the rebuild could not reach it.
   *
   * @param check the comparison at the checkpoint, if the rebuild reached it
   * @param failure why it did not (the processor failed, the snapshot's state does not match its
   *     digest, the log ended first)
   */
  public record Outcome(Optional<DigestCheck> check, Optional<String> failure) {}

  private StateRebuild() {}

  /**
   * Rebuilds partition {@code marker.partitionId()} installed under {@code layout} (the runtime
   * directory is created; remove the partition's directory afterwards).
   *
   * @param partitionCount the cluster's partition count (the ledger places accounts with it)
   */
  public static Outcome rebuild(
      DataDirectoryLayout layout, RestoreMarker marker, int partitionCount) {
    int partitionId = marker.partitionId();
    MeterRegistry meters = new SimpleMeterRegistry();
    Tags tags = Tags.of("partition", Integer.toString(partitionId));
    SimClock clock = new SimClock(0);
    List<ColumnFamilyDefinition> families = new ArrayList<>(StreamProcessorColumnFamily.all());
    families.addAll(BackupColumnFamily.all());
    families.addAll(LedgerColumnFamily.all());

    try (SnapshotStore snapshots =
            SnapshotStore.open(
                layout.snapshots(partitionId), SnapshotConfig.defaults(), clock, meters, tags);
        SegmentedJournal journal =
            SegmentedJournal.open(
                JournalConfig.builder()
                    .directory(layout.journal(partitionId))
                    .name(DataDirectoryLayout.journalName(partitionId))
                    .preallocateSegmentFiles(false)
                    .build(),
                meters)) {
      Optional<PersistedSnapshot> snapshot =
          snapshots.latestSnapshot().isEmpty()
              ? Optional.empty()
              : snapshots.copyForRecovery(layout.runtime(partitionId));
      if (marker.snapshotId().isPresent()
          && !snapshot.map(s -> s.id().toString()).equals(marker.snapshotId())) {
        return failure(
            "Expected the state of snapshot "
                + marker.snapshotId().get()
                + ", but recovery gave "
                + snapshot.map(s -> "snapshot " + s.id()).orElse("no snapshot"));
      }
      families.addAll(otherFamilies(layout.runtime(partitionId), families));
      try (CairnDb db =
          CairnDb.open(layout.runtime(partitionId), DbConfig.defaults(), families, meters, tags)) {
        if (snapshot.isPresent()) {
          String recorded = snapshot.get().metadata().stateDigestHex();
          String actual = db.stateDigest().toHex();
          if (!recorded.equals(actual)) {
            return failure(
                "Expected the state of snapshot "
                    + snapshot.get().id()
                    + " to have its recorded digest "
                    + recorded
                    + ", but it has "
                    + actual);
          }
        }
        return process(db, journal, marker, partitionCount, clock, meters);
      }
    }
  }

  private static Outcome process(
      CairnDb db,
      SegmentedJournal journal,
      RestoreMarker marker,
      int partitionCount,
      SimClock clock,
      MeterRegistry meters) {
    int partitionId = marker.partitionId();
    ReplayLogStream log =
        new ReplayLogStream(partitionId, journal, marker.checkpointPosition(), clock);
    DigestCheck[] checked = new DigestCheck[1];
    RecordProcessors.Builder processors = RecordProcessors.builder();
    BackupMetrics backupMetrics = new BackupMetrics(meters, partitionId, clock);
    CheckpointState checkpoints =
        CheckpointRecords.register(
            partitionId,
            db,
            processors,
            CheckpointListener.NONE,
            backupMetrics,
            Optional.of(marker));
    LedgerEngine.builder()
        .partitionId(partitionId)
        .db(db)
        .config(LedgerEngineConfig.of(partitionCount))
        .sender(InterPartitionSender.NONE)
        .checkpointIds(checkpoints::latestCheckpointId)
        .clock(clock)
        .meterRegistry(meters)
        .build()
        .register(processors);
    processors.interceptor(
        new RestoredCheckpointCheck(
            marker,
            db,
            false,
            check -> {
              checked[0] = check;
              log.stopReading();
            }));
    StreamProcessor processor =
        StreamProcessor.builder()
            .logStream(log)
            .db(db)
            .processors(processors.build())
            .responseWriter(CommandResponseWriter.NONE)
            .mode(StreamProcessorMode.LEADER)
            .meterRegistry(meters)
            .build();
    DeterministicScheduler scheduler = new DeterministicScheduler(clock);
    try {
      scheduler.start(processor);
      scheduler.runUntilIdle();
      if (checked[0] != null) {
        return new Outcome(Optional.of(checked[0]), Optional.empty());
      }
      if (processor.phase() == StreamProcessorPhase.FAILED) {
        return failure(
            "Expected to process the log up to the checkpoint, but processing failed: "
                + processor.health().reason());
      }
      return failure(
          "Expected to process CHECKPOINT CREATE("
              + marker.backupId()
              + ") at position "
              + marker.checkpointPosition()
              + ", but the processor stopped before it ("
              + processor.phase()
              + ", last processed position "
              + processor.lastProcessedPosition()
              + ")");
    } finally {
      processor.closeAsync();
      scheduler.runUntilIdle();
      scheduler.close();
      log.close();
      backupMetrics.close();
    }
  }

  /**
   * The families of the recovered state that the rebuild does not process (a broker keeps more,
   * such as its exporters' positions), opened outside the digest: they hold bookkeeping the
   * processors here never read. Were one of them part of the broker's digest, the state's digest
   * would then differ from the snapshot's recorded one and the rebuild fail loudly, never pass.
   */
  private static List<ColumnFamilyDefinition> otherFamilies(
      Path runtime, List<ColumnFamilyDefinition> known) {
    Set<String> knownNames = new HashSet<>();
    known.forEach(family -> knownNames.add(family.name()));
    List<ColumnFamilyDefinition> others = new ArrayList<>();
    // empty without a snapshot: an empty state
    for (String name : CairnDb.storedFamilyNames(runtime)) {
      if (knownNames.add(name)) {
        others.add(ColumnFamilyDefinition.excluded(name));
      }
    }
    return others;
  }

  private static Outcome failure(String reason) {
    return new Outcome(Optional.empty(), Optional.of(reason));
  }
}
