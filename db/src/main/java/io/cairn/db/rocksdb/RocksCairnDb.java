package io.cairn.db.rocksdb;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamily;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbCodec;
import io.cairn.db.DbConfig;
import io.cairn.db.DbException;
import io.cairn.db.DbMetrics;
import io.cairn.db.Digest128;
import io.cairn.db.StateDigest;
import io.cairn.db.Transaction;
import io.cairn.db.digest.TupleHasher;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.rocksdb.Checkpoint;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatchWithIndex;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link CairnDb} on RocksDB.
 *
 * <p>Transactions are a {@link WriteBatchWithIndex} over a plain {@link RocksDB}, not an
 * OptimisticTransactionDB: there is one writer per database (the partition's thread), so conflict
 * detection would only cost time; the indexed batch gives read-your-own-writes for gets and
 * iterators, commit is one atomic {@code write}, and rollback is {@code clear}. One batch object is
 * reused for every transaction.
 */
public final class RocksCairnDb implements CairnDb {

  private static final Logger LOG = LoggerFactory.getLogger(RocksCairnDb.class);
  private static final String DEFAULT_FAMILY =
      new String(RocksDB.DEFAULT_COLUMN_FAMILY, StandardCharsets.UTF_8);

  private final Path directory;
  private final DbConfig config;
  private final List<ColumnFamilyDefinition> definitions;
  private final RocksResources resources;
  private final List<Family> families;
  private final Map<String, Family> familiesByName;
  private final List<Family> digestedFamilies;
  private final DigestStore digestStore;
  private final DbMetrics metrics;
  private final TupleHasher hasher = new TupleHasher();
  private final DigestAccumulator committedDigest;
  private RocksTransaction transaction;
  private boolean open = true;

  private RocksCairnDb(
      Path directory,
      DbConfig config,
      List<ColumnFamilyDefinition> definitions,
      RocksResources resources,
      DbMetrics metrics) {
    this.directory = directory;
    this.config = config;
    this.definitions = definitions;
    this.resources = resources;
    this.metrics = metrics;
    this.families = new ArrayList<>(definitions.size());
    this.familiesByName = new LinkedHashMap<>();
    for (int i = 0; i < definitions.size(); i++) {
      Family family = Family.of(i, definitions.get(i), resources.handle(i));
      families.add(family);
      familiesByName.put(family.name(), family);
    }
    this.digestedFamilies = families.stream().filter(Family::digested).toList();
    this.digestStore =
        new DigestStore(resources.db(), resources.digestHandle(), resources.readOptions());
    this.committedDigest = new DigestAccumulator(definitions.size());
  }

  /** See {@link CairnDb#open(Path, DbConfig, Collection, MeterRegistry, Iterable)}. */
  public static RocksCairnDb open(
      Path directory,
      DbConfig config,
      Collection<? extends ColumnFamilyDefinition> families,
      MeterRegistry registry,
      Iterable<Tag> meterTags) {
    List<ColumnFamilyDefinition> definitions = validate(families);
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new DbException(
          "Expected to create the database directory " + directory + ", but it failed", e);
    }
    RocksResources resources =
        RocksResources.open(directory, config, definitions, DigestStore.FAMILY_NAME);
    RocksCairnDb db;
    try {
      db =
          new RocksCairnDb(
              directory, config, definitions, resources, new DbMetrics(registry, meterTags));
      db.initialiseDigest();
    } catch (RuntimeException e) {
      resources.close();
      throw e;
    }
    LOG.info(
        "Opened state database {} with families {} (digest {})",
        directory,
        db.familiesByName.keySet(),
        config.digestMaintained() ? "maintained" : "off");
    return db;
  }

  /** See {@link CairnDb#storedFamilyNames(Path)}. */
  public static List<String> storedFamilyNames(Path directory) {
    try {
      return RocksResources.listFamilies(directory).stream()
          .filter(name -> !name.equals(DEFAULT_FAMILY))
          .filter(name -> !name.startsWith(ColumnFamilyDefinition.RESERVED_PREFIX))
          .toList();
    } catch (RocksDBException e) {
      throw new DbException(
          "Expected to list the column families of " + directory + ", but RocksDB failed", e);
    }
  }

  private static List<ColumnFamilyDefinition> validate(
      Collection<? extends ColumnFamilyDefinition> families) {
    Set<String> names = new HashSet<>();
    List<ColumnFamilyDefinition> definitions = new ArrayList<>(families.size());
    for (ColumnFamilyDefinition family : families) {
      ColumnFamilyDefinition.validateName(family.name());
      if (!names.add(family.name())) {
        throw new IllegalArgumentException(
            "Expected column family names to be unique, but '"
                + family.name()
                + "' is given twice");
      }
      definitions.add(family);
    }
    return List.copyOf(definitions);
  }

  private void initialiseDigest() {
    try {
      if (!config.digestMaintained()) {
        digestStore.markStale(resources.writeOptions());
        return;
      }
      Set<String> digestedNames = new HashSet<>();
      digestedFamilies().forEach(family -> digestedNames.add(family.name()));
      DigestStore.Stored stored = digestStore.load();
      String reason = stored.unusableReason(digestedNames);
      if (reason == null) {
        for (Family family : digestedFamilies()) {
          committedDigest.set(family.index(), stored.families().get(family.name()));
        }
        return;
      }
      LOG.info("Recomputing the state digest of {}: {}", directory, reason);
      DigestAccumulator recomputed = scanDigest();
      digestStore.replaceAll(digestedFamilies(), recomputed, resources.writeOptions());
      committedDigest.clear();
      committedDigest.addAll(recomputed);
    } catch (RocksDBException e) {
      throw new DbException(
          "Expected to initialise the state digest of " + directory + ", but RocksDB failed", e);
    }
  }

  @Override
  public Path directory() {
    return directory;
  }

  @Override
  public List<ColumnFamilyDefinition> families() {
    return definitions;
  }

  @Override
  public <K, V> ColumnFamily<K, V> columnFamily(
      ColumnFamilyDefinition family, DbCodec<K> keyCodec, DbCodec<V> valueCodec) {
    ensureOpen();
    Family open = familiesByName.get(family.name());
    if (open == null || open.digested() != family.includedInDigest()) {
      throw new IllegalArgumentException(
          "Expected one of the families opened "
              + definitions
              + ", but got "
              + family.name()
              + " (includedInDigest="
              + family.includedInDigest()
              + ")");
    }
    return new RocksColumnFamily<>(this, open, keyCodec, valueCodec);
  }

  @Override
  public Transaction beginTransaction() {
    return begin(false);
  }

  @Override
  public boolean isInTransaction() {
    return transaction != null;
  }

  @Override
  public void runInTransaction(Runnable operation) {
    callInTransaction(
        () -> {
          operation.run();
          return null;
        });
  }

  @Override
  public <T> T callInTransaction(Supplier<T> operation) {
    return inTransaction(operation, false);
  }

  /** Runs in the open transaction, or in a new one committed at the end. */
  <T> T inTransaction(Supplier<T> operation, boolean implicit) {
    if (transaction != null) {
      return operation.get();
    }
    RocksTransaction started = begin(implicit);
    T result;
    try {
      result = operation.get();
    } catch (RuntimeException | Error e) {
      if (started.isOpen()) {
        started.rollback();
      }
      throw e;
    }
    started.commit();
    return result;
  }

  /**
   * The open transaction; for column family operations, which call it inside {@link
   * #inTransaction}.
   */
  RocksTransaction currentTransaction() {
    if (transaction == null) {
      throw new IllegalStateException("Expected an open transaction, but there is none");
    }
    return transaction;
  }

  private RocksTransaction begin(boolean implicit) {
    ensureOpen();
    if (transaction != null) {
      throw new IllegalStateException(
          "Expected no open transaction, but one is open; commit or roll it back first ("
              + directory
              + ")");
    }
    transaction = new RocksTransaction(this, families.size(), implicit);
    return transaction;
  }

  @Override
  public StateDigest stateDigest() {
    ensureOpen();
    if (!config.digestMaintained()) {
      throw new IllegalStateException(
          "Expected digest maintenance on, but the database was opened with it off ("
              + directory
              + "). Use recomputeDigest()");
    }
    Map<String, Digest128> digests = new TreeMap<>();
    for (Family family : digestedFamilies()) {
      digests.put(
          family.name(),
          transaction == null
              ? committedDigest.get(family.index())
              : transaction.digestOf(family, committedDigest));
    }
    return StateDigest.of(digests);
  }

  @Override
  public StateDigest recomputeDigest() {
    ensureOpen();
    DigestAccumulator scanned = scanDigest();
    Map<String, Digest128> digests = new TreeMap<>();
    for (Family family : digestedFamilies()) {
      digests.put(family.name(), scanned.get(family.index()));
    }
    return StateDigest.of(digests);
  }

  private DigestAccumulator scanDigest() {
    Timer.Sample sample = metrics.startTimer();
    DigestAccumulator digests = new DigestAccumulator(families.size());
    for (Family family : digestedFamilies()) {
      iterate(
          family,
          null,
          (key, value) -> {
            digests.add(family.index(), hasher.hash(family.nameBytes(), key, value));
            return true;
          });
    }
    metrics.digestRecomputed(sample);
    return digests;
  }

  @Override
  public boolean isDigestMaintained() {
    return config.digestMaintained();
  }

  @Override
  public void createCheckpoint(Path target) {
    ensureOpen();
    if (Files.exists(target)) {
      throw new IllegalArgumentException(
          "Expected the checkpoint directory " + target + " not to exist, but it does");
    }
    try (Checkpoint checkpoint = Checkpoint.create(resources.db())) {
      checkpoint.createCheckpoint(target.toString());
    } catch (RocksDBException e) {
      throw new DbException(
          "Expected to write a checkpoint of "
              + directory
              + " into "
              + target
              + ", but RocksDB failed",
          e);
    }
    LOG.debug("Wrote checkpoint of {} into {}", directory, target);
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() {
    if (!open) {
      return;
    }
    if (transaction != null) {
      transaction.rollback();
    }
    open = false;
    DbException failure = null;
    if (!config.walEnabled()) {
      try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
        resources.db().flush(flush, resources.allHandles());
      } catch (RocksDBException e) {
        failure =
            new DbException(
                "Expected to flush " + directory + " before closing, but RocksDB failed", e);
      }
    }
    resources.close();
    LOG.debug("Closed state database {}", directory);
    if (failure != null) {
      throw failure;
    }
  }

  // --- used by transactions and column families (same thread) ---

  /**
   * Visits the pairs of {@code family} (those starting with {@code prefix}, if not null) in key
   * order, through the open transaction's writes. Writes made by the visitor are seen for keys
   * after the current one: the iterator re-seeks after any write.
   */
  boolean iterate(Family family, byte[] prefix, BytesVisitor visitor) {
    ensureOpen();
    RocksIterator base = resources.db().newIterator(family.handle(), resources.readOptions());
    try (RocksIterator iterator =
        resources.batch().newIteratorWithBase(family.handle(), base, resources.readOptions())) {
      if (prefix == null) {
        iterator.seekToFirst();
      } else {
        iterator.seek(prefix);
      }
      long modifications = modificationCount();
      while (iterator.isValid()) {
        byte[] key = iterator.key();
        if (prefix != null && !startsWith(key, prefix)) {
          return true;
        }
        if (!visitor.visit(key, iterator.value())) {
          return false;
        }
        long now = modificationCount();
        if (now != modifications) {
          // The batch changed under the iterator; re-position from the key just visited.
          modifications = now;
          iterator.seek(key);
          if (iterator.isValid() && Arrays.equals(iterator.key(), key)) {
            iterator.next();
          }
        } else {
          iterator.next();
        }
      }
      iterator.status();
      return true;
    } catch (RocksDBException e) {
      throw new DbException(
          "Expected to iterate family "
              + family.name()
              + ", but RocksDB failed ("
              + directory
              + ")",
          e);
    }
  }

  private long modificationCount() {
    return transaction == null ? 0 : transaction.modificationCount();
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  /** Reads through the open transaction, if any. The returned array must not be changed. */
  byte[] read(Family family, byte[] key) {
    ensureOpen();
    return transaction != null ? transaction.read(family, key) : readThrough(family, key);
  }

  /** Reads the batch, then the committed state; no caching. */
  byte[] readThrough(Family family, byte[] key) {
    ensureOpen();
    try {
      return resources
          .batch()
          .getFromBatchAndDB(resources.db(), family.handle(), resources.readOptions(), key);
    } catch (RocksDBException e) {
      throw new DbException(
          "Expected to read from family "
              + family.name()
              + ", but RocksDB failed ("
              + directory
              + ")",
          e);
    }
  }

  boolean tracksDigest(Family family) {
    return config.digestMaintained() && family.digested();
  }

  void writeBatch() throws RocksDBException {
    resources.db().write(resources.writeOptions(), resources.batch());
  }

  /** Ends {@code finished}: clears the batch and forgets it. */
  void finish(RocksTransaction finished) {
    resources.batch().clear();
    finished.markClosed();
    if (transaction == finished) {
      transaction = null;
    }
  }

  WriteBatchWithIndex batch() {
    return resources.batch();
  }

  TupleHasher hasher() {
    return hasher;
  }

  DbMetrics metrics() {
    return metrics;
  }

  DigestStore digestStore() {
    return digestStore;
  }

  DigestAccumulator committedDigest() {
    return committedDigest;
  }

  List<Family> familyList() {
    return families;
  }

  private List<Family> digestedFamilies() {
    return digestedFamilies;
  }

  private void ensureOpen() {
    if (!open) {
      throw new IllegalStateException("Expected an open database, but " + directory + " is closed");
    }
  }

  /** Receives raw pairs during {@link #iterate}. */
  @FunctionalInterface
  interface BytesVisitor {
    boolean visit(byte[] key, byte[] value);
  }
}
