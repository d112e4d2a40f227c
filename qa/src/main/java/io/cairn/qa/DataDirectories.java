package io.cairn.qa;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Removes a temporary data directory tree. */
final class DataDirectories {

  private static final Logger LOG = LoggerFactory.getLogger(DataDirectories.class);

  private DataDirectories() {}

  /** Deletes {@code root} and everything under it; a failure is logged at WARN, not thrown. */
  static void deleteQuietly(final Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(final Path file, final BasicFileAttributes attrs)
                throws IOException {
              Files.deleteIfExists(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(final Path dir, final IOException e)
                throws IOException {
              Files.deleteIfExists(dir);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (final IOException e) {
      LOG.warn("Could not delete the embedded cluster's directory {}: {}", root, e.toString());
    }
  }
}
