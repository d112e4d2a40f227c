package io.cairn.restore.install;

import io.cairn.backup.restore.RestoreMarker;
import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.archive.ArchiveObjects;
import io.cairn.backupapi.archive.ArchivedCheckpoint;
import io.cairn.backupapi.archive.LogArchive;
import io.cairn.files.DurableFiles;
import io.cairn.journal.CorruptedJournalException;
import io.cairn.journal.JournalConfig;
import io.cairn.journal.JournalException;
import io.cairn.journal.SegmentedJournal;
import io.cairn.raft.storage.FileRaftMetaStore;
import io.cairn.raft.storage.RaftMeta;
import io.cairn.restore.PartitionPlan;
import io.cairn.restore.RestoreException;
import io.cairn.restore.RestoreProblem;
import io.cairn.restore.layout.DataDirectoryLayout;
import io.cairn.scheduler.Clock;
import io.cairn.snapshot.CorruptedSnapshotException;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotException;
import io.cairn.snapshot.store.SnapshotLayout;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Installs one partition's downloaded backup (every file's size and CRC32C already checked by the
 * store) into a data directory, in the layout the broker opens ({@link DataDirectoryLayout}):
 *
 * <ol>
 *   <li>the segments are moved into the journal directory (their names must be the broker's segment
 *       names for this partition) and the journal is opened, which checks every frame;
 *   <li>the log is cut at the checkpoint ({@link LogCut}): it ends with the {@code CHECKPOINT
 *       CREATE} at the descriptor's checkpoint position;
 *   <li>the snapshot, if the backup has one, is checked against its checksum file and moved into
 *       the snapshot store's directory, committed like a taken one ({@link SnapshotPlacement};
 *       {@code SnapshotStore#restore} would copy it again); it must be the descriptor's snapshot,
 *       below the checkpoint, and continue the log (raft would otherwise replace the log by the
 *       snapshot);
 *   <li>the raft meta gets the term of the log's last entry and no vote, so the restored members
 *       elect a leader in a later term;
 *   <li>the {@link RestoreMarker} records what the partition must reproduce.
 * </ol>
 *
 * Every file is renamed into place, never copied: the download fsynced each file once, and this
 * fsyncs each directory it changes once. Blocking; one partition per call. The journal and snapshot
 * store opened here are closed before it returns; their meters go to a private registry (they are
 * not the restore's).
 */
public final class PartitionInstaller {

  private final DataDirectoryLayout layout;
  private final Clock clock;
  private final Optional<ArchiveObjects> archive;
  private final Duration timeout;

  /**
   * @param archive the store's log archive, for point-in-time plans
   * @param timeout how long one read of the archive may take
   */
  public PartitionInstaller(
      DataDirectoryLayout layout, Clock clock, Optional<ArchiveObjects> archive, Duration timeout) {
    this.layout = layout;
    this.clock = clock;
    this.archive = archive;
    this.timeout = timeout;
  }

  /** An installer of backups only (no point-in-time plans). */
  public PartitionInstaller(DataDirectoryLayout layout, Clock clock) {
    this(layout, clock, Optional.empty(), Duration.ofMinutes(1));
  }

  /**
   * What an installation left.
   *
   * @param cut where the log ends and what was dropped
   * @param snapshot the installed snapshot, if any
   */
  public record Installed(
      LogCut.Result cut, Optional<PersistedSnapshot> snapshot, long archivedRecords) {}

  /**
   * @param plan the partition and the backup copy
   * @param downloaded the copy as {@link io.cairn.backupapi.BackupStore#restore} left it in staging
   * @throws RestoreException CORRUPTED naming the file when the content does not fit the
   *     descriptor, FAILED when the file system fails
   */
  public Installed install(PartitionPlan plan, Backup downloaded) {
    int partitionId = plan.partitionId();
    BackupDescriptor descriptor = plan.descriptor();
    try {
      Path partitionDirectory = layout.partition(partitionId);
      Files.createDirectories(partitionDirectory);
      moveSegments(partitionId, downloaded.segments().files());
      MeterRegistry meters = new SimpleMeterRegistry();
      try (SegmentedJournal journal = openJournal(partitionId, meters)) {
        long archived = 0;
        if (plan.restorePoint().isPresent()) {
          archived =
              new ArchiveReplay(archiveOf(partitionId), timeout)
                  .replay(journal, descriptor.checkpointPosition(), plan.restorePoint().get());
        }
        LogCut logCut = new LogCut(journal, partitionId);
        LogCut.Result cut = logCut.cut(plan.checkpointPosition(), plan.checkpointId());
        Optional<PersistedSnapshot> snapshot =
            installSnapshot(plan, downloaded, cut, logCut, meters);
        writeRaftMeta(partitionId, cut.lastTerm());
        // a restore point's digest is the CREATED event's; its digest by family is not recorded
        new RestoreMarker(
                plan.checkpointId(),
                partitionId,
                descriptor.nodeId(),
                plan.checkpointPosition(),
                plan.restorePoint()
                    .map(ArchivedCheckpoint::stateDigest)
                    .orElse(descriptor.stateDigest()),
                descriptor.snapshotId(),
                descriptor.brokerVersion(),
                plan.restorePoint().isPresent()
                    ? new TreeMap<String, String>()
                    : descriptor.familyDigests())
            .write(partitionDirectory);
        DurableFiles.fsyncDirectory(partitionDirectory);
        DurableFiles.fsyncDirectory(layout.partitions());
        return new Installed(cut, snapshot, archived);
      }
    } catch (CorruptedJournalException e) {
      throw new RestoreException(
          RestoreProblem.BACKUP_LOG_INVALID,
          OptionalInt.of(partitionId),
          Optional.of("segments/" + e.file().getFileName()),
          "Expected the backup's segments of partition "
              + partitionId
              + " to hold a valid log, but: "
              + e.getMessage()
              + ". Restore another backup, or the same partition's backup from another node.",
          e);
    } catch (JournalException e) {
      throw failed(partitionId, "open the restored log", e);
    } catch (IOException | UncheckedIOException e) {
      throw failed(partitionId, "write the partition's files", e);
    }
  }

  private LogArchive archiveOf(int partitionId) {
    return new LogArchive(
        archive.orElseThrow(
            () ->
                new IllegalStateException(
                    "Expected an installer with the store's archive for a point-in-time plan")),
        partitionId);
  }

  private void moveSegments(int partitionId, List<BackupFile> segments) throws IOException {
    Pattern name =
        Pattern.compile(
            Pattern.quote(DataDirectoryLayout.journalName(partitionId)) + "-\\d{1,19}\\.log");
    Path journal = layout.journal(partitionId);
    Files.createDirectories(journal);
    if (segments.isEmpty()) {
      throw new RestoreException(
          RestoreProblem.BACKUP_LOG_INVALID,
          OptionalInt.of(partitionId),
          Optional.empty(),
          "Expected the backup of partition "
              + partitionId
              + " to hold log segments, but it holds none. Restore another backup.",
          null);
    }
    for (BackupFile segment : segments) {
      if (!name.matcher(segment.name()).matches()) {
        throw new RestoreException(
            RestoreProblem.BACKUP_LOG_INVALID,
            OptionalInt.of(partitionId),
            Optional.of("segments/" + segment.name()),
            "Expected segment files named "
                + DataDirectoryLayout.journalName(partitionId)
                + "-<segmentId>.log, but the backup holds '"
                + segment.name()
                + "' (partition "
                + partitionId
                + "). The backup is not one of this partition's logs: restore another backup.",
            null);
      }
      Files.move(segment.path(), journal.resolve(segment.name()), StandardCopyOption.ATOMIC_MOVE);
    }
    DurableFiles.fsyncDirectory(journal);
  }

  private SegmentedJournal openJournal(int partitionId, MeterRegistry meters) {
    // Only deleteAfter/append run here, never a new segment; the broker's own settings apply once
    // it opens the journal (existing segments keep the size their descriptor records).
    JournalConfig config =
        JournalConfig.builder()
            .directory(layout.journal(partitionId))
            .name(DataDirectoryLayout.journalName(partitionId))
            .preallocateSegmentFiles(false)
            .build();
    return SegmentedJournal.open(config, meters);
  }

  private Optional<PersistedSnapshot> installSnapshot(
      PartitionPlan plan,
      Backup downloaded,
      LogCut.Result cut,
      LogCut logCut,
      MeterRegistry meters) {
    int partitionId = plan.partitionId();
    BackupDescriptor descriptor = plan.descriptor();
    if (descriptor.snapshotId().isEmpty()) {
      if (cut.firstIndex() != 1) {
        throw corrupted(
            RestoreProblem.BACKUP_LOG_INVALID,
            partitionId,
            Optional.empty(),
            "a log-only backup to hold the log from index 1",
            "it starts at index " + cut.firstIndex());
      }
      return Optional.empty();
    }
    for (BackupFile file : downloaded.snapshot().files()) {
      if (!SnapshotLayout.isValidFileName(file.name())) {
        throw corrupted(
            RestoreProblem.SNAPSHOT_INVALID,
            partitionId,
            Optional.of("snapshot/" + file.name()),
            "snapshot file names of [A-Za-z0-9._-]",
            "the backup holds '" + file.name() + "'");
      }
    }
    PersistedSnapshot snapshot;
    try {
      // moved into place, checked as SnapshotStore.restore checks, which would copy every byte
      snapshot =
          SnapshotPlacement.install(
              layout.snapshots(partitionId),
              downloaded.snapshot().files(),
              descriptor.snapshotId().get(),
              clock,
              meters,
              Tags.of("partition", Integer.toString(partitionId)));
    } catch (IOException e) {
      throw failed(partitionId, "install the snapshot " + descriptor.snapshotId().get(), e);
    } catch (CorruptedSnapshotException e) {
      throw new RestoreException(
          RestoreProblem.SNAPSHOT_INVALID,
          OptionalInt.of(partitionId),
          Optional.of("snapshot/" + e.file()),
          "Partition "
              + partitionId
              + ": "
              + e.getMessage()
              + " Restore another backup, or the same partition's backup from another node.",
          e);
    } catch (SnapshotException e) {
      throw failed(partitionId, "install the snapshot " + descriptor.snapshotId().get(), e);
    }
    long position = descriptor.checkpointPosition();
    String id = snapshot.id().toString();
    if (!id.equals(descriptor.snapshotId().get())) {
      throw corrupted(
          RestoreProblem.SNAPSHOT_INVALID,
          partitionId,
          Optional.of("snapshot/" + SnapshotLayout.METADATA_FILE),
          "snapshot " + descriptor.snapshotId().get() + " as the descriptor records",
          "the snapshot files describe " + id);
    }
    if (snapshot.metadata().processedPosition() >= position
        || snapshot.metadata().lastWrittenPosition() >= position) {
      throw corrupted(
          RestoreProblem.SNAPSHOT_INVALID,
          partitionId,
          Optional.of("snapshot/" + SnapshotLayout.METADATA_FILE),
          "a snapshot whose processed and last written positions are below the checkpoint"
              + " position "
              + position,
          "snapshot " + id + " is not");
    }
    if (snapshot.index() > cut.checkpointIndex() || cut.firstIndex() > snapshot.index() + 1) {
      throw corrupted(
          RestoreProblem.SNAPSHOT_INVALID,
          partitionId,
          Optional.empty(),
          "the log to continue snapshot " + id + " (index " + snapshot.index() + ")",
          "it holds indexes " + cut.firstIndex() + " to " + cut.checkpointIndex());
    }
    if (cut.firstIndex() <= snapshot.index()) {
      long term = logCut.termAt(snapshot.index());
      if (term != snapshot.term()) {
        throw corrupted(
            RestoreProblem.SNAPSHOT_INVALID,
            partitionId,
            Optional.empty(),
            "the log's entry at the snapshot's index "
                + snapshot.index()
                + " to have the"
                + " snapshot's term "
                + snapshot.term(),
            "it has term " + term);
      }
    }
    return Optional.of(snapshot);
  }

  private void writeRaftMeta(int partitionId, long term) throws IOException {
    Path file = layout.raftMetaFile(partitionId);
    Files.createDirectories(file.getParent());
    try (FileRaftMetaStore store = new FileRaftMetaStore(file)) {
      store.store(new RaftMeta(term, RaftMeta.NO_VOTE));
    }
  }

  private static RestoreException corrupted(
      RestoreProblem problem,
      int partitionId,
      Optional<String> file,
      String expected,
      String actual) {
    return new RestoreException(
        problem,
        OptionalInt.of(partitionId),
        file,
        "Expected "
            + expected
            + ", but "
            + actual
            + " (partition "
            + partitionId
            + file.map(f -> ", file " + f).orElse("")
            + "). Restore another backup, or the same partition's backup from another node.",
        null);
  }

  private static RestoreException failed(int partitionId, String what, Exception cause) {
    return new RestoreException(
        RestoreProblem.LOCAL_IO_FAILED,
        OptionalInt.of(partitionId),
        Optional.empty(),
        "Expected to "
            + what
            + " of partition "
            + partitionId
            + ", but: "
            + cause
            + ". Check the data directory's free space and permissions, then run the restore"
            + " again.",
        cause);
  }
}
