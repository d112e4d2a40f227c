package io.cairn.backupfs.content;

import io.cairn.backupapi.Compression;
import io.cairn.backupapi.content.EncodedContent;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Copies exactly the first {@code lengthBytes} of a regular file, uncompressed, kernel-side ({@link
 * FileChannel#transferTo}: no copy through the Java heap), and computes the CRC32C of those bytes.
 * Both go chunk by chunk over the same range: the chunk is read once into a direct buffer for the
 * checksum (a hot, page-cached read), then transferred, after the {@link WriteThrottle} let its
 * bytes pass. Reads are positional, so bytes appended to the source meanwhile (the active journal
 * segment) are never read.
 *
 * <p>Measured on the benchmark machine (54 files, 1.1 GB, page-cached source, two threads):
 * transfer plus a checksum read was about 20% faster than one read into a direct buffer followed by
 * a write, and on par with {@code cp -r} + {@code sync}.
 *
 * <p>The target is fsynced once, by the caller, when the file is complete. Flushing it after every
 * chunk under a limit was measured and dropped: each flush is one more disk cache flush that the
 * partition's own log fsyncs queue behind (processing during a 25 MB/s backup: 0.93 of its rate
 * with a flush per chunk, 0.95 to 1.00 without).
 */
public final class FileTransfer {

  /** Largest chunk: bounds the bytes one limiter request lets through. */
  static final long CHUNK_BYTES_MAX = 8L << 20;

  /** Smallest chunk with a limit. */
  static final long CHUNK_BYTES_MIN = 64L << 10;

  private static final int CRC_BUFFER_BYTES_MAX = 1 << 20;

  private final WriteThrottle limiter;
  private final long chunkBytes;

  public FileTransfer(WriteThrottle limiter) {
    this.limiter = limiter;
    this.chunkBytes = chunkBytes(limiter.bytesPerSecond());
  }

  /**
   * The chunk for a limit: about 1/16 s of it (so waits stay short and even), between {@value
   * #CHUNK_BYTES_MIN} and {@value #CHUNK_BYTES_MAX} bytes; the maximum without a limit.
   */
  public static long chunkBytes(long bytesPerSecond) {
    if (bytesPerSecond == 0) {
      return CHUNK_BYTES_MAX;
    }
    return Math.max(CHUNK_BYTES_MIN, Math.min(CHUNK_BYTES_MAX, bytesPerSecond / 16));
  }

  /**
   * Copies the first {@code lengthBytes} of {@code source} to {@code target} (at its position). The
   * caller forces and closes the target.
   *
   * @throws EOFException if the source is shorter than {@code lengthBytes}
   */
  public EncodedContent copy(Path source, long lengthBytes, FileChannel target) throws IOException {
    var crc = new CRC32C();
    try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ)) {
      ByteBuffer buffer =
          ByteBuffer.allocateDirect((int) Math.max(1, Math.min(CRC_BUFFER_BYTES_MAX, lengthBytes)));
      long position = 0;
      while (position < lengthBytes) {
        long end = Math.min(lengthBytes, position + chunkBytes);
        checksum(in, source, position, end, lengthBytes, buffer, crc);
        limiter.acquire(end - position);
        transfer(in, source, position, end, lengthBytes, target);
        position = end;
      }
    }
    return new EncodedContent(lengthBytes, crc.getValue(), lengthBytes, Compression.NONE);
  }

  private static void checksum(
      FileChannel in,
      Path source,
      long from,
      long to,
      long lengthBytes,
      ByteBuffer buffer,
      CRC32C crc)
      throws IOException {
    long position = from;
    while (position < to) {
      buffer.clear();
      buffer.limit((int) Math.min(buffer.capacity(), to - position));
      int read = in.read(buffer, position);
      if (read < 0) {
        throw shorter(source, lengthBytes, position);
      }
      buffer.flip();
      crc.update(buffer);
      position += read;
    }
  }

  private static void transfer(
      FileChannel in, Path source, long from, long to, long lengthBytes, FileChannel target)
      throws IOException {
    long position = from;
    while (position < to) {
      long moved = in.transferTo(position, to - position, target);
      if (moved <= 0) {
        // transferTo moves nothing only at the end of the source: it shrank since the checksum.
        throw shorter(source, lengthBytes, Math.min(position, in.size()));
      }
      position += moved;
    }
  }

  private static EOFException shorter(Path source, long lengthBytes, long position) {
    return new EOFException(
        "Expected to read "
            + lengthBytes
            + " bytes of "
            + source
            + ", but it ends after "
            + position
            + " bytes");
  }
}
