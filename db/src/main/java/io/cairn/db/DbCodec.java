package io.cairn.db;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Turns keys or values of type {@code T} into bytes and back. Implementations are stateless (or at
 * least safe to call from the one thread using a database) and deterministic: equal values always
 * give equal bytes, since the bytes are what the state digest covers.
 *
 * <p>For keys, the byte order is the iteration order: RocksDB compares keys as unsigned bytes. See
 * {@link DbCodecs} for the codecs Cairn provides.
 */
public interface DbCodec<T> {

  /** What {@link #fixedLengthBytes()} returns for variable-length encodings. */
  int VARIABLE_LENGTH = -1;

  /**
   * Writes {@code value} at {@code offset}. The buffer grows as needed (callers pass an expandable
   * buffer, e.g. {@link org.agrona.ExpandableArrayBuffer}).
   *
   * @return the number of bytes written
   */
  int encode(T value, MutableDirectBuffer buffer, int offset);

  /**
   * Reads a value from exactly {@code length} bytes at {@code offset}. The result must not refer to
   * {@code buffer}, which is reused as soon as this returns.
   */
  T decode(DirectBuffer buffer, int offset, int length);

  /**
   * The length of every encoding of this codec, or {@link #VARIABLE_LENGTH}. A composite key
   * prefixes variable-length parts with their length so that parts stay separable.
   */
  default int fixedLengthBytes() {
    return VARIABLE_LENGTH;
  }
}
