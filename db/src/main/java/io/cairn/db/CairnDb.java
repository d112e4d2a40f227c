package io.cairn.db;

import io.cairn.db.rocksdb.RocksCairnDb;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;

/**
 * A partition's state: RocksDB with typed column families, atomic transactions, checkpoints, and a
 * {@linkplain StateDigest digest} of the whole logical state kept up to date on every write.
 *
 * <p>Single writer: the thread that owns the partition uses the database; nothing here is
 * thread-safe. One transaction is open at a time; every {@link ColumnFamily} operation runs in it
 * (or, without one, commits on its own).
 *
 * <p>The digest covers every family {@linkplain ColumnFamilyDefinition#includedInDigest() included
 * in it}. It is stored in the database with the data, in the same atomic write, so it survives
 * close and open and is correct in a checkpoint.
 *
 * <p>{@link #close()} releases every native resource.
 */
public interface CairnDb extends AutoCloseable {

  /**
   * Opens (creating if needed) the database in {@code directory} with exactly the given families.
   *
   * @param meterTags tags added to every meter, e.g. {@code partition}
   * @throws IllegalArgumentException if a family name is malformed, reserved or given twice
   * @throws DbException if RocksDB cannot open the directory, or the directory holds a family that
   *     is not given
   */
  static CairnDb open(
      Path directory,
      DbConfig config,
      Collection<? extends ColumnFamilyDefinition> families,
      MeterRegistry registry,
      Iterable<Tag> meterTags) {
    return RocksCairnDb.open(directory, config, families, registry, meterTags);
  }

  /** {@link #open(Path, DbConfig, Collection, MeterRegistry, Iterable)} without meter tags. */
  static CairnDb open(
      Path directory,
      DbConfig config,
      Collection<? extends ColumnFamilyDefinition> families,
      MeterRegistry registry) {
    return open(directory, config, families, registry, Tags.empty());
  }

  /**
   * The names of the column families stored in the database in {@code directory}, without opening
   * it: RocksDB's {@code default} and Cairn's {@linkplain ColumnFamilyDefinition#RESERVED_PREFIX
   * reserved} families left out, so the result is what {@link #open} must be given (with whether
   * each is digested). Empty if the directory holds no database. For tools that open a state made
   * by someone else, such as restore's rebuild of a snapshot's state.
   *
   * @throws DbException if RocksDB cannot read the directory's manifest
   */
  static List<String> storedFamilyNames(Path directory) {
    return RocksCairnDb.storedFamilyNames(directory);
  }

  /** The directory the database lives in. */
  Path directory();

  /** The families given at open, in that order. */
  List<ColumnFamilyDefinition> families();

  /**
   * A typed view of a family. Views are cheap; several views with different codecs may share a
   * family.
   *
   * @throws IllegalArgumentException if the family was not given at open (or was given with the
   *     other digest membership)
   */
  <K, V> ColumnFamily<K, V> columnFamily(
      ColumnFamilyDefinition family, DbCodec<K> keyCodec, DbCodec<V> valueCodec);

  /**
   * Opens a transaction; commit or roll it back before opening the next one.
   *
   * @throws IllegalStateException if a transaction is open already
   */
  Transaction beginTransaction();

  /** True while a transaction is open. */
  boolean isInTransaction();

  /**
   * Runs {@code operation} in a new transaction and commits it; rolls it back and rethrows if
   * {@code operation} throws. If a transaction is open already, {@code operation} runs inside it
   * and commits with it (whoever opened it decides).
   */
  void runInTransaction(Runnable operation);

  /** {@link #runInTransaction(Runnable)} returning {@code operation}'s result. */
  <T> T callInTransaction(Supplier<T> operation);

  /**
   * The digest of the state as seen now: the committed state plus the open transaction's writes, if
   * any. Costs no I/O.
   *
   * @throws IllegalStateException if the database was opened with {@link
   *     DbConfig#digestMaintained()} off (use {@link #recomputeDigest()})
   */
  StateDigest stateDigest();

  /**
   * Computes the digest of the state as seen now by reading every digested family; equal to {@link
   * #stateDigest()} unless something is broken. Cost: a full scan.
   */
  StateDigest recomputeDigest();

  /** Whether every write updates the digest ({@link DbConfig#digestMaintained()}). */
  boolean isDigestMaintained();

  /**
   * Writes a RocksDB checkpoint of the committed state into {@code target}: hard links to the
   * immutable table files plus copies of the rest, after flushing memtables. The writes of an open
   * transaction are not in it. Opening {@code target} with the same families gives the same data
   * and the same digest.
   *
   * @param target a directory that does not exist yet; its parent must exist
   * @throws IllegalArgumentException if {@code target} exists
   * @throws DbException if RocksDB fails
   */
  void createCheckpoint(Path target);

  /** True until {@link #close()}. */
  boolean isOpen();

  /**
   * Rolls back any open transaction, flushes memtables when the write-ahead log is off, and
   * releases every native resource. Idempotent.
   */
  @Override
  void close();
}
