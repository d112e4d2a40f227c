package io.cairn.snapshot;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A snapshot store that passes every call to another one: a view of a store that changes what a few
 * calls do (a subclass overrides just those). {@link #close()} closes the other store; a view that
 * does not own it overrides that too.
 */
public abstract class ForwardingSnapshotStore implements SnapshotStore {

  private final SnapshotStore delegate;

  protected ForwardingSnapshotStore(SnapshotStore delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** The store the calls go to. */
  protected final SnapshotStore delegate() {
    return delegate;
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
  public Optional<SnapshotReservation> reserveNewest(
      Predicate<? super PersistedSnapshot> eligible) {
    return delegate.reserveNewest(eligible);
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
    delegate.close();
  }
}
