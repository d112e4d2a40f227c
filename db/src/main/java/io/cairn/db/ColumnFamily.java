package io.cairn.db;

import java.util.function.BiConsumer;

/**
 * A typed view of one column family: an ordered map from {@code K} to {@code V}, ordered by the key
 * codec's bytes.
 *
 * <p>Every operation runs in the database's open transaction, if any, and sees that transaction's
 * writes; without an open transaction a write commits on its own and a read sees the committed
 * state. Not thread-safe: the thread that owns the database uses it.
 *
 * <p>Iteration may write: writes made by the visitor are seen by the rest of the iteration if they
 * fall after the current key (deleting or updating the current key is fine).
 */
public interface ColumnFamily<K, V> {

  /** The family's definition. */
  ColumnFamilyDefinition definition();

  /** The value stored under {@code key}, or null if there is none. */
  V get(K key);

  /** True if a value is stored under {@code key}. */
  boolean exists(K key);

  /** Stores {@code value} under {@code key}, replacing any value there. */
  void put(K key, V value);

  /**
   * Stores {@code value} under a key that must not exist yet.
   *
   * @throws DbInconsistentStateException if the key exists; the write is not done
   */
  void insert(K key, V value);

  /**
   * Replaces the value under a key that must exist.
   *
   * @throws DbInconsistentStateException if the key does not exist; the write is not done
   */
  void update(K key, V value);

  /** Removes {@code key} and its value; does nothing if the key does not exist. */
  void delete(K key);

  /**
   * Removes a key that must exist.
   *
   * @throws DbInconsistentStateException if the key does not exist
   */
  void deleteExisting(K key);

  /** True if the family holds no key. */
  boolean isEmpty();

  /** Visits every pair in key order. */
  void forEach(BiConsumer<K, V> consumer);

  /**
   * Visits pairs in key order from the first one until the visitor returns false.
   *
   * @return true if every pair was visited, false if the visitor stopped the iteration
   */
  boolean whileTrue(KeyValueVisitor<K, V> visitor);

  /**
   * Visits, in key order, the pairs whose encoded key starts with the encoding of {@code prefix},
   * until the visitor returns false. For a {@link CompositeKey} family pass the key codec's {@link
   * CompositeKeyCodec#prefixCodec()}.
   *
   * @return true if every matching pair was visited, false if the visitor stopped the iteration
   */
  <P> boolean whilePrefix(P prefix, DbCodec<P> prefixCodec, KeyValueVisitor<K, V> visitor);
}
