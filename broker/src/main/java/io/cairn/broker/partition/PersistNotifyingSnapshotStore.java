package io.cairn.broker.partition;

import io.cairn.snapshot.CompactionHold;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotChunkReader;
import io.cairn.snapshot.SnapshotId;
import io.cairn.snapshot.SnapshotMetadata;
import io.cairn.snapshot.SnapshotReceiver;
import io.cairn.snapshot.SnapshotReservation;
import io.cairn.snapshot.SnapshotStateWriter;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.snapshot.TransientSnapshot;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The partition's snapshot store as its snapshot directors see it: every snapshot they persist is
 * also handed to {@code onPersisted} (on the persisting thread), which compacts the log. Every
 * other call goes straight to the store; {@link #close()} does not close it.
 */
final class PersistNotifyingSnapshotStore implements SnapshotStore {

  private final SnapshotStore store;
  private final Consumer<PersistedSnapshot> onPersisted;

  PersistNotifyingSnapshotStore(SnapshotStore store, Consumer<PersistedSnapshot> onPersisted) {
    this.store = store;
    this.onPersisted = onPersisted;
  }

  @Override
  public TransientSnapshot newTransientSnapshot(SnapshotMetadata metadata) {
    TransientSnapshot snapshot = store.newTransientSnapshot(metadata);
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
  public Optional<PersistedSnapshot> latestSnapshot() {
    return store.latestSnapshot();
  }

  @Override
  public List<PersistedSnapshot> snapshots() {
    return store.snapshots();
  }

  @Override
  public SnapshotReservation reserve(SnapshotId id) {
    return store.reserve(id);
  }

  @Override
  public Optional<SnapshotReservation> reserveNewest(
      Predicate<? super PersistedSnapshot> eligible) {
    return store.reserveNewest(eligible);
  }

  @Override
  public CompactionHold registerCompactionHold(String name, long index) {
    return store.registerCompactionHold(name, index);
  }

  @Override
  public long compactionBoundIndex() {
    return store.compactionBoundIndex();
  }

  @Override
  public void verify(SnapshotId id) {
    store.verify(id);
  }

  @Override
  public Optional<PersistedSnapshot> copyForRecovery(Path target) {
    return store.copyForRecovery(target);
  }

  @Override
  public PersistedSnapshot restore(Collection<Path> files) {
    return store.restore(files);
  }

  @Override
  public SnapshotChunkReader openChunkReader(SnapshotId id) {
    return store.openChunkReader(id);
  }

  @Override
  public SnapshotReceiver newReceiver(long index, long term) {
    return store.newReceiver(index, term);
  }

  @Override
  public void close() {
    // the partition owns the store and closes it
  }
}
