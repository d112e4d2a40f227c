package io.cairn.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.journal.Journal;
import io.cairn.journal.JournalConfig;
import io.cairn.journal.SegmentedJournal;
import io.cairn.raft.log.RaftEntry;
import io.cairn.raft.log.RaftEntryType;
import io.cairn.raft.log.RaftLog;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The raft log over a real segmented journal: terms, positions, truncation, reopen. */
class RaftLogTest {

  @TempDir Path directory;

  private Journal open() {
    return SegmentedJournal.open(
        JournalConfig.builder()
            .directory(directory)
            .name("raft-test")
            .segmentSizeBytes(4096)
            .indexDensity(4)
            .preallocateSegmentFiles(false)
            .build(),
        new SimpleMeterRegistry());
  }

  private static RaftEntry entry(long term, long position) {
    return position < 0
        ? new RaftEntry(term, RaftEntryType.INITIAL, -1, -1, new UnsafeBuffer(new byte[0]))
        : new RaftEntry(
            term,
            RaftEntryType.APPLICATION,
            position,
            position + 1,
            new UnsafeBuffer(new byte[20]));
  }

  @Test
  void shouldKnowTermsAndLastPositionAfterReopen() {
    try (Journal journal = open()) {
      RaftLog log = RaftLog.open(journal, 0, 0, "test");
      log.append(entry(1, -1));
      log.append(entry(1, 10));
      log.append(entry(2, -1));
      log.append(entry(2, 20));
      log.append(entry(4, -1));
      log.flush();
      log.close();
    }
    try (Journal journal = open()) {
      RaftLog log = RaftLog.open(journal, 0, 0, "test");

      assertThat(log.lastIndex()).isEqualTo(5);
      assertThat(log.lastTerm()).isEqualTo(4);
      assertThat(
              new long[] {
                log.termAt(0),
                log.termAt(1),
                log.termAt(2),
                log.termAt(3),
                log.termAt(4),
                log.termAt(6)
              })
          .containsExactly(0, 1, 1, 2, 2, RaftLog.UNKNOWN_TERM);
      assertThat(log.firstIndexOfTerm(2)).isEqualTo(3);
      assertThat(log.lastIndexOfTerm(2)).isEqualTo(4);
      assertThat(log.lastIndexOfTerm(3)).isEqualTo(-1);
      assertThat(log.lastPosition()).isEqualTo(21);
      assertThat(log.readEntry(4).lowestPosition()).isEqualTo(20);
      log.close();
    }
  }

  @Test
  void shouldRecomputeTermsAndPositionWhenTruncated() {
    try (Journal journal = open()) {
      RaftLog log = RaftLog.open(journal, 0, 0, "test");
      log.append(entry(1, 10));
      log.append(entry(1, 20));
      log.append(entry(2, 30));
      log.flush();

      log.truncateAfter(1, 0);

      assertThat(log.lastIndex()).isEqualTo(1);
      assertThat(log.lastTerm()).isEqualTo(1);
      assertThat(log.lastPosition()).isEqualTo(11);
      assertThat(log.flushedIndex()).isEqualTo(1);
      assertThatThrownBy(() -> log.truncateAfter(0, 1))
          .isInstanceOf(RaftSafetyException.class)
          .hasMessageContaining("never truncate committed entries");
      log.close();
    }
  }

  @Test
  void shouldResetJournalThatLagsBehindSnapshotOnOpen() {
    try (Journal journal = open()) {
      RaftLog log = RaftLog.open(journal, 0, 0, "test");
      log.append(entry(1, 10));
      log.append(entry(1, 20));
      log.flush();
      log.close();
    }
    try (Journal journal = open()) {
      RaftLog log = RaftLog.open(journal, 5, 3, "test");

      assertThat(journal.isEmpty()).isTrue();
      assertThat(log.firstIndex()).isEqualTo(6);
      assertThat(log.lastIndex()).isEqualTo(5);
      assertThat(log.lastTerm()).isEqualTo(3);
      log.close();
    }
  }

  @Test
  void shouldKeepJournalThatContainsSnapshotEntry() {
    try (Journal journal = open()) {
      RaftLog log = RaftLog.open(journal, 0, 0, "test");
      log.append(entry(1, 10));
      log.append(entry(2, 20));
      log.append(entry(2, 30));
      log.flush();
      log.close();
    }
    try (Journal journal = open()) {
      RaftLog log = RaftLog.open(journal, 2, 2, "test");

      assertThat(log.firstIndex()).isEqualTo(1);
      assertThat(log.lastIndex()).isEqualTo(3);
      log.close();
    }
  }

  @Test
  void shouldResetJournalWhoseEntryAtSnapshotIndexHasAnotherTerm() {
    try (Journal journal = open()) {
      RaftLog log = RaftLog.open(journal, 0, 0, "test");
      log.append(entry(1, 10));
      log.append(entry(1, 20));
      log.append(entry(1, 30));
      log.flush();
      log.close();
    }
    try (Journal journal = open()) {
      RaftLog log = RaftLog.open(journal, 2, 2, "test");

      assertThat(log.firstIndex()).isEqualTo(3);
      assertThat(log.lastIndex()).isEqualTo(2);
      assertThat(log.lastTerm()).isEqualTo(2);
      log.close();
    }
  }
}
