package io.cairn.backup.manager;

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
import java.util.function.Consumer;
import java.util.function.Predicate;

/** A real snapshot store that records its reservations and holds into a shared event log. */
final class RecordingSnapshotStore implements SnapshotStore {

  private final SnapshotStore delegate;
  private final Consumer<String> events;

  RecordingSnapshotStore(SnapshotStore delegate, Consumer<String> events) {
    this.delegate = delegate;
    this.events = events;
  }

  @Override
  public Optional<SnapshotReservation> reserveNewest(
      Predicate<? super PersistedSnapshot> eligible) {
    Optional<SnapshotReservation> reserved = delegate.reserveNewest(eligible);
    events.accept(
        "snapshots.reserve " + reserved.map(r -> r.snapshot().id().toString()).orElse("none"));
    return reserved;
  }

  @Override
  public CompactionHold registerCompactionHold(String name, long index) {
    events.accept("snapshots.hold " + name);
    return delegate.registerCompactionHold(name, index);
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
    events.accept("snapshots.reserve " + id);
    return delegate.reserve(id);
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
