package io.cairn.broker;

import io.cairn.snapshot.ForwardingSnapshotStore;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotReservation;
import io.cairn.snapshot.SnapshotStore;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A partition's snapshot store as its backup manager sees it with the snapshot reservation switched
 * off (a negative control): {@link #reserveNewest} finds the snapshot a backup would reserve but
 * releases it at once, so retention may delete its files while the backup still has to read them.
 * Everything else, the compaction hold included, is the real store's.
 */
final class UnreservedSnapshots extends ForwardingSnapshotStore {

  UnreservedSnapshots(SnapshotStore delegate) {
    super(delegate);
  }

  @Override
  public Optional<SnapshotReservation> reserveNewest(
      Predicate<? super PersistedSnapshot> eligible) {
    return delegate()
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
  public void close() {
    // the partition closes its store
  }
}
