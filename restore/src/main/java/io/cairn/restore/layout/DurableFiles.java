package io.cairn.restore.layout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** File system steps of a restore: atomic small files, fsyncs, emptiness, removal. */
public final class DurableFiles {

  private DurableFiles() {}

  /** True if {@code directory} does not exist, or is a directory without entries. */
  public static boolean isMissingOrEmpty(final Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return true;
    }
    if (!Files.isDirectory(directory)) {
      return false;
    }
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.findAny().isEmpty();
    }
  }

  /** The names of up to {@code limit} entries of {@code directory}, sorted, for messages. */
  public static List<String> someEntries(final Path directory, final int limit) throws IOException {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.map(p -> p.getFileName().toString()).sorted().limit(limit).toList();
    }
  }

  /** Deletes everything inside {@code directory}, keeping the directory; fsyncs it. */
  public static void deleteContents(final Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      return;
    }
    try (Stream<Path> entries = Files.list(directory)) {
      for (final Path entry : entries.toList()) {
        deleteRecursively(entry);
      }
    }
    fsyncDirectory(directory);
  }

  /** Deletes {@code path} and everything below it; nothing if it does not exist. */
  public static void deleteRecursively(final Path path) throws IOException {
    if (!Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(path)) {
      for (final Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** Forces a directory's entries (creations, renames, deletions) to disk. */
  public static void fsyncDirectory(final Path directory) throws IOException {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /**
   * Writes {@code bytes} to {@code file} so that a crash leaves the old file or the new one: into
   * {@code <file>.tmp}, fsync, atomic rename, fsync of the directory.
   */
  public static void writeAtomically(final Path file, final byte[] bytes) throws IOException {
    final Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    try (FileChannel channel =
        FileChannel.open(
            temporary,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      final ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(true);
    }
    Files.move(
        temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    fsyncDirectory(file.getParent());
  }
}
