package io.cairn.db;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Binary form of a {@link StateDigest}, for records and backup descriptors. Big-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+-------------------------------+---------------+
 *  |    version    |         family count          |               |
 *  +---------------+-------------------------------+               |
 *  |  per family, in name order:                                   |
 *  |    u16 name length, name (UTF-8),                             |
 *  |    digest high (8 bytes), digest low (8 bytes)                |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The total is not stored; it is the sum of the family digests.
 */
public final class StateDigestCodec {

  /** The only layout version so far. */
  public static final byte VERSION = 1;

  private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;
  private static final int HEADER_LENGTH_BYTES = 1 + 2;

  private StateDigestCodec() {}

  /** The number of bytes {@link #write} writes for {@code digest}. */
  public static int lengthBytes(StateDigest digest) {
    int length = HEADER_LENGTH_BYTES;
    for (String name : digest.families().keySet()) {
      length += 2 + name.getBytes(StandardCharsets.UTF_8).length + Digest128.LENGTH_BYTES;
    }
    return length;
  }

  /**
   * Writes {@code digest} at {@code offset}.
   *
   * @return the number of bytes written
   */
  public static int write(StateDigest digest, MutableDirectBuffer buffer, int offset) {
    int cursor = offset;
    buffer.putByte(cursor, VERSION);
    buffer.putShort(cursor + 1, (short) digest.families().size(), ORDER);
    cursor += HEADER_LENGTH_BYTES;
    for (Map.Entry<String, Digest128> entry : digest.families().entrySet()) {
      byte[] name = entry.getKey().getBytes(StandardCharsets.UTF_8);
      buffer.putShort(cursor, (short) name.length, ORDER);
      buffer.putBytes(cursor + 2, name);
      cursor += 2 + name.length;
      buffer.putLong(cursor, entry.getValue().high(), ORDER);
      buffer.putLong(cursor + 8, entry.getValue().low(), ORDER);
      cursor += Digest128.LENGTH_BYTES;
    }
    return cursor - offset;
  }

  /**
   * Reads a digest written by {@link #write}.
   *
   * @param length the number of bytes available from {@code offset}
   * @throws IllegalArgumentException if the bytes are not a digest of a known version
   */
  public static StateDigest read(DirectBuffer buffer, int offset, int length) {
    if (length < HEADER_LENGTH_BYTES) {
      throw malformed("at least " + HEADER_LENGTH_BYTES + " bytes", length + " bytes");
    }
    byte version = buffer.getByte(offset);
    if (version != VERSION) {
      throw malformed("version " + VERSION, "version " + version);
    }
    int count = buffer.getShort(offset + 1, ORDER) & 0xFFFF;
    int end = offset + length;
    int cursor = offset + HEADER_LENGTH_BYTES;
    Map<String, Digest128> families = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      if (end - cursor < 2) {
        throw malformed(count + " families", "the buffer ends in family " + i);
      }
      int nameLength = buffer.getShort(cursor, ORDER) & 0xFFFF;
      cursor += 2;
      if (end - cursor < nameLength + Digest128.LENGTH_BYTES) {
        throw malformed(count + " families", "the buffer ends in family " + i);
      }
      String name = buffer.getStringWithoutLengthUtf8(cursor, nameLength);
      cursor += nameLength;
      families.put(
          name, new Digest128(buffer.getLong(cursor, ORDER), buffer.getLong(cursor + 8, ORDER)));
      cursor += Digest128.LENGTH_BYTES;
    }
    if (cursor != end) {
      throw malformed(
          length + " bytes to hold " + count + " families", (end - cursor) + " left over");
    }
    return StateDigest.of(families);
  }

  private static IllegalArgumentException malformed(String expected, String actual) {
    return new IllegalArgumentException(
        "Expected a state digest of " + expected + ", but " + actual + " (StateDigestCodec)");
  }
}
