package io.cairn.snapshot;

import io.cairn.db.StateDigest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a {@link SnapshotDirector} needs from its partition. Every method is called on the thread of
 * the director's owner actor, the one that owns the state, so {@link #positions()}, {@link
 * #stateDigest()} and {@link #writeState(Path)} called one after the other in one task describe the
 * same state.
 */
public interface SnapshotSource {

  /** Where the state stands now; empty while nothing was processed or replayed. */
  Optional<SnapshotPositions> positions();

  /** The digest of the state as it is now ({@code CairnDb::stateDigest}). */
  StateDigest stateDigest();

  /**
   * Writes the state as it is now into {@code target} ({@code CairnDb::createCheckpoint}).
   *
   * @param target does not exist yet; its parent does
   */
  void writeState(Path target) throws IOException;

  /**
   * The highest position committed in the log. A snapshot is persisted only once everything it
   * contains is committed ({@link SnapshotPositions#requiredCommitPosition()}), so a leader that
   * crashes cannot leave a snapshot of events that were never committed.
   */
  long committedPosition();
}
