package io.cairn.broker.partition;

import io.cairn.snapshot.ForwardingSnapshotStore;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotId;
import io.cairn.snapshot.SnapshotMetadata;
import io.cairn.snapshot.SnapshotStateWriter;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.snapshot.TransientSnapshot;
import java.util.function.Consumer;

/**
 * The partition's snapshot store as its snapshot directors see it: every snapshot they persist is
 * also handed to {@code onPersisted} (on the persisting thread), which compacts the log. Every
 * other call goes straight to the store; {@link #close()} does not close it.
 */
final class PersistNotifyingSnapshotStore extends ForwardingSnapshotStore {

  private final Consumer<PersistedSnapshot> onPersisted;

  PersistNotifyingSnapshotStore(SnapshotStore store, Consumer<PersistedSnapshot> onPersisted) {
    super(store);
    this.onPersisted = onPersisted;
  }

  @Override
  public TransientSnapshot newTransientSnapshot(SnapshotMetadata metadata) {
    TransientSnapshot snapshot = delegate().newTransientSnapshot(metadata);
    return new TransientSnapshot() {
      @Override
      public SnapshotId id() {
        return snapshot.id();
      }

      @Override
      public SnapshotMetadata metadata() {
        return snapshot.metadata();
      }

      @Override
      public void writeState(SnapshotStateWriter writer) {
        snapshot.writeState(writer);
      }

      @Override
      public PersistedSnapshot persist() {
        PersistedSnapshot persisted = snapshot.persist();
        onPersisted.accept(persisted);
        return persisted;
      }

      @Override
      public void abort() {
        snapshot.abort();
      }
    };
  }

  @Override
  public void close() {
    // the partition owns the store and closes it
  }
}
