package io.cairn.db.digest;

import io.cairn.db.Digest128;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * MurmurHash3, x64 128-bit variant, written from Austin Appleby's public description: 16-byte
 * blocks read as two little-endian longs, the tail mixed in, then finalised with {@code fmix64}.
 * Returns {@code h1} as the high and {@code h2} as the low 64 bits of a {@link Digest128}. The
 * 32-bit seed is used unsigned, as in the reference implementation.
 *
 * <p>Not cryptographic: it detects accidental differences (bugs, corruption, a missed event), not a
 * state crafted to collide.
 */
public final class Murmur3x64 {

  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private Murmur3x64() {}

  /** The 128-bit hash of {@code length} bytes of {@code bytes} from {@code offset}. */
  public static Digest128 hash128(byte[] bytes, int offset, int length, int seed) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    long h1 = seed & 0xFFFFFFFFL;
    long h2 = seed & 0xFFFFFFFFL;
    int blocks = length >>> 4;
    for (int i = 0; i < blocks; i++) {
      int index = offset + (i << 4);
      long k1 = (long) LONG_LE.get(bytes, index);
      long k2 = (long) LONG_LE.get(bytes, index + 8);

      k1 *= C1;
      k1 = Long.rotateLeft(k1, 31);
      k1 *= C2;
      h1 ^= k1;
      h1 = Long.rotateLeft(h1, 27);
      h1 += h2;
      h1 = h1 * 5 + 0x52dce729;

      k2 *= C2;
      k2 = Long.rotateLeft(k2, 33);
      k2 *= C1;
      h2 ^= k2;
      h2 = Long.rotateLeft(h2, 31);
      h2 += h1;
      h2 = h2 * 5 + 0x38495ab5;
    }

    int tail = offset + (blocks << 4);
    int remaining = length & 15;
    long k1 = 0;
    long k2 = 0;
    // Little-endian assembly of the last 0..15 bytes: bytes 8..14 into k2, bytes 0..7 into k1.
    for (int i = remaining - 1; i >= 8; i--) {
      k2 ^= (bytes[tail + i] & 0xFFL) << ((i - 8) << 3);
    }
    if (remaining > 8) {
      k2 *= C2;
      k2 = Long.rotateLeft(k2, 33);
      k2 *= C1;
      h2 ^= k2;
    }
    for (int i = Math.min(remaining, 8) - 1; i >= 0; i--) {
      k1 ^= (bytes[tail + i] & 0xFFL) << (i << 3);
    }
    if (remaining > 0) {
      k1 *= C1;
      k1 = Long.rotateLeft(k1, 31);
      k1 *= C2;
      h1 ^= k1;
    }

    h1 ^= length;
    h2 ^= length;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    return new Digest128(h1, h2);
  }

  private static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}
