package io.cairn.db;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The codecs Cairn provides. Every one is deterministic and, used as a key, orders keys the way a
 * reader expects:
 *
 * <ul>
 *   <li>{@link #LONG}, {@link #INT}: big-endian two's complement with the sign bit flipped, so that
 *       the byte order is the numeric order (negative numbers first);
 *   <li>{@link #STRING}: UTF-8 bytes, in unsigned byte order (code point order);
 *   <li>{@link #BYTES}: the bytes as they are, in unsigned byte order;
 *   <li>{@link #composite}: see {@link CompositeKeyCodec}.
 * </ul>
 */
public final class DbCodecs {

  private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;

  /** 8 bytes; byte order is numeric order. */
  public static final DbCodec<Long> LONG =
      new DbCodec<>() {
        @Override
        public int encode(Long value, MutableDirectBuffer buffer, int offset) {
          buffer.putLong(offset, value ^ Long.MIN_VALUE, ORDER);
          return Long.BYTES;
        }

        @Override
        public Long decode(DirectBuffer buffer, int offset, int length) {
          checkLength(Long.BYTES, length, "long");
          return buffer.getLong(offset, ORDER) ^ Long.MIN_VALUE;
        }

        @Override
        public int fixedLengthBytes() {
          return Long.BYTES;
        }
      };

  /** 4 bytes; byte order is numeric order. */
  public static final DbCodec<Integer> INT =
      new DbCodec<>() {
        @Override
        public int encode(Integer value, MutableDirectBuffer buffer, int offset) {
          buffer.putInt(offset, value ^ Integer.MIN_VALUE, ORDER);
          return Integer.BYTES;
        }

        @Override
        public Integer decode(DirectBuffer buffer, int offset, int length) {
          checkLength(Integer.BYTES, length, "int");
          return buffer.getInt(offset, ORDER) ^ Integer.MIN_VALUE;
        }

        @Override
        public int fixedLengthBytes() {
          return Integer.BYTES;
        }
      };

  /** UTF-8 bytes, no length; variable length. */
  public static final DbCodec<String> STRING =
      new DbCodec<>() {
        @Override
        public int encode(String value, MutableDirectBuffer buffer, int offset) {
          byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
          buffer.putBytes(offset, bytes);
          return bytes.length;
        }

        @Override
        public String decode(DirectBuffer buffer, int offset, int length) {
          return buffer.getStringWithoutLengthUtf8(offset, length);
        }
      };

  /** The bytes as they are (copied on encode and decode); variable length. */
  public static final DbCodec<byte[]> BYTES =
      new DbCodec<>() {
        @Override
        public int encode(byte[] value, MutableDirectBuffer buffer, int offset) {
          buffer.putBytes(offset, value);
          return value.length;
        }

        @Override
        public byte[] decode(DirectBuffer buffer, int offset, int length) {
          byte[] bytes = new byte[length];
          buffer.getBytes(offset, bytes);
          return bytes;
        }
      };

  private DbCodecs() {}

  /** A codec for keys made of a prefix and a suffix; see {@link CompositeKeyCodec}. */
  public static <P, S> CompositeKeyCodec<P, S> composite(DbCodec<P> prefix, DbCodec<S> suffix) {
    return new CompositeKeyCodec<>(prefix, suffix);
  }

  private static void checkLength(int expected, int actual, String type) {
    if (expected != actual) {
      throw new IllegalArgumentException(
          "Expected " + expected + " bytes to decode a " + type + ", but got " + actual);
    }
  }
}
