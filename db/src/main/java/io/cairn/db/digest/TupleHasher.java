package io.cairn.db.digest;

import io.cairn.db.Digest128;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * {@code H(family, key, value)}: the hash of one key/value pair of one column family, the term the
 * state digest sums.
 *
 * <pre>
 *   H = Murmur3x64.hash128(seed 0,
 *         u32 length(family) ‖ family ‖ u32 length(key) ‖ key ‖ value)   (lengths big-endian)
 * </pre>
 *
 * The lengths make the encoding injective: no two distinct tuples hash the same bytes. Not
 * thread-safe (one scratch buffer); one instance per database.
 */
public final class TupleHasher {

  /** Identifies this definition in stored digests; a change forces a recomputation. */
  public static final byte ALGORITHM_ID = 1;

  private static final VarHandle INT_BE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final int SEED = 0;

  private byte[] scratch = new byte[256];

  /** The hash of the tuple; {@code family} is the family name's UTF-8 bytes. */
  public Digest128 hash(byte[] family, byte[] key, byte[] value) {
    int length = 2 * Integer.BYTES + family.length + key.length + value.length;
    if (scratch.length < length) {
      scratch = new byte[Math.max(length, 2 * scratch.length)];
    }
    int cursor = 0;
    INT_BE.set(scratch, cursor, family.length);
    cursor += Integer.BYTES;
    System.arraycopy(family, 0, scratch, cursor, family.length);
    cursor += family.length;
    INT_BE.set(scratch, cursor, key.length);
    cursor += Integer.BYTES;
    System.arraycopy(key, 0, scratch, cursor, key.length);
    cursor += key.length;
    System.arraycopy(value, 0, scratch, cursor, value.length);
    return Murmur3x64.hash128(scratch, 0, length, SEED);
  }
}
