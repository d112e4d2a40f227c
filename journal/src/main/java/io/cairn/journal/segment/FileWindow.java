package io.cairn.journal.segment;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/**
 * A read-ahead window over a file: positional reads into a reusable direct buffer, so that a
 * sequential scan costs one read call per window rather than one per record. Not thread-safe; each
 * reader owns one. Internal to the journal.
 *
 * <p>A refill reads no further than the {@link #readLimit(long) read limit}: readers set it to the
 * end of the segment's published records, so the window never holds bytes that the writer may still
 * change, except after a truncation, which invalidates every reader's window. Callers that find an
 * invalid frame still {@link #invalidate()} and read once more before concluding.
 */
public final class FileWindow {

  private ByteBuffer buffer;
  private FileChannel channel;
  private long start;
  private int length;
  private long readLimit = Long.MAX_VALUE;

  public FileWindow(int initialCapacityBytes) {
    buffer = ByteBuffer.allocateDirect(initialCapacityBytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Reads from {@code channel} from now on; forgets the current window. */
  public void use(FileChannel channel) {
    this.channel = channel;
    invalidate();
  }

  /** Refills read no byte at or beyond {@code position}. */
  public void readLimit(long position) {
    this.readLimit = position;
  }

  public void invalidate() {
    start = 0;
    length = 0;
  }

  /**
   * Makes {@code [position, position + count)} available, reading from the file if it is not in the
   * window.
   *
   * @return false if the file ends before {@code position + count}
   */
  public boolean ensure(long position, int count) throws IOException {
    if (position >= start && position + count <= start + length) {
      return true;
    }
    if (count > buffer.capacity()) {
      int capacity = Math.max(count, buffer.capacity() * 2);
      buffer = ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
    }
    buffer.clear();
    if (readLimit - position < buffer.capacity()) {
      buffer.limit((int) Math.max(0, readLimit - position));
    }
    int read = 0;
    while (buffer.hasRemaining()) {
      int n = channel.read(buffer, position + read);
      if (n < 0) {
        break;
      }
      read += n;
    }
    start = position;
    length = read;
    return count <= read;
  }

  public byte getByte(long position) {
    return buffer.get(offset(position));
  }

  public int getInt(long position) {
    return buffer.getInt(offset(position));
  }

  public long getLong(long position) {
    return buffer.getLong(offset(position));
  }

  /** Whether {@code count} bytes from {@code position} are all zero; they must be available. */
  public boolean isZero(long position, int count) {
    int from = offset(position);
    for (int i = 0; i < count; i++) {
      if (buffer.get(from + i) != 0) {
        return false;
      }
    }
    return true;
  }

  /** Copies available bytes into {@code dst}. */
  public void getBytes(long position, byte[] dst, int dstOffset, int count) {
    buffer.get(offset(position), dst, dstOffset, count);
  }

  /** The checksum of a frame at {@code frameStart} (see {@link FrameDescriptor}). */
  public int frameChecksum(CRC32C crc, long frameStart, int dataLength) {
    return FrameDescriptor.checksum(crc, buffer, offset(frameStart), dataLength);
  }

  private int offset(long position) {
    return (int) (position - start);
  }
}
