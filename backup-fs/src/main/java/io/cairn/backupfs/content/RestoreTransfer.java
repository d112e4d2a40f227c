package io.cairn.backupfs.content;

import io.cairn.backupapi.content.DecodedContent;
import io.cairn.backupstore.ContentProblems;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.LongConsumer;
import java.util.zip.CRC32C;

/**
 * Restores an uncompressed stored object kernel-side ({@link FileChannel#transferTo}: no copy
 * through the Java heap) and computes the CRC32C of the bytes that landed in the target: each chunk
 * is transferred, then read back from the target (a page-cached read) into a direct buffer for the
 * checksum. So the checksum the caller compares with the manifest is that of the restored file
 * itself, not of a separate read of the source.
 *
 * <p>Source and target failures are told apart for the caller: a failure to read the source is an
 * {@link IOException} (the stored object is unreadable), a failure to write or read back the target
 * is a {@link ContentProblems.SinkException}. {@code transferTo} touches both; when it fails, the
 * source's range is read once more to decide.
 */
final class RestoreTransfer {

  /** Largest chunk between two progress reports. */
  static final long CHUNK_BYTES = 8L << 20;

  private static final int CRC_BUFFER_BYTES_MAX = 1 << 20;

  private RestoreTransfer() {}

  /**
   * Copies {@code lengthBytes} of {@code source} to {@code target} from position 0. The caller
   * forces and closes the target.
   *
   * @param target open for reading and writing, empty
   * @return the bytes copied and their CRC32C as read back from the target; fewer bytes than {@code
   *     lengthBytes} if the source is shorter
   * @throws IOException if the source cannot be read
   * @throws ContentProblems.SinkException if the target cannot be written or read back
   */
  static DecodedContent copy(
      Path source, long lengthBytes, FileChannel target, LongConsumer progress) throws IOException {
    CRC32C crc = new CRC32C();
    ByteBuffer buffer =
        ByteBuffer.allocateDirect((int) Math.max(1, Math.min(CRC_BUFFER_BYTES_MAX, lengthBytes)));
    long position = 0;
    try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ)) {
      while (position < lengthBytes) {
        long end = Math.min(lengthBytes, position + CHUNK_BYTES);
        long moved = transfer(in, position, end, target, buffer);
        checksum(target, position, position + moved, buffer, crc);
        progress.accept(moved);
        position += moved;
        if (position < end) {
          break; // the source ended early: the caller reports the size
        }
      }
    }
    return new DecodedContent(position, crc.getValue(), false);
  }

  /** Transfers {@code [from, to)}; returns the bytes moved, fewer only at the source's end. */
  private static long transfer(
      FileChannel in, long from, long to, FileChannel target, ByteBuffer buffer)
      throws IOException {
    long position = from;
    while (position < to) {
      long moved;
      try {
        moved = in.transferTo(position, to - position, target.position(position));
      } catch (IOException e) {
        readSource(in, position, to, buffer); // throws if the source is the problem
        throw new ContentProblems.SinkException(e);
      }
      if (moved <= 0) {
        break;
      }
      position += moved;
    }
    return position - from;
  }

  /** Reads the source's range, only to find out whether it is the side that fails. */
  private static void readSource(FileChannel in, long from, long to, ByteBuffer buffer)
      throws IOException {
    long position = from;
    while (position < to) {
      buffer.clear();
      buffer.limit((int) Math.min(buffer.capacity(), to - position));
      int read = in.read(buffer, position);
      if (read < 0) {
        return;
      }
      position += read;
    }
  }

  private static void checksum(
      FileChannel target, long from, long to, ByteBuffer buffer, CRC32C crc) {
    long position = from;
    try {
      while (position < to) {
        buffer.clear();
        buffer.limit((int) Math.min(buffer.capacity(), to - position));
        int read = target.read(buffer, position);
        if (read < 0) {
          throw new IOException(
              "Expected to read back "
                  + (to - from)
                  + " bytes written at "
                  + from
                  + ", but the target ends at "
                  + position);
        }
        buffer.flip();
        crc.update(buffer);
        position += read;
      }
    } catch (IOException e) {
      throw new ContentProblems.SinkException(e);
    }
  }
}
