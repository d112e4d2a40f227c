package io.cairn.snapshot.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/** Sizes and CRC32C checksums of snapshot files, and a copy that checksums what it writes. */
public final class FileChecksums {

  private static final int BUFFER_SIZE_BYTES = 64 * 1024;

  private FileChecksums() {}

  /** Size and CRC32C of a file's content as read. */
  public record Checksum(long sizeBytes, long crc32c) {
    public ChecksumFile.Entry toEntry() {
      return new ChecksumFile.Entry(sizeBytes, crc32c);
    }
  }

  /** Reads {@code file} and returns its size and CRC32C. */
  public static Checksum checksum(Path file) throws IOException {
    CRC32C crc = new CRC32C();
    long size = 0;
    ByteBuffer buffer = ByteBuffer.allocate(BUFFER_SIZE_BYTES);
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
    CRC32C crc = new CRC32C();
    long size = 0;
    byte[] buffer = new byte[BUFFER_SIZE_BYTES];
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
}
