package io.cairn.backup.upload;

import io.cairn.backup.Checkpoint;
import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.journal.Journal;
import io.cairn.journal.JournalReader;
import io.cairn.journal.JournalRecord;
import io.cairn.journal.JournalSegmentFile;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides what a partition backup contains (DESIGN.md §9, step 2): the reserved snapshot's files,
 * and the journal segments from the snapshot's index (index 1 for a log-only backup) up to the
 * entry holding the checkpoint position — each segment with its committed length <em>at this
 * moment</em>, so the active segment, which keeps growing, is copied exactly up to that length.
 *
 * <p>A restore needs the log from the entry after the snapshot: the snapshot's own entry is copied
 * when the log still holds it, and not required. A member that installed its snapshot from the
 * leader holds a log that starts right after it (raft resets the journal there).
 *
 * <p>The checkpoint's entry is found through the journal's asqn index: a log stream entry's asqn is
 * the position of its first record, so the entry holding a position is the one with the highest
 * asqn at or below it.
 *
 * <p>Reads the journal (a reader, {@link Journal#segmentFiles()}); call it off the processing
 * thread. Every "cannot" is an {@link IllegalStateException} whose message is the backup's failure
 * reason.
 */
public final class BackupPlanner {

  private final int nodeId;
  private final int partitionId;
  private final int partitionCount;
  private final String brokerVersion;
  private final Journal journal;

  public BackupPlanner(
      int nodeId, int partitionId, int partitionCount, String brokerVersion, Journal journal) {
    this.nodeId = nodeId;
    this.partitionId = partitionId;
    this.partitionCount = partitionCount;
    this.brokerVersion = brokerVersion;
    this.journal = journal;
  }

  /**
   * @throws SnapshotUnavailableException if no snapshot was reserved and the log no longer starts
   *     at index 1, or the log no longer holds the entry after the reserved snapshot
   * @throws IllegalStateException if the log no longer (or not yet) holds what the backup needs
   */
  public Backup plan(CheckpointReservation reservation) {
    Checkpoint checkpoint = reservation.checkpoint();
    Optional<PersistedSnapshot> snapshot = reservation.snapshot();
    long checkpointIndex = indexOf(checkpoint.position());
    long fromIndex;
    long requiredIndex;
    if (snapshot.isPresent()) {
      fromIndex = Math.min(snapshot.get().index(), checkpointIndex);
      requiredIndex = Math.min(snapshot.get().index() + 1, checkpointIndex);
    } else {
      long firstIndex = journal.getFirstIndex();
      if (firstIndex != 1) {
        throw new SnapshotUnavailableException(
            "Expected a snapshot with processed and last written positions below the checkpoint"
                + " position "
                + checkpoint.position()
                + ", or a log starting at index 1 for a backup without snapshot, but no snapshot"
                + " is usable and the log starts at index "
                + firstIndex
                + " (partition "
                + partitionId
                + "). Take a backup with a new id once a newer snapshot exists.");
      }
      fromIndex = 1;
      requiredIndex = 1;
    }
    List<BackupFile> segments = segments(fromIndex, requiredIndex, checkpointIndex);

    Backup.Builder builder =
        Backup.builder(new BackupIdentifier(nodeId, partitionId, checkpoint.id()))
            .checkpointPosition(checkpoint.position())
            .numberOfPartitions(partitionCount)
            .brokerVersion(brokerVersion)
            .stateDigest(checkpoint.stateDigestHex())
            .familyDigests(checkpoint.familyDigestsHex())
            .segments(new NamedFileSet(segments));
    snapshot.ifPresent(s -> builder.snapshot(s.id().toString(), snapshotFiles(s)));
    return builder.build();
  }

  /** The journal index of the entry holding {@code position}. */
  private long indexOf(long position) {
    try (JournalReader reader = journal.openReader()) {
      reader.seekToAsqn(position);
      JournalRecord entry = reader.hasNext() ? reader.next() : null;
      if (entry == null || entry.asqn() == Journal.ASQN_IGNORE || entry.asqn() > position) {
        throw failure(
            "the log to hold the entry of checkpoint position " + position,
            "no entry starts at or below it (log indexes "
                + journal.getFirstIndex()
                + " to "
                + journal.getLastIndex()
                + ")");
      }
      return entry.index();
    }
  }

  /**
   * The segments holding indexes {@code fromIndex} (if still there) to {@code toIndex}; the first
   * must hold {@code requiredIndex} at the latest.
   */
  private List<BackupFile> segments(long fromIndex, long requiredIndex, long toIndex) {
    List<BackupFile> files = new ArrayList<>();
    JournalSegmentFile previous = null;
    for (JournalSegmentFile segment : journal.segmentFiles()) {
      boolean before = segment.lastIndex() < fromIndex;
      boolean after = segment.firstIndex() > toIndex;
      if (before || after) {
        continue;
      }
      if (previous == null && segment.firstIndex() > requiredIndex) {
        // the snapshot's log is gone: one installed from the leader reset it past an older one
        throw new SnapshotUnavailableException(
            failure(
                    "the log to hold index " + requiredIndex + " (the start of the backup)",
                    "its first segment starts at index " + segment.firstIndex())
                .getMessage());
      }
      if (previous != null && segment.firstIndex() != previous.lastIndex() + 1) {
        throw failure(
            "gapless segments",
            "segment "
                + segment.path()
                + " starts at index "
                + segment.firstIndex()
                + " after one ending at "
                + previous.lastIndex());
      }
      files.add(
          new BackupFile(
              segment.path().getFileName().toString(),
              segment.path(),
              segment.committedLengthBytes()));
      previous = segment;
    }
    if (previous == null || previous.lastIndex() < toIndex) {
      throw failure(
          "the log's segments to hold indexes " + fromIndex + " to " + toIndex + " on disk",
          previous == null
              ? "no segment overlaps them"
              : "they end at index " + previous.lastIndex());
    }
    return files;
  }

  private static NamedFileSet snapshotFiles(PersistedSnapshot snapshot) {
    List<BackupFile> files = new ArrayList<>(snapshot.files().size());
    for (SnapshotFile file : snapshot.files()) {
      files.add(new BackupFile(file.name(), file.path(), file.sizeBytes()));
    }
    return new NamedFileSet(files);
  }

  private IllegalStateException failure(String expected, String actual) {
    return new IllegalStateException(
        "Expected " + expected + ", but " + actual + " (partition " + partitionId + ")");
  }
}
