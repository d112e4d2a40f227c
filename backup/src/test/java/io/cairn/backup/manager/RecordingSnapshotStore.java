package io.cairn.backup.manager;

import io.cairn.snapshot.CompactionHold;
import io.cairn.snapshot.ForwardingSnapshotStore;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotId;
import io.cairn.snapshot.SnapshotReservation;
import io.cairn.snapshot.SnapshotStore;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** A real snapshot store that records its reservations and holds into a shared event log. */
final class RecordingSnapshotStore extends ForwardingSnapshotStore {

  private final Consumer<String> events;

  RecordingSnapshotStore(SnapshotStore delegate, Consumer<String> events) {
    super(delegate);
    this.events = events;
  }

  @Override
  public Optional<SnapshotReservation> reserveNewest(
      Predicate<? super PersistedSnapshot> eligible) {
    Optional<SnapshotReservation> reserved = delegate().reserveNewest(eligible);
    events.accept(
        "snapshots.reserve " + reserved.map(r -> r.snapshot().id().toString()).orElse("none"));
    return reserved;
  }

  @Override
  public CompactionHold registerCompactionHold(String name, long index) {
    events.accept("snapshots.hold " + name);
    return delegate().registerCompactionHold(name, index);
  }

  @Override
  public SnapshotReservation reserve(SnapshotId id) {
    events.accept("snapshots.reserve " + id);
    return delegate().reserve(id);
  }
}
