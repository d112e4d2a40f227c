package io.cairn.backupfs.layout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * File operations that survive a crash: temp file, fsync, atomic rename, fsync of the directory.
 */
public final class DurableFiles {

  private DurableFiles() {}

  /**
   * Replaces {@code target} with {@code bytes} atomically: readers see the old or the new content,
   * never a mix, and after a crash one of the two is there. The temp file sits beside the target
   * ({@code <name>.tmp}); callers serialise writers of one target.
   */
  public static void writeAtomically(Path target, byte[] bytes) throws IOException {
    Path temp = target.resolveSibling(target.getFileName() + ".tmp");
    try (FileChannel channel =
        FileChannel.open(
            temp,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(true);
    }
    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    fsyncDirectory(target.getParent());
  }

  /** Makes a directory's entries (created, renamed, deleted files) durable. */
  public static void fsyncDirectory(Path directory) throws IOException {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /** Deletes a file tree; a missing tree is fine. Never follows symbolic links. */
  public static void deleteRecursively(Path root) throws IOException {
    if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.deleteIfExists(file);
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
            if (exc != null) {
              throw exc;
            }
            Files.deleteIfExists(dir);
            return FileVisitResult.CONTINUE;
          }
        });
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
}
