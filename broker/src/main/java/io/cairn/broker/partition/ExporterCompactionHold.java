package io.cairn.broker.partition;

import io.cairn.journal.Journal;
import io.cairn.snapshot.CompactionHold;
import io.cairn.snapshot.SnapshotStore;

/**
 * Keeps the log entries that the partition's exporters have not all acknowledged (DESIGN.md §8): a
 * {@link CompactionHold} at the first entry holding a record after the exported position. It is
 * moved to the exported position of every persisted snapshot, just before the log is compacted
 * after it; that position never runs ahead of the state, so nothing an exporter may still need
 * after a restart or a leader change is deleted. A paused or failing exporter stops the hold, and
 * with it compaction.
 *
 * <p>Used by the partition's actor thread only.
 */
final class ExporterCompactionHold implements AutoCloseable {

  static final String NAME = "exporters";

  private final SnapshotStore store;
  private final Journal journal;
  private SnapshotIndexLookup lookup;
  private CompactionHold hold;

  ExporterCompactionHold(SnapshotStore store, Journal journal) {
    this.store = store;
    this.journal = journal;
  }

  /**
   * Moves the hold so that every entry holding a record after {@code exportedPosition} is kept;
   * with nothing exported (or the entries of the position compacted already) it holds the journal's
   * first entry.
   */
  void moveTo(long exportedPosition) {
    if (lookup == null) {
      lookup = new SnapshotIndexLookup(journal);
    }
    long first = Math.max(1, journal.getFirstIndex());
    long index =
        lookup
            .lastEntryUpTo(exportedPosition)
            .map(entry -> Math.max(first, entry.index() + 1))
            .orElse(first);
    if (hold == null) {
      hold = store.registerCompactionHold(NAME, index);
    } else {
      hold.moveTo(index);
    }
  }

  /** The held index, or 0 before the first {@link #moveTo}. */
  long index() {
    return hold == null ? 0 : hold.index();
  }

  @Override
  public void close() {
    if (hold != null) {
      hold.close();
      hold = null;
    }
    if (lookup != null) {
      lookup.close();
      lookup = null;
    }
  }
}
