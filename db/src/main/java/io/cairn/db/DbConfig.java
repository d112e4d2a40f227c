package io.cairn.db;

import java.util.ArrayList;
import java.util.List;

/**
 * Immutable, validated settings of one database. Build with {@link #builder()}; {@link
 * Builder#build()} checks every key and lists every violation in one {@link
 * IllegalArgumentException}.
 *
 * <table>
 *   <caption>Keys</caption>
 *   <tr><th>key</th><th>default</th><th>allowed</th></tr>
 *   <tr><td>writeBufferSizeBytes</td><td>16 MiB</td><td>[64 KiB, 1 GiB]; memtable size per
 *       column family</td></tr>
 *   <tr><td>blockCacheSizeBytes</td><td>32 MiB</td><td>[64 KiB, 64 GiB]; shared by every
 *       family</td></tr>
 *   <tr><td>maxBackgroundJobs</td><td>2</td><td>[1, 64]; flush and compaction threads</td></tr>
 *   <tr><td>walEnabled</td><td>false</td><td>whether RocksDB keeps a write-ahead log</td></tr>
 *   <tr><td>digestMaintained</td><td>true</td><td>whether every write updates the state
 *       digest</td></tr>
 * </table>
 *
 * <p>The write-ahead log is off by default: the replicated log is the write-ahead log of the state,
 * which is rebuilt from a snapshot plus replay after a crash. Memtables are flushed atomically
 * across families, so whatever reaches disk is a state some commit produced, digest included.
 * Turning {@code digestMaintained} off saves a hash per write and, for blind puts and deletes, the
 * read of the old value (for measurements); the stored digest is then marked stale and recomputed
 * when the database is next opened with it on.
 */
public final class DbConfig {

  public static final long DEFAULT_WRITE_BUFFER_SIZE_BYTES = 16L * 1024 * 1024;
  public static final long DEFAULT_BLOCK_CACHE_SIZE_BYTES = 32L * 1024 * 1024;
  public static final int DEFAULT_MAX_BACKGROUND_JOBS = 2;

  private static final long MIN_SIZE_BYTES = 64L * 1024;
  private static final long MAX_WRITE_BUFFER_SIZE_BYTES = 1024L * 1024 * 1024;
  private static final long MAX_BLOCK_CACHE_SIZE_BYTES = 64L * 1024 * 1024 * 1024;
  private static final int MAX_BACKGROUND_JOBS = 64;

  private final long writeBufferSizeBytes;
  private final long blockCacheSizeBytes;
  private final int maxBackgroundJobs;
  private final boolean walEnabled;
  private final boolean digestMaintained;

  private DbConfig(Builder builder) {
    writeBufferSizeBytes = builder.writeBufferSizeBytes;
    blockCacheSizeBytes = builder.blockCacheSizeBytes;
    maxBackgroundJobs = builder.maxBackgroundJobs;
    walEnabled = builder.walEnabled;
    digestMaintained = builder.digestMaintained;
  }

  /** A builder with every default set. */
  public static Builder builder() {
    return new Builder();
  }

  /** The defaults. */
  public static DbConfig defaults() {
    return builder().build();
  }

  /** A builder holding this config's values. */
  public Builder toBuilder() {
    return new Builder()
        .writeBufferSizeBytes(writeBufferSizeBytes)
        .blockCacheSizeBytes(blockCacheSizeBytes)
        .maxBackgroundJobs(maxBackgroundJobs)
        .walEnabled(walEnabled)
        .digestMaintained(digestMaintained);
  }

  /** Memtable size of each column family. */
  public long writeBufferSizeBytes() {
    return writeBufferSizeBytes;
  }

  /** LRU block cache shared by every column family. */
  public long blockCacheSizeBytes() {
    return blockCacheSizeBytes;
  }

  /** Flush and compaction threads of RocksDB. */
  public int maxBackgroundJobs() {
    return maxBackgroundJobs;
  }

  /** Whether RocksDB writes a write-ahead log. */
  public boolean walEnabled() {
    return walEnabled;
  }

  /** Whether every write updates the state digest incrementally. */
  public boolean digestMaintained() {
    return digestMaintained;
  }

  @Override
  public String toString() {
    return "DbConfig{writeBufferSizeBytes="
        + writeBufferSizeBytes
        + ", blockCacheSizeBytes="
        + blockCacheSizeBytes
        + ", maxBackgroundJobs="
        + maxBackgroundJobs
        + ", walEnabled="
        + walEnabled
        + ", digestMaintained="
        + digestMaintained
        + '}';
  }

  /** Mutable builder; {@link #build()} validates. */
  public static final class Builder {
    private long writeBufferSizeBytes = DEFAULT_WRITE_BUFFER_SIZE_BYTES;
    private long blockCacheSizeBytes = DEFAULT_BLOCK_CACHE_SIZE_BYTES;
    private int maxBackgroundJobs = DEFAULT_MAX_BACKGROUND_JOBS;
    private boolean walEnabled;
    private boolean digestMaintained = true;

    private Builder() {}

    public Builder writeBufferSizeBytes(long writeBufferSizeBytes) {
      this.writeBufferSizeBytes = writeBufferSizeBytes;
      return this;
    }

    public Builder blockCacheSizeBytes(long blockCacheSizeBytes) {
      this.blockCacheSizeBytes = blockCacheSizeBytes;
      return this;
    }

    public Builder maxBackgroundJobs(int maxBackgroundJobs) {
      this.maxBackgroundJobs = maxBackgroundJobs;
      return this;
    }

    public Builder walEnabled(boolean walEnabled) {
      this.walEnabled = walEnabled;
      return this;
    }

    public Builder digestMaintained(boolean digestMaintained) {
      this.digestMaintained = digestMaintained;
      return this;
    }

    /**
     * Validates every key and returns the config.
     *
     * @throws IllegalArgumentException listing every violation
     */
    public DbConfig build() {
      List<String> violations = new ArrayList<>();
      checkRange(
          violations,
          "writeBufferSizeBytes",
          writeBufferSizeBytes,
          MIN_SIZE_BYTES,
          MAX_WRITE_BUFFER_SIZE_BYTES);
      checkRange(
          violations,
          "blockCacheSizeBytes",
          blockCacheSizeBytes,
          MIN_SIZE_BYTES,
          MAX_BLOCK_CACHE_SIZE_BYTES);
      checkRange(violations, "maxBackgroundJobs", maxBackgroundJobs, 1, MAX_BACKGROUND_JOBS);
      if (!violations.isEmpty()) {
        throw new IllegalArgumentException(String.join("; ", violations));
      }
      return new DbConfig(this);
    }

    private static void checkRange(
        List<String> violations, String key, long value, long min, long max) {
      if (value < min || value > max) {
        violations.add(
            "Expected "
                + key
                + " in ["
                + min
                + ", "
                + max
                + "], but was "
                + value
                + " (db config)");
      }
    }
  }
}
