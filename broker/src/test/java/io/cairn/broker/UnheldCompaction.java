package io.cairn.broker;

import io.cairn.snapshot.CompactionHold;
import io.cairn.snapshot.ForwardingSnapshotStore;
import io.cairn.snapshot.SnapshotStore;

/**
 * A partition's snapshot store as its backup manager and log archive see it with the compaction
 * holds switched off (a negative control): a hold they register keeps its index but holds nothing,
 * so compaction may delete the segments a backup still has to upload, or records not archived yet.
 * Everything else, the snapshot reservation included, is the real store's.
 */
final class UnheldCompaction extends ForwardingSnapshotStore {

  UnheldCompaction(SnapshotStore delegate) {
    super(delegate);
  }

  @Override
  public CompactionHold registerCompactionHold(String name, long index) {
    return new CompactionHold() {
      private volatile long held = index;

      @Override
      public String name() {
        return name;
      }

      @Override
      public long index() {
        return held;
      }

      @Override
      public void moveTo(long value) {
        held = value;
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public void close() {
    // the partition closes its store
  }
}
