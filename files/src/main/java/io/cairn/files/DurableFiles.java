package io.cairn.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/**
 * The durable file steps that the snapshot store, the filesystem backup store and restore share:
 * each write is on disk (file and directory entry fsynced) before the method returns, and no
 * removal follows a symbolic link out of the tree it was given.
 */
public final class DurableFiles {

  private DurableFiles() {}

  /**
   * Replaces {@code target} with {@code bytes} atomically: readers see the old or the new content,
   * never a mix, and after a crash one of the two is there. Written into {@code <name>.tmp} beside
   * the target, fsynced, renamed over it, then the directory is fsynced; callers serialise writers
   * of one target.
   */
  public static void writeAtomically(Path target, byte[] bytes) throws IOException {
    Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
    try (FileChannel channel =
        FileChannel.open(
            temporary,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      writeFully(channel, bytes);
      channel.force(true);
    }
    Files.move(
        temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    fsyncDirectory(target.getParent());
  }

  /**
   * Writes {@code bytes} to a file that must not exist yet and fsyncs it (not its directory: the
   * caller fsyncs that once for all the files it created).
   *
   * @throws java.nio.file.FileAlreadyExistsException if {@code file} exists
   */
  public static void writeNew(Path file, byte[] bytes) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      writeFully(channel, bytes);
      channel.force(true);
    }
  }

  /**
   * Creates {@code target} with {@code bytes} unless it exists, atomically and durably: written
   * into a temp file of its own beside the target ({@code .<name>.<random>.tmp}), fsynced, then
   * linked to the target's name — a hard link is never made over an existing file, so of two
   * processes creating one target exactly one succeeds, and a reader never sees a part of it. The
   * directory is fsynced. Where the filesystem has no hard links, a rename that refuses an existing
   * target does it (atomic against this process's writers only).
   *
   * @return true if this call created {@code target}, false if it existed (it is left as it was)
   */
  public static boolean createOnce(Path target, byte[] bytes) throws IOException {
    Path temporary =
        target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    writeNew(temporary, bytes);
    try {
      try {
        Files.createLink(target, temporary);
      } catch (UnsupportedOperationException e) {
        Files.move(temporary, target);
      }
      fsyncDirectory(target.getParent());
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  /** Forces a file's content and metadata to the device. */
  public static void fsync(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /** Forces a directory's entries (created, renamed, deleted files) to the device. */
  public static void fsyncDirectory(Path directory) throws IOException {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /** The entries of a directory, sorted by name. */
  public static List<Path> list(Path directory) throws IOException {
    List<Path> entries = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
      stream.forEach(entries::add);
    }
    entries.sort(Comparator.comparing(p -> p.getFileName().toString()));
    return entries;
  }

  /** The names of up to {@code limit} entries of {@code directory}, sorted, for messages. */
  public static List<String> someEntries(Path directory, int limit) throws IOException {
    return list(directory).stream().map(p -> p.getFileName().toString()).limit(limit).toList();
  }

  /** True if {@code path} is a regular file (a link is not followed, so it is not one). */
  public static boolean isRegularFile(Path path) {
    return Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS);
  }

  /** True if {@code directory} does not exist, or is a directory without entries. */
  public static boolean isMissingOrEmpty(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return true;
    }
    if (!Files.isDirectory(directory)) {
      return false;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
      return !entries.iterator().hasNext();
    }
  }

  /**
   * Deletes {@code root} and everything below it; a missing tree, or entries that vanish while it
   * runs, are fine. A symbolic link is deleted, never followed.
   *
   * @return how many files (not directories) this call deleted
   */
  public static int deleteRecursively(Path root) throws IOException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return 0;
    }
    int[] deleted = {0};
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            if (Files.deleteIfExists(file)) {
              deleted[0]++;
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
            if (exc instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw exc;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
            if (exc != null && !(exc instanceof NoSuchFileException)) {
              throw exc;
            }
            Files.deleteIfExists(dir);
            return FileVisitResult.CONTINUE;
          }
        });
    return deleted[0];
  }

  /** Deletes everything inside {@code directory}, keeping the directory, then fsyncs it. */
  public static void deleteContents(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      return;
    }
    for (Path entry : list(directory)) {
      deleteRecursively(entry);
    }
    fsyncDirectory(directory);
  }

  /**
   * Deletes {@code directory} and then its parents up to (not including) {@code stop} while they
   * are empty.
   */
  public static void deleteEmptyDirectories(Path directory, Path stop) throws IOException {
    Path current = directory;
    while (current != null && !current.equals(stop) && current.startsWith(stop)) {
      try {
        Files.deleteIfExists(current);
      } catch (DirectoryNotEmptyException e) {
        return;
      }
      current = current.getParent();
    }
  }

  private static void writeFully(FileChannel channel, byte[] bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }
}
