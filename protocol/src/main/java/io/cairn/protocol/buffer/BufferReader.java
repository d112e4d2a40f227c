package io.cairn.protocol.buffer;

import io.cairn.protocol.ProtocolException;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;

/**
 * A cursor over {@code [offset, offset + length)} of a {@link DirectBuffer} that never reads
 * outside that range: each read first checks the remaining bytes and throws a {@link
 * ProtocolException} naming what was being read and where. Multi-byte values are little-endian.
 *
 * <p>Not thread-safe; cheap to create per decode.
 */
public final class BufferReader {
  /** The byte order of every Cairn binary format. */
  public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

  private final DirectBuffer buffer;
  private final int limit;
  private int offset;

  /**
   * @throws ProtocolException if the range is negative or extends past the buffer's capacity
   */
  public BufferReader(DirectBuffer buffer, int offset, int length) {
    if (offset < 0 || length < 0 || (long) offset + length > buffer.capacity()) {
      throw new ProtocolException(
          "Expected a range within the buffer's capacity of "
              + buffer.capacity()
              + " bytes, but was offset "
              + offset
              + " and length "
              + length);
    }
    this.buffer = buffer;
    this.offset = offset;
    this.limit = offset + length;
  }

  /** The buffer offset of the next byte to read. */
  public int offset() {
    return offset;
  }

  /** The number of bytes left to read. */
  public int remaining() {
    return limit - offset;
  }

  /**
   * Checks that at least {@code length} bytes remain.
   *
   * @param what what is about to be read, for the message ("record metadata")
   * @throws ProtocolException "Expected at least 66 bytes for record metadata, but buffer has 17
   *     (offset 0)"
   */
  public void require(long length, String what) {
    if (length > remaining()) {
      throw new ProtocolException(
          "Expected at least "
              + length
              + " bytes for "
              + what
              + ", but buffer has "
              + remaining()
              + " (offset "
              + offset
              + ")");
    }
  }

  /** The next byte as an unsigned value, without consuming it. */
  public int peekUnsignedByte(String what) {
    require(Byte.BYTES, what);
    return buffer.getByte(offset) & 0xFF;
  }

  public int readUnsignedByte(String what) {
    require(Byte.BYTES, what);
    int value = buffer.getByte(offset) & 0xFF;
    offset += Byte.BYTES;
    return value;
  }

  public short readShort(String what) {
    require(Short.BYTES, what);
    short value = buffer.getShort(offset, BYTE_ORDER);
    offset += Short.BYTES;
    return value;
  }

  public int readInt(String what) {
    require(Integer.BYTES, what);
    int value = buffer.getInt(offset, BYTE_ORDER);
    offset += Integer.BYTES;
    return value;
  }

  public long readLong(String what) {
    require(Long.BYTES, what);
    long value = buffer.getLong(offset, BYTE_ORDER);
    offset += Long.BYTES;
    return value;
  }

  /**
   * Copies the next {@code length} bytes; {@code length} is checked against the remaining bytes
   * before anything is allocated.
   */
  public byte[] readBytes(int length, String what) {
    checkLength(length, 0, Integer.MAX_VALUE, what);
    require(length, what);
    byte[] bytes = new byte[length];
    buffer.getBytes(offset, bytes);
    offset += length;
    return bytes;
  }

  /** Decodes the next {@code length} bytes as strict UTF-8 (see {@link Utf8#decode}). */
  public String readUtf8(int length, String what) {
    int start = offset;
    return Utf8.decode(readBytes(length, what), what, start);
  }

  /**
   * Reads an {@code int32} byte length in {@code [minBytes, maxBytes]}, then that many bytes of
   * strict UTF-8.
   */
  public String readLengthPrefixedUtf8(int minBytes, int maxBytes, String what) {
    int lengthOffset = offset;
    int length = readInt(what + " length");
    if (length < minBytes || length > maxBytes) {
      throw new ProtocolException(
          "Expected "
              + what
              + " length in ["
              + minBytes
              + ", "
              + maxBytes
              + "] bytes, but was "
              + length
              + " (offset "
              + lengthOffset
              + ")");
    }
    return readUtf8(length, what);
  }

  /**
   * Consumes the next {@code length} bytes and returns a reader over exactly them, so a nested
   * structure cannot read past its own end.
   */
  public BufferReader slice(int length, String what) {
    checkLength(length, 0, Integer.MAX_VALUE, what);
    require(length, what);
    BufferReader slice = new BufferReader(buffer, offset, length);
    offset += length;
    return slice;
  }

  /**
   * Checks that every byte was read.
   *
   * @param what what should have ended here, for the message
   * @throws ProtocolException if bytes remain
   */
  public void requireFullyRead(String what) {
    if (remaining() != 0) {
      throw new ProtocolException(
          "Expected "
              + what
              + " to end at offset "
              + offset
              + ", but "
              + remaining()
              + " more bytes follow");
    }
  }

  /** Checks that a length taken from the input is in {@code [min, max]}. */
  private void checkLength(int length, int min, int max, String what) {
    if (length < min || length > max) {
      throw new ProtocolException(
          "Expected "
              + what
              + " length in ["
              + min
              + ", "
              + max
              + "] bytes, but was "
              + length
              + " (offset "
              + offset
              + ")");
    }
  }
}
