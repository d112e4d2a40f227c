package io.cairn.broker;

import io.cairn.snapshot.CompactionHold;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotChunkReader;
import io.cairn.snapshot.SnapshotId;
import io.cairn.snapshot.SnapshotMetadata;
import io.cairn.snapshot.SnapshotReceiver;
import io.cairn.snapshot.SnapshotReservation;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.snapshot.TransientSnapshot;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A partition's snapshot store as its backup manager sees it with the snapshot reservation switched
 * off (a negative control): {@link #reserveNewest} finds the snapshot a backup would reserve but
 * releases it at once, so retention may delete its files while the backup still has to read them.
 * Everything else, the compaction hold included, is the real store's.
 */
final class UnreservedSnapshots implements SnapshotStore {

  private final SnapshotStore delegate;

  UnreservedSnapshots(SnapshotStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public Optional<SnapshotReservation> reserveNewest(
      Predicate<? super PersistedSnapshot> eligible) {
    return delegate
        .reserveNewest(eligible)
        .map(
            reservation -> {
              PersistedSnapshot snapshot = reservation.snapshot();
              reservation.close();
              return new SnapshotReservation() {
                @Override
                public PersistedSnapshot snapshot() {
                  return snapshot;
                }

                @Override
                public void close() {}
              };
            });
  }

  @Override
  public Optional<PersistedSnapshot> latestSnapshot() {
    return delegate.latestSnapshot();
  }

  @Override
  public List<PersistedSnapshot> snapshots() {
    return delegate.snapshots();
  }

  @Override
  public TransientSnapshot newTransientSnapshot(SnapshotMetadata metadata) {
    return delegate.newTransientSnapshot(metadata);
  }

  @Override
  public SnapshotReservation reserve(SnapshotId id) {
    return delegate.reserve(id);
  }

  @Override
  public CompactionHold registerCompactionHold(String name, long index) {
    return delegate.registerCompactionHold(name, index);
  }

  @Override
  public long compactionBoundIndex() {
    return delegate.compactionBoundIndex();
  }

  @Override
  public void verify(SnapshotId id) {
    delegate.verify(id);
  }

  @Override
  public Optional<PersistedSnapshot> copyForRecovery(Path target) {
    return delegate.copyForRecovery(target);
  }

  @Override
  public PersistedSnapshot restore(Collection<Path> files) {
    return delegate.restore(files);
  }

  @Override
  public SnapshotChunkReader openChunkReader(SnapshotId id) {
    return delegate.openChunkReader(id);
  }

  @Override
  public SnapshotReceiver newReceiver(long index, long term) {
    return delegate.newReceiver(index, term);
  }

  @Override
  public void close() {
    // the partition closes its store
  }
}
