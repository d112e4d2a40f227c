package io.cairn.db;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The digest of a database's logical state: one {@link Digest128} per digested column family, and
 * their sum, the {@linkplain #total() total}. Immutable.
 *
 * <p>A family's digest is {@code Σ H(family, key, value) mod 2^128} over its key/value pairs (see
 * the module README for {@code H}); an empty family's digest is zero. Two states are equal, as far
 * as the digest can tell, iff their digests are {@linkplain #equals(Object) equal}: same family
 * names, same per-family digests. {@link #differingFamilies(StateDigest)} names the families that
 * differ, which is what a restore or verify report shows.
 *
 * <p>Binary form: see {@link StateDigestCodec}.
 */
public final class StateDigest {

  /** The digest of a database without digested column families. */
  public static final StateDigest EMPTY = new StateDigest(new TreeMap<>());

  private final SortedMap<String, Digest128> families;
  private final Digest128 total;

  private StateDigest(TreeMap<String, Digest128> families) {
    this.families = Collections.unmodifiableSortedMap(families);
    Digest128 sum = Digest128.ZERO;
    for (Digest128 digest : families.values()) {
      sum = sum.plus(digest);
    }
    this.total = sum;
  }

  /**
   * A digest made of the given per-family digests.
   *
   * @param families digest by column family name; copied
   */
  public static StateDigest of(Map<String, Digest128> families) {
    TreeMap<String, Digest128> copy = new TreeMap<>();
    families.forEach(
        (name, digest) ->
            copy.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(digest, name)));
    return new StateDigest(copy);
  }

  /** The sum of every family's digest modulo 2<sup>128</sup>. */
  public Digest128 total() {
    return total;
  }

  /** The total as 32 hex digits. */
  public String toHex() {
    return total.toHex();
  }

  /** Digest by column family name, in name order. Unmodifiable. */
  public SortedMap<String, Digest128> families() {
    return families;
  }

  /**
   * The digest of one family.
   *
   * @throws IllegalArgumentException if this digest has no such family
   */
  public Digest128 family(String name) {
    Digest128 digest = families.get(name);
    if (digest == null) {
      throw new IllegalArgumentException(
          "Expected a digested column family named '"
              + name
              + "', but the digest covers only "
              + families.keySet());
    }
    return digest;
  }

  /**
   * The names of the families whose digests differ between this and {@code other}, including the
   * families present in only one of them. Empty iff the two digests are equal.
   */
  public SortedSet<String> differingFamilies(StateDigest other) {
    SortedSet<String> names = new TreeSet<>(families.keySet());
    names.addAll(other.families.keySet());
    names.removeIf(name -> Objects.equals(families.get(name), other.families.get(name)));
    return Collections.unmodifiableSortedSet(names);
  }

  @Override
  public boolean equals(Object o) {
    return this == o || (o instanceof StateDigest other && families.equals(other.families));
  }

  @Override
  public int hashCode() {
    return families.hashCode();
  }

  /** The total, then each family: {@code 1f…e0 {accounts=0a…, transfers=15…}}. */
  @Override
  public String toString() {
    return total.toHex() + " " + families;
  }
}
