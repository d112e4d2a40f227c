package io.cairn.db.rocksdb;

import io.cairn.db.ColumnFamilyDefinition;
import java.nio.charset.StandardCharsets;
import org.rocksdb.ColumnFamilyHandle;

/**
 * An open column family: its definition, RocksDB handle and its slot in digest accumulators.
 *
 * @param index the slot in {@link DigestAccumulator}s, 0-based in definition order
 * @param nameBytes the name's UTF-8 bytes, hashed into every tuple
 */
record Family(
    int index, ColumnFamilyDefinition definition, byte[] nameBytes, ColumnFamilyHandle handle) {

  static Family of(int index, ColumnFamilyDefinition definition, ColumnFamilyHandle handle) {
    return new Family(
        index, definition, definition.name().getBytes(StandardCharsets.UTF_8), handle);
  }

  String name() {
    return definition.name();
  }

  boolean digested() {
    return definition.includedInDigest();
  }
}
