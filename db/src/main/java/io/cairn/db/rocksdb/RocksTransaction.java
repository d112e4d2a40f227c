package io.cairn.db.rocksdb;

import io.cairn.db.DbException;
import io.cairn.db.Digest128;
import io.cairn.db.Transaction;
import io.micrometer.core.instrument.Timer;
import java.util.Arrays;
import org.rocksdb.RocksDBException;

/**
 * One transaction: the writes collect in the database's {@link org.rocksdb.WriteBatchWithIndex} (so
 * reads and iterators see them), and their effect on the digest collects in a per-family delta.
 * Commit writes the batch plus the changed families' new digests in one atomic write and then adds
 * the delta to the committed digest; rollback clears both, so the digest is exactly as before.
 */
final class RocksTransaction implements Transaction {

  private final RocksCairnDb db;
  private final boolean implicit;
  private final DigestAccumulator delta;
  private final boolean[] touched;
  private long putCount;
  private long deleteCount;
  private long modificationCount;
  private boolean open = true;
  // The last pair read or written: "get, change, update" reads the old value once, not twice.
  private Family cachedFamily;
  private byte[] cachedKey;
  private byte[] cachedValue;

  /**
   * @param implicit true if opened by the database for a single operation; such transactions are
   *     left out of the metrics when they wrote nothing
   */
  RocksTransaction(RocksCairnDb db, int familyCount, boolean implicit) {
    this.db = db;
    this.implicit = implicit;
    this.delta = new DigestAccumulator(familyCount);
    this.touched = new boolean[familyCount];
  }

  /** True if a write to {@code family} changes the digest, so the old value must be read first. */
  boolean needsOldValue(Family family) {
    return db.tracksDigest(family);
  }

  /**
   * Reads through this transaction's writes to the committed state. The returned array is shared;
   * callers must not change it.
   */
  byte[] read(Family family, byte[] key) {
    checkOpen();
    if (family == cachedFamily && Arrays.equals(key, cachedKey)) {
      return cachedValue;
    }
    byte[] value = db.readThrough(family, key);
    cache(family, key, value);
    return value;
  }

  private void cache(Family family, byte[] key, byte[] value) {
    cachedFamily = family;
    cachedKey = key;
    cachedValue = value;
  }

  /**
   * Stores {@code value} under {@code key}.
   *
   * @param oldValue the value being replaced, or null if none; ignored if {@link #needsOldValue} is
   *     false
   */
  void write(Family family, byte[] key, byte[] value, byte[] oldValue) {
    checkOpen();
    if (db.tracksDigest(family)) {
      int index = family.index();
      if (oldValue != null) {
        delta.subtract(index, db.hasher().hash(family.nameBytes(), key, oldValue));
      }
      delta.add(index, db.hasher().hash(family.nameBytes(), key, value));
      touched[index] = true;
    }
    try {
      db.batch().put(family.handle(), key, value);
    } catch (RocksDBException e) {
      throw new DbException(
          "Expected to add a put to the transaction, but RocksDB failed (family "
              + family.name()
              + ")",
          e);
    }
    cache(family, key, value);
    putCount++;
    modificationCount++;
  }

  /**
   * Removes {@code key}.
   *
   * @param oldValue the value being removed (never null when {@link #needsOldValue} is true)
   */
  void remove(Family family, byte[] key, byte[] oldValue) {
    checkOpen();
    if (db.tracksDigest(family)) {
      delta.subtract(family.index(), db.hasher().hash(family.nameBytes(), key, oldValue));
      touched[family.index()] = true;
    }
    try {
      db.batch().delete(family.handle(), key);
    } catch (RocksDBException e) {
      throw new DbException(
          "Expected to add a delete to the transaction, but RocksDB failed (family "
              + family.name()
              + ")",
          e);
    }
    cache(family, key, null);
    deleteCount++;
    modificationCount++;
  }

  /** Grows with every write; iterators compare it to notice writes made while they ran. */
  long modificationCount() {
    return modificationCount;
  }

  /** The digest of {@code family} as this transaction sees it. */
  Digest128 digestOf(Family family, DigestAccumulator committed) {
    return committed.get(family.index()).plus(delta.get(family.index()));
  }

  @Override
  public void commit() {
    checkOpen();
    if (putCount + deleteCount == 0) {
      db.finish(this);
      if (!implicit) {
        db.metrics().committed(db.metrics().startTimer(), 0, 0);
      }
      return;
    }
    Timer.Sample sample = db.metrics().startTimer();
    DigestAccumulator committed = db.committedDigest();
    try {
      for (Family family : db.familyList()) {
        if (touched[family.index()]) {
          db.digestStore().putFamily(db.batch(), family, digestOf(family, committed));
        }
      }
      db.writeBatch();
    } catch (RocksDBException e) {
      db.finish(this);
      db.metrics().commitFailed(sample);
      throw new DbException(
          "Expected to commit a transaction of "
              + (putCount + deleteCount)
              + " writes, but RocksDB failed; it was rolled back ("
              + db.directory()
              + ")",
          e);
    }
    committed.addAll(delta);
    db.finish(this);
    db.metrics().committed(sample, putCount, deleteCount);
  }

  @Override
  public void rollback() {
    checkOpen();
    db.finish(this);
    if (!implicit || putCount + deleteCount > 0) {
      db.metrics().rolledBack();
    }
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() {
    if (open) {
      rollback();
    }
  }

  /** Called by the database once the batch is cleared. */
  void markClosed() {
    open = false;
  }

  private void checkOpen() {
    if (!open) {
      throw new IllegalStateException(
          "Expected an open transaction, but it was already committed or rolled back");
    }
  }
}
