package io.cairn.restore.install;

import io.cairn.journal.Journal;
import io.cairn.journal.JournalReader;
import io.cairn.journal.JournalRecord;
import io.cairn.journal.JournalSegmentFile;
import io.cairn.logstreams.LogBatchAssembler;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordBatch;
import io.cairn.protocol.RecordBatchCodec;
import io.cairn.protocol.RecordType;
import io.cairn.raft.log.RaftEntry;
import io.cairn.raft.log.RaftEntryCodec;
import io.cairn.raft.log.RaftEntryType;
import io.cairn.restore.RestoreException;
import io.cairn.restore.RestoreProblem;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.agrona.DirectBuffer;

/**
 * Cuts a restored log at the checkpoint (DESIGN.md §10): keeps every record up to and including the
 * {@code CHECKPOINT CREATE} at the checkpoint position and drops everything after it.
 *
 * <p>Raft entries hold batches of records, and the entry holding the checkpoint may hold records
 * after it: when a partition takes a checkpoint because an inter-partition command carried a higher
 * checkpoint id, {@code [CREATE(id), the command]} are written as one batch, and the command was
 * processed <em>after</em> the cut. Such an entry is rewritten with the records up to the
 * checkpoint position only (same index, term and first position, a new checksum); later entries are
 * deleted.
 */
public final class LogCut {

  /**
   * What the cut left.
   *
   * @param checkpointIndex the raft index of the checkpoint's entry, now the last one
   * @param lastTerm that entry's term
   * @param firstIndex the log's first index
   * @param droppedRecords records after the checkpoint position that were removed
   * @param entryRewritten whether the checkpoint's entry held later records and was rewritten
   */
  public record Result(
      long checkpointIndex,
      long lastTerm,
      long firstIndex,
      long droppedRecords,
      boolean entryRewritten) {}

  private final Journal journal;
  private final int partitionId;

  public LogCut(Journal journal, int partitionId) {
    this.journal = journal;
    this.partitionId = partitionId;
  }

  /**
   * Cuts the log after the {@code CHECKPOINT CREATE(checkpointId)} at {@code checkpointPosition}
   * and flushes it.
   *
   * @throws RestoreException CORRUPTED, naming the segment file, if the log does not hold that
   *     command at that position or an entry cannot be decoded
   */
  public Result cut(long checkpointPosition, long checkpointId) {
    if (journal.isEmpty()) {
      throw corrupted(
          OptionalLong.empty(),
          "the backup's segments to hold the entry of checkpoint position " + checkpointPosition,
          "they hold no entry");
    }
    JournalRecord record;
    try (JournalReader reader = journal.openReader()) {
      reader.seekToAsqn(checkpointPosition);
      record = reader.hasNext() ? reader.next() : null;
    }
    if (record == null
        || record.asqn() == Journal.ASQN_IGNORE
        || record.asqn() > checkpointPosition) {
      throw corrupted(
          OptionalLong.empty(),
          "an entry holding checkpoint position " + checkpointPosition,
          "no entry starts at or below it (log indexes "
              + journal.getFirstIndex()
              + " to "
              + journal.getLastIndex()
              + ")");
    }
    RaftEntry entry = decode(record);
    RecordBatch batch = decodeBatch(entry, record.index());
    Record checkpoint =
        batch.records().stream()
            .filter(r -> r.position() == checkpointPosition)
            .findFirst()
            .orElseThrow(
                () ->
                    corrupted(
                        OptionalLong.of(record.index()),
                        "a record at checkpoint position " + checkpointPosition,
                        "the entry at index "
                            + record.index()
                            + " holds positions "
                            + batch.lowestPosition()
                            + " to "
                            + batch.highestPosition()));
    checkIsCheckpoint(checkpoint, checkpointId, record.index());

    List<Record> kept =
        batch.records().stream().filter(r -> r.position() <= checkpointPosition).toList();
    long dropped = batch.size() - kept.size();
    dropped += recordsAfter(record.index());

    boolean rewrite = kept.size() < batch.size();
    if (rewrite) {
      DirectBuffer payload = LogBatchAssembler.encode(new RecordBatch(kept));
      DirectBuffer data =
          RaftEntryCodec.encode(
              new RaftEntry(
                  entry.term(),
                  RaftEntryType.APPLICATION,
                  entry.lowestPosition(),
                  checkpointPosition,
                  payload));
      journal.deleteAfter(record.index() - 1);
      JournalRecord written = journal.append(entry.lowestPosition(), data);
      if (written.index() != record.index()) {
        throw new IllegalStateException(
            "Expected the rewritten checkpoint entry at index "
                + record.index()
                + ", but it was written at "
                + written.index()
                + " (partition "
                + partitionId
                + ")");
      }
    } else {
      journal.deleteAfter(record.index());
    }
    journal.flush();
    return new Result(record.index(), entry.term(), journal.getFirstIndex(), dropped, rewrite);
  }

  /** The term of the entry at {@code index}, which must be in the log. */
  public long termAt(long index) {
    try (JournalReader reader = journal.openReader()) {
      reader.seek(index);
      if (!reader.hasNext()) {
        throw corrupted(
            OptionalLong.of(index), "an entry at index " + index, "the log ends before it");
      }
      JournalRecord record = reader.next();
      if (record.index() != index) {
        throw corrupted(
            OptionalLong.of(index),
            "an entry at index " + index,
            "the log starts at index " + record.index());
      }
      return decode(record).term();
    }
  }

  /** The records held by the entries after {@code index}. */
  private long recordsAfter(long index) {
    long count = 0;
    try (JournalReader reader = journal.openReader()) {
      reader.seek(index + 1);
      while (reader.hasNext()) {
        JournalRecord record = reader.next();
        RaftEntry entry = decode(record);
        if (entry.type() == RaftEntryType.APPLICATION) {
          count += entry.highestPosition() - entry.lowestPosition() + 1;
        }
      }
    }
    return count;
  }

  /**
   * The record at the cut must be the checkpoint's command: {@code CREATE} for a backup, {@code
   * CREATE} or {@code MARK} (a marker, which no backup uploads) for a restore point.
   */
  private void checkIsCheckpoint(Record record, long checkpointId, long index) {
    var metadata = record.metadata();
    boolean checkpoint =
        metadata.recordType() == RecordType.COMMAND
            && (metadata.intent() == CheckpointIntent.CREATE
                || metadata.intent() == CheckpointIntent.MARK);
    if (!checkpoint || ((CheckpointValue) record.value()).checkpointId() != checkpointId) {
      throw corrupted(
          OptionalLong.of(index),
          "CHECKPOINT CREATE or MARK(" + checkpointId + ") at position " + record.position(),
          "the record there is "
              + metadata.recordType()
              + " "
              + metadata.valueType()
              + " "
              + metadata.intent().name()
              + (checkpoint
                  ? " of checkpoint " + ((CheckpointValue) record.value()).checkpointId()
                  : ""));
    }
  }

  private RaftEntry decode(JournalRecord record) {
    try {
      return RaftEntryCodec.decode(record.data());
    } catch (IllegalArgumentException e) {
      throw corrupted(
          OptionalLong.of(record.index()),
          "a raft entry at index " + record.index(),
          e.getMessage());
    }
  }

  private RecordBatch decodeBatch(RaftEntry entry, long index) {
    if (entry.type() != RaftEntryType.APPLICATION) {
      throw corrupted(
          OptionalLong.of(index),
          "an application entry holding the checkpoint at index " + index,
          "it is " + entry.type());
    }
    try {
      RecordBatch batch = RecordBatchCodec.decode(entry.payload(), 0, entry.payload().capacity());
      if (batch.lowestPosition() != entry.lowestPosition()
          || batch.highestPosition() != entry.highestPosition()) {
        throw corrupted(
            OptionalLong.of(index),
            "the batch at index "
                + index
                + " to hold positions "
                + entry.lowestPosition()
                + " to "
                + entry.highestPosition(),
            "it holds " + batch.lowestPosition() + " to " + batch.highestPosition());
      }
      return batch;
    } catch (ProtocolException | IllegalArgumentException e) {
      throw corrupted(
          OptionalLong.of(index), "a decodable record batch at index " + index, e.getMessage());
    }
  }

  private RestoreException corrupted(OptionalLong index, String expected, String actual) {
    Optional<String> file = index.isPresent() ? segmentOf(index.getAsLong()) : Optional.empty();
    return new RestoreException(
        RestoreProblem.BACKUP_LOG_INVALID,
        OptionalInt.of(partitionId),
        file,
        "Expected "
            + expected
            + ", but "
            + actual
            + " (partition "
            + partitionId
            + file.map(f -> ", file " + f).orElse("")
            + "). The backup's log does not match its descriptor: restore another backup, or the"
            + " same partition's backup from another node.",
        null);
  }

  private Optional<String> segmentOf(long index) {
    for (JournalSegmentFile segment : journal.segmentFiles()) {
      if (segment.firstIndex() <= index && index <= segment.lastIndex()) {
        return Optional.of("segments/" + segment.path().getFileName());
      }
    }
    return Optional.empty();
  }
}
