package io.cairn.db;

/**
 * An unsigned 128-bit integer: the value of a state digest. Addition and subtraction wrap modulo
 * 2<sup>128</sup>, which makes a sum of tuple hashes independent of the order of its terms.
 *
 * <p>The canonical text form is 32 lower-case hex digits, most significant first ({@link
 * #toHex()}); {@link #fromHex(String)} reads it back.
 *
 * @param high the most significant 64 bits
 * @param low the least significant 64 bits
 */
public record Digest128(long high, long low) {

  /** Zero: the digest of an empty state. */
  public static final Digest128 ZERO = new Digest128(0, 0);

  /** Number of hex digits of {@link #toHex()}. */
  public static final int HEX_LENGTH = 32;

  /** Number of bytes of the binary form (big-endian high, then big-endian low). */
  public static final int LENGTH_BYTES = 16;

  /** {@code this + other} modulo 2<sup>128</sup>. */
  public Digest128 plus(Digest128 other) {
    long sumLow = low + other.low;
    long carry = Long.compareUnsigned(sumLow, low) < 0 ? 1 : 0;
    return new Digest128(high + other.high + carry, sumLow);
  }

  /** {@code this - other} modulo 2<sup>128</sup>. */
  public Digest128 minus(Digest128 other) {
    long borrow = Long.compareUnsigned(low, other.low) < 0 ? 1 : 0;
    return new Digest128(high - other.high - borrow, low - other.low);
  }

  public boolean isZero() {
    return high == 0 && low == 0;
  }

  /** 32 lower-case hex digits, most significant first. */
  public String toHex() {
    return String.format("%016x%016x", high, low);
  }

  /**
   * Reads the form written by {@link #toHex()}.
   *
   * @throws IllegalArgumentException if {@code hex} is not 32 hex digits
   */
  public static Digest128 fromHex(String hex) {
    if (hex == null || hex.length() != HEX_LENGTH) {
      throw new IllegalArgumentException(
          "Expected a digest of " + HEX_LENGTH + " hex digits, but was '" + hex + "'");
    }
    try {
      return new Digest128(
          Long.parseUnsignedLong(hex.substring(0, 16), 16),
          Long.parseUnsignedLong(hex.substring(16), 16));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Expected a digest of " + HEX_LENGTH + " hex digits, but was '" + hex + "'", e);
    }
  }

  @Override
  public String toString() {
    return toHex();
  }
}
