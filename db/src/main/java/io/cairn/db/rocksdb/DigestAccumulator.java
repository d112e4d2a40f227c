package io.cairn.db.rocksdb;

import io.cairn.db.Digest128;
import java.util.Arrays;

/**
 * One 128-bit sum per column family slot, updated in place (no allocation per write). Sums wrap
 * modulo 2<sup>128</sup>.
 */
final class DigestAccumulator {

  private final long[] high;
  private final long[] low;

  DigestAccumulator(int familyCount) {
    high = new long[familyCount];
    low = new long[familyCount];
  }

  void add(int family, Digest128 value) {
    add(family, value.high(), value.low());
  }

  void subtract(int family, Digest128 value) {
    long borrow = Long.compareUnsigned(low[family], value.low()) < 0 ? 1 : 0;
    low[family] -= value.low();
    high[family] -= value.high() + borrow;
  }

  /** Adds every slot of {@code other} to this one. */
  void addAll(DigestAccumulator other) {
    for (int i = 0; i < high.length; i++) {
      add(i, other.high[i], other.low[i]);
    }
  }

  Digest128 get(int family) {
    return new Digest128(high[family], low[family]);
  }

  void set(int family, Digest128 value) {
    high[family] = value.high();
    low[family] = value.low();
  }

  boolean isZero(int family) {
    return high[family] == 0 && low[family] == 0;
  }

  void clear() {
    Arrays.fill(high, 0);
    Arrays.fill(low, 0);
  }

  DigestAccumulator copy() {
    DigestAccumulator copy = new DigestAccumulator(high.length);
    copy.addAll(this);
    return copy;
  }

  private void add(int family, long valueHigh, long valueLow) {
    long sumLow = low[family] + valueLow;
    long carry = Long.compareUnsigned(sumLow, low[family]) < 0 ? 1 : 0;
    low[family] = sumLow;
    high[family] += valueHigh + carry;
  }
}
