package io.cairn.broker.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.broker.partition.SnapshotIndexLookup.EntryId;
import io.cairn.journal.JournalConfig;
import io.cairn.journal.SegmentedJournal;
import io.cairn.raft.log.RaftEntry;
import io.cairn.raft.log.RaftEntryCodec;
import io.cairn.raft.log.RaftEntryType;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.Optional;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which raft entry a snapshot of a state that holds everything up to a position may claim. */
final class SnapshotIndexLookupTest {

  @TempDir Path directory;
  private SegmentedJournal journal;
  private SnapshotIndexLookup lookup;

  @BeforeEach
  void openJournal() {
    journal =
        SegmentedJournal.open(
            JournalConfig.builder().directory(directory).name("lookup").build(),
            new SimpleMeterRegistry());
    // index: 1 INITIAL t1 | 2 [1,3] t1 | 3 [4,4] t1 | 4 INITIAL t2 | 5 [5,8] t2
    initial(1);
    batch(1, 1, 3);
    batch(1, 4, 4);
    initial(2);
    batch(2, 5, 8);
    lookup = new SnapshotIndexLookup(journal);
  }

  @AfterEach
  void close() {
    lookup.close();
    journal.close();
  }

  @Test
  void shouldClaimTheEntryEndingAtThePosition() {
    assertThat(lookup.lastEntryUpTo(3)).hasValue(new EntryId(2, 1));
    assertThat(lookup.lastEntryUpTo(4)).hasValue(new EntryId(3, 1));
    assertThat(lookup.lastEntryUpTo(8)).hasValue(new EntryId(5, 2));
    assertThat(lookup.lastEntryUpTo(1_000)).hasValue(new EntryId(5, 2));
  }

  @Test
  void shouldClaimOnlyTheEntryBeforeOneThatHoldsLaterRecordsToo() {
    // positions 1 and 2 are in the entry [1,3]: the state needs 3 still, so claim index 1
    assertThat(lookup.lastEntryUpTo(1)).hasValue(new EntryId(1, 1));
    assertThat(lookup.lastEntryUpTo(2)).hasValue(new EntryId(1, 1));
    // position 6 is in [5,8], after a new leader's initial entry (index 4, term 2)
    assertThat(lookup.lastEntryUpTo(6)).hasValue(new EntryId(4, 2));
  }

  @Test
  void shouldClaimNothingBeforeTheFirstPosition() {
    assertThat(lookup.lastEntryUpTo(0)).isEmpty();
    assertThat(lookup.lastEntryUpTo(-1)).isEmpty();
  }

  @Test
  void shouldClaimNothingTheJournalNoLongerHolds() {
    // a snapshot was installed: the journal restarts at index 10 with positions from 20
    journal.reset(10);
    batch(3, 20, 21);

    assertThat(lookup.lastEntryUpTo(8)).isEmpty();
    assertThat(lookup.lastEntryUpTo(20)).isEqualTo(Optional.empty()); // index 9 is gone
    assertThat(lookup.lastEntryUpTo(21)).hasValue(new EntryId(10, 3));
  }

  private void initial(long term) {
    RaftEntry entry =
        new RaftEntry(
            term,
            RaftEntryType.INITIAL,
            RaftEntry.NO_POSITION,
            RaftEntry.NO_POSITION,
            new UnsafeBuffer(new byte[0]));
    journal.append(entry.asqn(), RaftEntryCodec.encode(entry));
  }

  private void batch(long term, long lowest, long highest) {
    RaftEntry entry =
        new RaftEntry(
            term, RaftEntryType.APPLICATION, lowest, highest, new UnsafeBuffer(new byte[] {1, 2}));
    journal.append(entry.asqn(), RaftEntryCodec.encode(entry));
  }
}
