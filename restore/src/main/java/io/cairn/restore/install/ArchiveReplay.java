package io.cairn.restore.install;

import io.cairn.backupapi.archive.ArchivedCheckpoint;
import io.cairn.backupapi.archive.ArchivedRecord;
import io.cairn.backupapi.archive.LogArchive;
import io.cairn.backupapi.archive.StoredLink;
import io.cairn.journal.InvalidChecksumException;
import io.cairn.journal.InvalidIndexException;
import io.cairn.journal.Journal;
import io.cairn.journal.JournalReader;
import io.cairn.journal.JournalRecord;
import io.cairn.restore.RestoreException;
import io.cairn.restore.RestoreProblem;
import io.cairn.restore.catalog.StoreCalls;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Continues a restored backup's log from the log archive up to a restore point (DESIGN.md §10,
 * "Point in time"): the backup's log is kept up to the entry before its checkpoint's, and the
 * archived records from that entry on are appended as replicated records (each with its index and
 * checksum, which the journal checks), up to the record holding the point's {@code CREATED} event.
 * The {@link LogCut} then stops the log at the point's {@code CREATE}.
 *
 * <p>From the checkpoint's own entry rather than after it: the backup's copy of the active segment
 * may hold records after the checkpoint that were never committed; the archive holds only committed
 * ones.
 */
final class ArchiveReplay {

  private final LogArchive archive;
  private final Duration timeout;

  ArchiveReplay(LogArchive archive, Duration timeout) {
    this.archive = archive;
    this.timeout = timeout;
  }

  /**
   * @param backupPosition the backup's checkpoint position (its entry is in the journal)
   * @return the number of archived records appended
   * @throws RestoreException CORRUPTED naming the partition and the indexes when the archive has a
   *     gap, a break or a corrupt chunk
   */
  long replay(Journal journal, long backupPosition, ArchivedCheckpoint point) {
    int partitionId = archive.partitionId();
    long from = entryOf(journal, backupPosition, partitionId);
    if (point.index() < from) {
      throw new RestoreException(
          RestoreProblem.RESTORE_POINT_BEFORE_BACKUP,
          OptionalInt.of(partitionId),
          Optional.empty(),
          "Expected restore point "
              + point.id()
              + " after the backup's checkpoint (index "
              + from
              + "), but it is at index "
              + point.index()
              + " (partition "
              + partitionId
              + ")",
          null);
    }
    String what =
        "reading the log archive of partition "
            + partitionId
            + " from index "
            + from
            + " to "
            + point.index();
    List<StoredLink> chain =
        StoreCalls.await(
            archive.chain(from, point.index()), timeout, what, OptionalInt.of(partitionId));
    journal.deleteAfter(from - 1);
    long appended = 0;
    for (StoredLink link : chain) {
      List<ArchivedRecord> records =
          StoreCalls.await(
              archive.read(link.link()),
              timeout,
              "reading archive chunk " + link.link().chunkKey(),
              OptionalInt.of(partitionId));
      for (ArchivedRecord record : records) {
        if (record.index() < from || record.index() > point.index()) {
          continue;
        }
        try {
          journal.append(
              new JournalRecord(
                  record.index(),
                  record.asqn(),
                  record.checksum(),
                  new UnsafeBuffer(record.data())));
        } catch (InvalidChecksumException | InvalidIndexException | IllegalArgumentException e) {
          throw new RestoreException(
              RestoreProblem.ARCHIVE_DAMAGED,
              OptionalInt.of(partitionId),
              Optional.of("archive/" + link.link().chunkKey()),
              "Expected archived record "
                  + record.index()
                  + " of partition "
                  + partitionId
                  + " in "
                  + link.link().chunkKey()
                  + " to be a valid journal record, but: "
                  + e.getMessage(),
              e);
        }
        appended++;
      }
    }
    journal.flush();
    return appended;
  }

  private static long entryOf(Journal journal, long position, int partitionId) {
    try (JournalReader reader = journal.openReader()) {
      reader.seekToAsqn(position);
      JournalRecord record = reader.hasNext() ? reader.next() : null;
      if (record == null || record.asqn() == Journal.ASQN_IGNORE || record.asqn() > position) {
        throw new RestoreException(
            RestoreProblem.BACKUP_LOG_INVALID,
            OptionalInt.of(partitionId),
            Optional.empty(),
            "Expected the backup's log of partition "
                + partitionId
                + " to hold the entry of its checkpoint position "
                + position
                + ", but no entry starts at or below it",
            null);
      }
      return record.index();
    }
  }
}
