package io.cairn.qa;

import io.cairn.files.DurableFiles;
import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Removes a temporary data directory tree. */
final class DataDirectories {

  private static final Logger LOG = LoggerFactory.getLogger(DataDirectories.class);

  private DataDirectories() {}

  /** Deletes {@code root} and everything under it; a failure is logged at WARN, not thrown. */
  static void deleteQuietly(Path root) {
    try {
      DurableFiles.deleteRecursively(root);
    } catch (IOException e) {
      LOG.warn("Could not delete the embedded cluster's directory {}: {}", root, e.toString());
    }
  }
}
