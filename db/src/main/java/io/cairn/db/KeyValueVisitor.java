package io.cairn.db;

/** Receives key/value pairs during an iteration. */
@FunctionalInterface
public interface KeyValueVisitor<K, V> {

  /**
   * Visits one pair.
   *
   * @return true to go on to the next pair, false to stop
   */
  boolean visit(K key, V value);
}
