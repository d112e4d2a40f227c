package io.cairn.db.rocksdb;

import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbConfig;
import io.cairn.db.DbException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatchWithIndex;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every native object of one open database, closed in reverse order of creation: the batch and
 * read/write options, the column family handles, the database, then the options and the cache. If
 * opening fails half way, what was created is closed before the exception leaves.
 */
final class RocksResources implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RocksResources.class);

  static {
    RocksDB.loadLibrary();
  }

  private static final double BLOOM_BITS_PER_KEY = 10;

  private final Deque<AutoCloseable> created = new ArrayDeque<>();
  private RocksDB db;
  private List<ColumnFamilyHandle> handles;
  private ReadOptions readOptions;
  private WriteOptions writeOptions;
  private WriteBatchWithIndex batch;

  private RocksResources() {}

  /**
   * Opens {@code directory} with the default family, {@code definitions} (handles {@code 0..n-1})
   * and the internal family {@code internalFamily} (handle {@code n}).
   */
  static RocksResources open(
      Path directory,
      DbConfig config,
      List<ColumnFamilyDefinition> definitions,
      String internalFamily) {
    RocksResources resources = new RocksResources();
    try {
      resources.openDb(directory, config, definitions, internalFamily);
      return resources;
    } catch (RocksDBException e) {
      resources.close();
      throw new DbException(
          "Expected to open the state database "
              + directory
              + ", but RocksDB failed: "
              + e.getMessage(),
          e);
    } catch (RuntimeException e) {
      resources.close();
      throw e;
    }
  }

  private void openDb(
      Path directory,
      DbConfig config,
      List<ColumnFamilyDefinition> definitions,
      String internalFamily)
      throws RocksDBException {
    List<String> names = new ArrayList<>();
    definitions.forEach(definition -> names.add(definition.name()));
    names.add(internalFamily);
    checkNoUnknownFamilies(directory, names);

    LRUCache cache = track(new LRUCache(config.blockCacheSizeBytes()));
    // Every insert, and every write with the digest on, first reads the key; most inserted keys
    // are new, and a bloom filter answers "absent" without reading table blocks.
    BloomFilter filter = track(new BloomFilter(BLOOM_BITS_PER_KEY));
    ColumnFamilyOptions familyOptions =
        track(
            new ColumnFamilyOptions()
                .setWriteBufferSize(config.writeBufferSizeBytes())
                .setTableFormatConfig(
                    new BlockBasedTableConfig().setBlockCache(cache).setFilterPolicy(filter)));
    DBOptions dbOptions =
        track(
            new DBOptions()
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                // Without a WAL, a flush must not leave some families newer than others.
                .setAtomicFlush(true)
                .setMaxBackgroundJobs(config.maxBackgroundJobs())
                .setKeepLogFileNum(2));

    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, familyOptions));
    for (String name : names) {
      descriptors.add(
          new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8), familyOptions));
    }
    List<ColumnFamilyHandle> opened = new ArrayList<>();
    try {
      db = RocksDB.open(dbOptions, directory.toString(), descriptors, opened);
    } finally {
      // The db is registered before its handles, so closing in reverse order closes them first.
      if (db != null) {
        track(db);
      }
      opened.forEach(this::track);
    }
    handles = List.copyOf(opened.subList(1, opened.size()));
    readOptions = track(new ReadOptions());
    writeOptions = track(new WriteOptions().setDisableWAL(!config.walEnabled()));
    // overwriteKey: one entry per key, so batch iterators merge correctly with the base.
    batch = track(new WriteBatchWithIndex(true));
  }

  /**
   * The names of every column family of the database in {@code directory}, RocksDB's default and
   * Cairn's internal ones included, in the order RocksDB lists them; empty if the directory holds
   * no database (no {@code CURRENT} file). Opens nothing.
   */
  static List<String> listFamilies(Path directory) throws RocksDBException {
    if (!Files.exists(directory.resolve("CURRENT"))) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    try (Options options = new Options()) {
      for (byte[] name : RocksDB.listColumnFamilies(options, directory.toString())) {
        names.add(new String(name, StandardCharsets.UTF_8));
      }
    }
    return names;
  }

  private static void checkNoUnknownFamilies(Path directory, List<String> names)
      throws RocksDBException {
    Set<String> unknown = new TreeSet<>(listFamilies(directory));
    unknown.remove(new String(RocksDB.DEFAULT_COLUMN_FAMILY, StandardCharsets.UTF_8));
    unknown.removeAll(new HashSet<>(names));
    if (!unknown.isEmpty()) {
      throw new DbException(
          "Expected every column family in "
              + directory
              + " to be defined, but "
              + unknown
              + " are not. Open it with every family it holds");
    }
  }

  private <T extends AutoCloseable> T track(T resource) {
    created.push(resource);
    return resource;
  }

  RocksDB db() {
    return db;
  }

  /** The handle of the {@code index}-th defined family. */
  ColumnFamilyHandle handle(int index) {
    return handles.get(index);
  }

  /** The handle of the internal family. */
  ColumnFamilyHandle digestHandle() {
    return handles.get(handles.size() - 1);
  }

  /** Every handle except the default family's. */
  List<ColumnFamilyHandle> allHandles() {
    return handles;
  }

  ReadOptions readOptions() {
    return readOptions;
  }

  WriteOptions writeOptions() {
    return writeOptions;
  }

  WriteBatchWithIndex batch() {
    return batch;
  }

  @Override
  public void close() {
    while (!created.isEmpty()) {
      AutoCloseable resource = created.pop();
      try {
        resource.close();
      } catch (Exception e) {
        LOG.warn("Failed to close {}", resource.getClass().getSimpleName(), e);
      }
    }
  }
}
