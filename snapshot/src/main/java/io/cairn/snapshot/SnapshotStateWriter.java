package io.cairn.snapshot;

import java.io.IOException;
import java.nio.file.Path;

/** Writes a partition's state into a snapshot; {@code CairnDb::createCheckpoint} is one. */
@FunctionalInterface
public interface SnapshotStateWriter {

  /**
   * Writes the state into {@code target} as regular files directly in it (no subdirectories).
   *
   * @param target a directory that does not exist yet; its parent exists. The writer creates it.
   */
  void write(Path target) throws IOException;
}
