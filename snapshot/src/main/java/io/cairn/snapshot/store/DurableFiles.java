package io.cairn.snapshot.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/** File operations with the durability snapshots need: checksums, fsync, copies, deletion. */
public final class DurableFiles {

  private static final int BUFFER_SIZE_BYTES = 64 * 1024;

  private DurableFiles() {}

  /** Size and CRC32C of a file's content as read. */
  public record Checksum(long sizeBytes, long crc32c) {
    public ChecksumFile.Entry toEntry() {
      return new ChecksumFile.Entry(sizeBytes, crc32c);
    }
  }

  /** Reads {@code file} and returns its size and CRC32C. */
  public static Checksum checksum(Path file) throws IOException {
    final CRC32C crc = new CRC32C();
    long size = 0;
    final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_SIZE_BYTES);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      while (channel.read(buffer.clear()) >= 0) {
        buffer.flip();
        size += buffer.remaining();
        crc.update(buffer);
      }
    }
    return new Checksum(size, crc.getValue());
  }

  /**
   * Copies {@code source} to {@code target} (which must not exist), fsyncs the copy, and returns
   * the size and CRC32C of the bytes written.
   */
  public static Checksum copy(Path source, Path target) throws IOException {
    final CRC32C crc = new CRC32C();
    long size = 0;
    final byte[] buffer = new byte[BUFFER_SIZE_BYTES];
    try (InputStream in = Files.newInputStream(source);
        FileChannel out =
            FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        OutputStream stream = java.nio.channels.Channels.newOutputStream(out)) {
      int read;
      while ((read = in.read(buffer)) >= 0) {
        stream.write(buffer, 0, read);
        crc.update(buffer, 0, read);
        size += read;
      }
      stream.flush();
      out.force(true);
    }
    return new Checksum(size, crc.getValue());
  }

  /** Writes {@code content} to a new file and fsyncs it. */
  public static void writeNew(Path file, byte[] content) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      final ByteBuffer buffer = ByteBuffer.wrap(content);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(true);
    }
  }

  /** Flushes a file's content and metadata to the device. */
  public static void fsync(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /** Flushes a directory's entries (creations, renames, deletions) to the device. */
  public static void fsyncDirectory(Path directory) throws IOException {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /** The entries of a directory, sorted by name. */
  public static List<Path> list(Path directory) throws IOException {
    final List<Path> entries = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
      stream.forEach(entries::add);
    }
    entries.sort(Comparator.comparing(p -> p.getFileName().toString()));
    return entries;
  }

  /** True if {@code path} is a regular file (links not followed). */
  public static boolean isRegularFile(Path path) {
    return Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS);
  }

  /** Deletes {@code path} and everything under it; a no-op if it does not exist. */
  public static void deleteRecursively(Path path) throws IOException {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(path)) {
      final List<Path> all = walk.sorted(Comparator.reverseOrder()).toList();
      for (Path p : all) {
        try {
          Files.delete(p);
        } catch (NoSuchFileException e) {
          // gone already
        }
      }
    }
  }
}
