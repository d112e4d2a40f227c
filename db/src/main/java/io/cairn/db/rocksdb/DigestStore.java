package io.cairn.db.rocksdb;

import io.cairn.db.DbException;
import io.cairn.db.Digest128;
import io.cairn.db.digest.TupleHasher;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.rocksdb.AbstractWriteBatch;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Keeps the committed state digest in the internal column family {@value #FAMILY_NAME}, which is
 * never digested itself. Every commit writes the digests of the families it changed into the same
 * batch as the data, so data and digest are always on disk together.
 *
 * <pre>
 *   key                       value
 *   0x00 (meta)               u8 format version, u8 tuple hash algorithm id
 *   family name (UTF-8)       digest high (8 bytes BE), digest low (8 bytes BE)
 * </pre>
 *
 * <p>The meta entry says the stored digests are current. A database opened with digest maintenance
 * off deletes it (its writes will not update the digests), so the next open with maintenance on
 * recomputes them. Family names never start with 0x00, so the keys cannot clash.
 */
final class DigestStore {

  static final String FAMILY_NAME = "_cairn_digest";
  static final byte FORMAT_VERSION = 1;

  private static final byte[] META_KEY = {0};

  private final RocksDB db;
  private final ColumnFamilyHandle handle;
  private final ReadOptions readOptions;

  DigestStore(RocksDB db, ColumnFamilyHandle handle, ReadOptions readOptions) {
    this.db = db;
    this.handle = handle;
    this.readOptions = readOptions;
  }

  /** What is on disk: whether it is marked current, and the digest of each stored family. */
  record Stored(boolean current, Map<String, Digest128> families) {

    /** Null if usable for exactly {@code digestedNames}, else why not. */
    String unusableReason(Set<String> digestedNames) {
      if (!current) {
        return "no current digest is stored (new database, or written with digest maintenance off)";
      }
      if (!families.keySet().equals(digestedNames)) {
        return "the stored digest covers "
            + new TreeSet<>(families.keySet())
            + " but the digested families are "
            + new TreeSet<>(digestedNames);
      }
      return null;
    }
  }

  Stored load() {
    boolean current = false;
    Map<String, Digest128> families = new TreeMap<>();
    try (RocksIterator iterator = db.newIterator(handle, readOptions)) {
      for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
        byte[] key = iterator.key();
        byte[] value = iterator.value();
        if (key.length == 1 && key[0] == META_KEY[0]) {
          current =
              value.length == 2
                  && value[0] == FORMAT_VERSION
                  && value[1] == TupleHasher.ALGORITHM_ID;
        } else if (value.length == Digest128.LENGTH_BYTES) {
          ByteBuffer buffer = ByteBuffer.wrap(value);
          families.put(
              new String(key, StandardCharsets.UTF_8),
              new Digest128(buffer.getLong(), buffer.getLong()));
        } else {
          current = false;
          break;
        }
      }
      iterator.status();
    } catch (RocksDBException e) {
      throw new DbException("Expected to read the stored state digest, but RocksDB failed", e);
    }
    return new Stored(current, families);
  }

  /** Adds the digest of {@code family} to {@code batch}. */
  void putFamily(AbstractWriteBatch batch, Family family, Digest128 digest)
      throws RocksDBException {
    batch.put(handle, family.nameBytes(), encode(digest));
  }

  /**
   * Replaces everything stored with {@code digests} of {@code families} and marks them current, in
   * one atomic write.
   */
  void replaceAll(List<Family> families, DigestAccumulator digests, WriteOptions writeOptions)
      throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      for (byte[] key : storedKeys()) {
        batch.delete(handle, key);
      }
      for (Family family : families) {
        batch.put(handle, family.nameBytes(), encode(digests.get(family.index())));
      }
      batch.put(handle, META_KEY, new byte[] {FORMAT_VERSION, TupleHasher.ALGORITHM_ID});
      db.write(writeOptions, batch);
    }
  }

  /** Marks the stored digests stale, in one write, if they are marked current. */
  void markStale(WriteOptions writeOptions) throws RocksDBException {
    if (db.get(handle, readOptions, META_KEY) != null) {
      db.delete(handle, writeOptions, META_KEY);
    }
  }

  private List<byte[]> storedKeys() throws RocksDBException {
    List<byte[]> keys = new ArrayList<>();
    try (RocksIterator iterator = db.newIterator(handle, readOptions)) {
      for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
        keys.add(iterator.key());
      }
      iterator.status();
    }
    return keys;
  }

  private static byte[] encode(Digest128 digest) {
    return ByteBuffer.allocate(Digest128.LENGTH_BYTES)
        .putLong(digest.high())
        .putLong(digest.low())
        .array();
  }
}
