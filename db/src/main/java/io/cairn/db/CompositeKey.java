package io.cairn.db;

import java.util.Objects;

/**
 * A key made of two parts; encoded by {@link CompositeKeyCodec} so that every key with the same
 * {@code prefix} shares the same leading bytes, which is what {@link ColumnFamily#whilePrefix}
 * iterates over. Nest composite keys for more than two parts.
 *
 * @param prefix the first part, never null
 * @param suffix the second part, never null
 */
public record CompositeKey<P, S>(P prefix, S suffix) {

  public CompositeKey {
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(suffix, "suffix");
  }

  public static <P, S> CompositeKey<P, S> of(P prefix, S suffix) {
    return new CompositeKey<>(prefix, suffix);
  }
}
