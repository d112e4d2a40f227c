package io.cairn.backup.checkpoint;

import io.cairn.db.Digest128;

/**
 * The binary form of a state digest's total as a {@code CREATED} event carries it: 16 bytes, the
 * high half then the low half, each big-endian (the order of {@link Digest128#LENGTH_BYTES}).
 */
public final class DigestBytes {

  private DigestBytes() {}

  public static byte[] toBytes(Digest128 digest) {
    byte[] bytes = new byte[Digest128.LENGTH_BYTES];
    for (int i = 0; i < Long.BYTES; i++) {
      bytes[i] = (byte) (digest.high() >>> (56 - 8 * i));
      bytes[Long.BYTES + i] = (byte) (digest.low() >>> (56 - 8 * i));
    }
    return bytes;
  }

  /**
   * @throws IllegalArgumentException if {@code bytes} is not {@link Digest128#LENGTH_BYTES} long
   */
  public static Digest128 fromBytes(byte[] bytes) {
    if (bytes.length != Digest128.LENGTH_BYTES) {
      throw new IllegalArgumentException(
          "Expected a state digest of "
              + Digest128.LENGTH_BYTES
              + " bytes, but it has "
              + bytes.length);
    }
    long high = 0;
    long low = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      high = (high << 8) | (bytes[i] & 0xFF);
      low = (low << 8) | (bytes[Long.BYTES + i] & 0xFF);
    }
    return new Digest128(high, low);
  }
}
