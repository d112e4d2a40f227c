package io.cairn.protocol.buffer;

import io.cairn.protocol.ProtocolException;
import org.agrona.MutableDirectBuffer;

/**
 * A cursor that writes Cairn's little-endian formats into a {@link MutableDirectBuffer}. The caller
 * reserves the whole length up front with {@link #BufferWriter(MutableDirectBuffer, int, int,
 * String)}, so a too-small buffer fails before the first byte is written.
 *
 * <p>Not thread-safe; cheap to create per encode.
 */
public final class BufferWriter {
  private final MutableDirectBuffer buffer;
  private final int limit;
  private int offset;

  /**
   * @param length the number of bytes that will be written
   * @param what what is written, for the message
   * @throws ProtocolException if the offset is negative, or the buffer is not expandable and has
   *     less than {@code length} bytes from {@code offset}
   */
  public BufferWriter(MutableDirectBuffer buffer, int offset, int length, String what) {
    if (offset < 0 || length < 0) {
      throw new ProtocolException(
          "Expected a non-negative offset and length to write "
              + what
              + ", but were "
              + offset
              + " and "
              + length);
    }
    long end = (long) offset + length;
    if (end > Integer.MAX_VALUE || (!buffer.isExpandable() && end > buffer.capacity())) {
      throw new ProtocolException(
          "Expected a buffer with at least "
              + length
              + " bytes from offset "
              + offset
              + " for "
              + what
              + ", but its capacity is "
              + buffer.capacity());
    }
    this.buffer = buffer;
    this.offset = offset;
    this.limit = offset + length;
  }

  /** The buffer offset of the next byte to write. */
  public int offset() {
    return offset;
  }

  public void writeByte(int value) {
    buffer.putByte(offset, (byte) value);
    offset += Byte.BYTES;
  }

  public void writeShort(short value) {
    buffer.putShort(offset, value, BufferReader.BYTE_ORDER);
    offset += Short.BYTES;
  }

  public void writeInt(int value) {
    buffer.putInt(offset, value, BufferReader.BYTE_ORDER);
    offset += Integer.BYTES;
  }

  public void writeLong(long value) {
    buffer.putLong(offset, value, BufferReader.BYTE_ORDER);
    offset += Long.BYTES;
  }

  public void writeBytes(byte[] bytes) {
    buffer.putBytes(offset, bytes);
    offset += bytes.length;
  }

  /**
   * Writes a string's UTF-8 bytes without a length.
   *
   * @param utf8Length the string's length from {@link Utf8#encodedLength}, which also checked that
   *     the string is well-formed
   */
  public void writeUtf8(String value, int utf8Length) {
    int written = buffer.putStringWithoutLengthUtf8(offset, value);
    if (written != utf8Length) {
      throw new IllegalStateException(
          "Expected " + utf8Length + " bytes of UTF-8, but wrote " + written);
    }
    offset += written;
  }

  /** Writes an {@code int32} byte length, then the string's UTF-8 bytes. */
  public void writeLengthPrefixedUtf8(String value, int utf8Length) {
    writeInt(utf8Length);
    writeUtf8(value, utf8Length);
  }

  /**
   * Checks that exactly the reserved length was written.
   *
   * @throws IllegalStateException if not; a bug in the codec, never caused by input
   */
  public void requireFullyWritten(String what) {
    if (offset != limit) {
      throw new IllegalStateException(
          "Expected " + what + " to end at offset " + limit + ", but it ended at " + offset);
    }
  }
}
