package io.cairn.snapshot.store;

import io.cairn.snapshot.SnapshotId;

/**
 * Told when a snapshot passes each {@link SnapshotPhase}, on the thread doing the work. For fault
 * injection in tests: a listener that throws an {@link Error} there simulates a crash (the store
 * does not clean up after an {@code Error}; the test abandons the store and opens a new one).
 */
@FunctionalInterface
public interface SnapshotPhaseListener {

  SnapshotPhaseListener NONE = (phase, id) -> {};

  void onPhase(SnapshotPhase phase, SnapshotId id);
}
