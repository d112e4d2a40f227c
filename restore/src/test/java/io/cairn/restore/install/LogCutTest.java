package io.cairn.restore.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.journal.JournalConfig;
import io.cairn.journal.JournalReader;
import io.cairn.journal.JournalRecord;
import io.cairn.journal.SegmentedJournal;
import io.cairn.logstreams.LogBatchAssembler;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordBatch;
import io.cairn.protocol.RecordBatchCodec;
import io.cairn.protocol.RecordMetadata;
import io.cairn.raft.log.RaftEntry;
import io.cairn.raft.log.RaftEntryCodec;
import io.cairn.raft.log.RaftEntryType;
import io.cairn.restore.RestoreException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cut at the checkpoint on a real journal of raft entries spread over many small segments:
 * three records per entry, positions 1, 2, 3, …, one raft INITIAL entry at the start of each term.
 */
final class LogCutTest {

  private static final int RECORDS_PER_ENTRY = 3;

  @TempDir Path directory;

  private SegmentedJournal journal() {
    return SegmentedJournal.open(
        JournalConfig.builder()
            .directory(directory)
            .name("raft-partition-1")
            .segmentSizeBytes(JournalConfig.SEGMENT_SIZE_BYTES_MIN)
            .preallocateSegmentFiles(false)
            .build(),
        new SimpleMeterRegistry());
  }

  /** Entries of 3 records up to position {@code lastPosition}; {@code create} is a CREATE(7). */
  private static void fill(SegmentedJournal journal, long lastPosition, long create) {
    fill(journal, lastPosition, create, CheckpointIntent.CREATE);
  }

  private static void fill(
      SegmentedJournal journal, long lastPosition, long create, CheckpointIntent intent) {
    long term = 1;
    journal.append(-1, RaftEntryCodec.encode(initial(term)));
    for (long low = 1; low <= lastPosition; low += RECORDS_PER_ENTRY) {
      if (low == 31) { // a leader change in the middle of the log
        term = 2;
        journal.append(-1, RaftEntryCodec.encode(initial(term)));
      }
      List<Record> records = new ArrayList<>();
      for (long position = low; position < low + RECORDS_PER_ENTRY; position++) {
        records.add(position == create ? checkpoint(position, intent) : deposit(position));
      }
      RecordBatch batch = new RecordBatch(records);
      journal.append(
          low,
          RaftEntryCodec.encode(
              new RaftEntry(
                  term,
                  RaftEntryType.APPLICATION,
                  low,
                  batch.highestPosition(),
                  LogBatchAssembler.encode(batch))));
    }
    journal.flush();
  }

  private static RaftEntry initial(long term) {
    return new RaftEntry(
        term,
        RaftEntryType.INITIAL,
        RaftEntry.NO_POSITION,
        RaftEntry.NO_POSITION,
        new org.agrona.concurrent.UnsafeBuffer(new byte[0]));
  }

  private static Record deposit(long position) {
    return new Record(
        RecordMetadata.builder()
            .command(DepositIntent.DEPOSIT)
            .position(position)
            .timestamp(1)
            .build(),
        new DepositValue("account-" + position, position));
  }

  private static Record checkpoint(long position, CheckpointIntent intent) {
    return new Record(
        RecordMetadata.builder().command(intent).position(position).timestamp(1).build(),
        new CheckpointValue(7, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP));
  }

  private static List<Long> positions(SegmentedJournal journal) {
    List<Long> positions = new ArrayList<>();
    try (JournalReader reader = journal.openReader()) {
      while (reader.hasNext()) {
        JournalRecord record = reader.next();
        RaftEntry entry = RaftEntryCodec.decode(record.data());
        if (entry.type() == RaftEntryType.APPLICATION) {
          RecordBatch batch =
              RecordBatchCodec.decode(entry.payload(), 0, entry.payload().capacity());
          assertThat(batch.highestPosition()).isEqualTo(entry.highestPosition());
          batch.records().forEach(r -> positions.add(r.position()));
        }
      }
    }
    return positions;
  }

  @Test
  void shouldRewriteTheCheckpointsEntryAndDropEveryLaterSegment() {
    // given 300 records over many 4 KiB segments, CREATE(7) at 152, the middle of an entry
    try (SegmentedJournal journal = journal()) {
      fill(journal, 300, 152);
      int segmentsBefore = journal.segmentFiles().size();
      assertThat(segmentsBefore).isGreaterThan(3);

      // when the log is cut there
      LogCut.Result result = new LogCut(journal, 1).cut(152, 7);

      // then it ends with the rewritten entry [151, 152]; 153..300 are gone
      assertThat(result.entryRewritten()).isTrue();
      assertThat(result.droppedRecords()).isEqualTo(300 - 152);
      assertThat(result.lastTerm()).isEqualTo(2);
      assertThat(result.firstIndex()).isEqualTo(1);
      assertThat(journal.getLastIndex()).isEqualTo(result.checkpointIndex());
      assertThat(journal.segmentFiles().size()).isLessThan(segmentsBefore);
    }
    // and a reopened journal (every frame checked again) holds exactly positions 1..152
    try (SegmentedJournal reopened = journal()) {
      List<Long> positions = positions(reopened);
      assertThat(positions).hasSize(152);
      assertThat(positions.get(0)).isEqualTo(1);
      assertThat(positions.get(positions.size() - 1)).isEqualTo(152);
    }
  }

  @Test
  void shouldRewriteTheFirstEntryOfALogThatStartsAfterAnInstalledSnapshot() {
    // given a log that raft reset past an installed snapshot (index 40): it starts at index 41,
    // and the checkpoint, CREATE(7) at 101, is in the middle of its first entry [100, 102]
    try (SegmentedJournal journal = journal()) {
      journal.reset(41);
      for (long low = 100; low <= 130; low += RECORDS_PER_ENTRY) {
        List<Record> records = new ArrayList<>();
        for (long position = low; position < low + RECORDS_PER_ENTRY; position++) {
          records.add(
              position == 101 ? checkpoint(position, CheckpointIntent.CREATE) : deposit(position));
        }
        RecordBatch batch = new RecordBatch(records);
        journal.append(
            low,
            RaftEntryCodec.encode(
                new RaftEntry(
                    3,
                    RaftEntryType.APPLICATION,
                    low,
                    batch.highestPosition(),
                    LogBatchAssembler.encode(batch))));
      }
      journal.flush();

      // when the log is cut there
      LogCut.Result result = new LogCut(journal, 1).cut(101, 7);

      // then the log is the rewritten first entry alone, still at index 41
      assertThat(result.entryRewritten()).isTrue();
      assertThat(result.checkpointIndex()).isEqualTo(41);
      assertThat(result.firstIndex()).isEqualTo(41);
      assertThat(result.lastTerm()).isEqualTo(3);
      assertThat(journal.getFirstIndex()).isEqualTo(41);
      assertThat(journal.getLastIndex()).isEqualTo(41);
    }
    try (SegmentedJournal reopened = journal()) {
      assertThat(reopened.getFirstIndex()).isEqualTo(41);
      assertThat(positions(reopened)).containsExactly(100L, 101L);
    }
  }

  @Test
  void shouldKeepTheWholeEntryWhenTheCheckpointEndsIt() {
    try (SegmentedJournal journal = journal()) {
      fill(journal, 60, 15); // entry [13, 15]

      LogCut.Result result = new LogCut(journal, 1).cut(15, 7);

      assertThat(result.entryRewritten()).isFalse();
      assertThat(result.droppedRecords()).isEqualTo(45);
      assertThat(result.lastTerm()).isEqualTo(1);
      assertThat(positions(journal)).hasSize(15).endsWith(15L);
    }
  }

  @Test
  void shouldCutAtAMarkersCommandForARestorePoint() {
    // a restore point taken by a marker: MARK(7), which no backup uploads, sits at the cut
    try (SegmentedJournal journal = journal()) {
      fill(journal, 60, 15, CheckpointIntent.MARK);

      LogCut.Result result = new LogCut(journal, 1).cut(15, 7);

      assertThat(result.droppedRecords()).isEqualTo(45);
      assertThat(positions(journal)).hasSize(15).endsWith(15L);
    }
  }

  @Test
  void shouldNameTheSegmentWhenTheCheckpointIsNotThere() {
    try (SegmentedJournal journal = journal()) {
      fill(journal, 60, 15);

      // a deposit sits at position 20, not CREATE(7)
      assertThatThrownBy(() -> new LogCut(journal, 1).cut(20, 7))
          .isInstanceOfSatisfying(
              RestoreException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(RestoreException.Kind.CORRUPTED);
                assertThat(e.partitionId()).hasValue(1);
                assertThat(e.file())
                    .hasValueSatisfying(
                        f -> assertThat(f).matches("segments/raft-partition-1-\\d+\\.log"));
              })
          .hasMessageContaining("CHECKPOINT CREATE or MARK(7) at position 20")
          .hasMessageContaining("DEPOSIT");
      // the right command but another checkpoint id
      assertThatThrownBy(() -> new LogCut(journal, 1).cut(15, 8))
          .hasMessageContaining("of checkpoint 7");
      // a position the log does not hold
      assertThatThrownBy(() -> new LogCut(journal, 1).cut(500, 7))
          .isInstanceOf(RestoreException.class)
          .hasMessageContaining("checkpoint position 500");
      // and nothing was cut
      assertThat(positions(journal)).hasSize(60);
    }
  }
}
