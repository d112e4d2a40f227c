package io.cairn.db;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Encodes a {@link CompositeKey}: the prefix, then the suffix. A variable-length prefix is preceded
 * by its length (4 bytes, big-endian) so that the two parts stay separable; a fixed-length prefix
 * (a long, say) is written as is.
 *
 * <p>Order: keys sort by their encoded prefix, then by their encoded suffix. For a variable-length
 * prefix the encoded form starts with the length, so shorter prefixes sort first ("b" before "aa");
 * within one prefix, suffixes keep their own codec's order.
 *
 * <p>{@link #prefixCodec()} encodes a prefix alone exactly as it starts every composite key, for
 * {@link ColumnFamily#whilePrefix}.
 */
public final class CompositeKeyCodec<P, S> implements DbCodec<CompositeKey<P, S>> {

  private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;
  private static final int LENGTH_FIELD_BYTES = Integer.BYTES;

  private final DbCodec<P> prefix;
  private final DbCodec<S> suffix;
  private final DbCodec<P> prefixCodec;

  CompositeKeyCodec(DbCodec<P> prefix, DbCodec<S> suffix) {
    this.prefix = prefix;
    this.suffix = suffix;
    this.prefixCodec = new PrefixCodec();
  }

  /** Encodes a prefix alone as it starts every composite key having it. */
  public DbCodec<P> prefixCodec() {
    return prefixCodec;
  }

  @Override
  public int encode(CompositeKey<P, S> value, MutableDirectBuffer buffer, int offset) {
    int prefixLength = prefixCodec.encode(value.prefix(), buffer, offset);
    return prefixLength + suffix.encode(value.suffix(), buffer, offset + prefixLength);
  }

  @Override
  public CompositeKey<P, S> decode(DirectBuffer buffer, int offset, int length) {
    int prefixLength = encodedPrefixLength(buffer, offset, length);
    P decodedPrefix = prefixCodec.decode(buffer, offset, prefixLength);
    S decodedSuffix = suffix.decode(buffer, offset + prefixLength, length - prefixLength);
    return new CompositeKey<>(decodedPrefix, decodedSuffix);
  }

  @Override
  public int fixedLengthBytes() {
    int prefixLength = prefix.fixedLengthBytes();
    int suffixLength = suffix.fixedLengthBytes();
    return prefixLength == VARIABLE_LENGTH || suffixLength == VARIABLE_LENGTH
        ? VARIABLE_LENGTH
        : prefixLength + suffixLength;
  }

  private int encodedPrefixLength(DirectBuffer buffer, int offset, int length) {
    int fixed = prefix.fixedLengthBytes();
    int prefixLength =
        fixed != VARIABLE_LENGTH
            ? fixed
            : length < LENGTH_FIELD_BYTES
                ? Integer.MAX_VALUE
                : LENGTH_FIELD_BYTES + buffer.getInt(offset, ORDER);
    if (prefixLength < 0 || prefixLength > length) {
      throw new IllegalArgumentException(
          "Expected a composite key whose prefix fits in its "
              + length
              + " bytes, but the prefix needs "
              + (prefixLength == Integer.MAX_VALUE ? "a length field" : prefixLength + " bytes"));
    }
    return prefixLength;
  }

  private final class PrefixCodec implements DbCodec<P> {
    @Override
    public int encode(P value, MutableDirectBuffer buffer, int offset) {
      if (prefix.fixedLengthBytes() != VARIABLE_LENGTH) {
        return prefix.encode(value, buffer, offset);
      }
      int length = prefix.encode(value, buffer, offset + LENGTH_FIELD_BYTES);
      buffer.putInt(offset, length, ORDER);
      return LENGTH_FIELD_BYTES + length;
    }

    @Override
    public P decode(DirectBuffer buffer, int offset, int length) {
      if (prefix.fixedLengthBytes() != VARIABLE_LENGTH) {
        return prefix.decode(buffer, offset, length);
      }
      return prefix.decode(buffer, offset + LENGTH_FIELD_BYTES, length - LENGTH_FIELD_BYTES);
    }

    @Override
    public int fixedLengthBytes() {
      int fixed = prefix.fixedLengthBytes();
      return fixed == VARIABLE_LENGTH ? VARIABLE_LENGTH : fixed;
    }
  }
}
