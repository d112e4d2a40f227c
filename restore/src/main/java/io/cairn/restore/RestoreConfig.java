package io.cairn.restore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Immutable, validated settings of {@link BackupRestorer} and {@link BackupVerifier}. Build with
 * {@link #builder()}; {@link Builder#build()} checks every key and lists every violation at once.
 *
 * <table>
 *   <caption>Keys</caption>
 *   <tr><th>key</th><th>default</th><th>allowed</th></tr>
 *   <tr><td>partitionConcurrency</td><td>8</td><td>1..16; partitions downloaded and installed at
 *       once, so by default every partition of a node that hosts up to 8 (each download runs on
 *       the store's executor, which must have as many threads; the store bounds the files of one
 *       partition downloaded at once itself, e.g. the filesystem store's {@code
 *       maxConcurrentFileCopies}); a verification rebuilds as many partitions at once</td></tr>
 *   <tr><td>storeRequestTimeout</td><td>60s</td><td>1s..1h; how long a listing or status request
 *       to the store may take</td></tr>
 *   <tr><td>partitionTimeout</td><td>6h</td><td>1s..7d; how long one partition's download and
 *       installation (or rebuild) may take</td></tr>
 *   <tr><td>progressIntervalBytes</td><td>4 MiB</td><td>0..1 GiB; the least bytes between two
 *       progress events of one partition (events at the start and end of every phase are always
 *       sent)</td></tr>
 *   <tr><td>allowPartial</td><td>false</td><td>true: a restore skips a partition none of whose
 *       copies verifies (a file corrupted or missing in every node's copy: {@link
 *       RestoreException.Kind#CORRUPTED}), leaves its directory absent, restores the others and
 *       lists it in {@link RestoreResult#skipped()}; refusals of the whole backup and other failures
 *       still fail the whole restore</td></tr>
 * </table>
 */
public final class RestoreConfig {

  public static final String PARTITION_CONCURRENCY_KEY = "partitionConcurrency";

  /**
   * Every partition of a typical node at once: a restore is bound by the disk and the store, and a
   * partition that waits for a slot only adds its time to the others'.
   */
  public static final int PARTITION_CONCURRENCY_DEFAULT = 8;

  public static final int PARTITION_CONCURRENCY_MAX = 16;
  public static final String STORE_REQUEST_TIMEOUT_KEY = "storeRequestTimeout";
  public static final Duration STORE_REQUEST_TIMEOUT_DEFAULT = Duration.ofSeconds(60);
  public static final String PARTITION_TIMEOUT_KEY = "partitionTimeout";
  public static final Duration PARTITION_TIMEOUT_DEFAULT = Duration.ofHours(6);
  public static final String PROGRESS_INTERVAL_BYTES_KEY = "progressIntervalBytes";
  public static final long PROGRESS_INTERVAL_BYTES_DEFAULT = 4L * 1024 * 1024;
  public static final long PROGRESS_INTERVAL_BYTES_MAX = 1024L * 1024 * 1024;
  public static final String ALLOW_PARTIAL_KEY = "allowPartial";
  public static final boolean ALLOW_PARTIAL_DEFAULT = false;

  private final int partitionConcurrency;
  private final Duration storeRequestTimeout;
  private final Duration partitionTimeout;
  private final long progressIntervalBytes;
  private final boolean allowPartial;

  private RestoreConfig(Builder builder) {
    partitionConcurrency = builder.partitionConcurrency;
    storeRequestTimeout = builder.storeRequestTimeout;
    partitionTimeout = builder.partitionTimeout;
    progressIntervalBytes = builder.progressIntervalBytes;
    allowPartial = builder.allowPartial;
  }

  public static Builder builder() {
    return new Builder();
  }

  public static RestoreConfig defaults() {
    return builder().build();
  }

  public int partitionConcurrency() {
    return partitionConcurrency;
  }

  public Duration storeRequestTimeout() {
    return storeRequestTimeout;
  }

  public Duration partitionTimeout() {
    return partitionTimeout;
  }

  public long progressIntervalBytes() {
    return progressIntervalBytes;
  }

  /** Whether a restore skips partitions whose every copy is corrupted (see the class table). */
  public boolean allowPartial() {
    return allowPartial;
  }

  @Override
  public String toString() {
    return "RestoreConfig{partitionConcurrency="
        + partitionConcurrency
        + ", storeRequestTimeout="
        + storeRequestTimeout
        + ", partitionTimeout="
        + partitionTimeout
        + ", progressIntervalBytes="
        + progressIntervalBytes
        + ", allowPartial="
        + allowPartial
        + "}";
  }

  /** Mutable builder; {@link #build()} validates. */
  public static final class Builder {
    private int partitionConcurrency = PARTITION_CONCURRENCY_DEFAULT;
    private Duration storeRequestTimeout = STORE_REQUEST_TIMEOUT_DEFAULT;
    private Duration partitionTimeout = PARTITION_TIMEOUT_DEFAULT;
    private long progressIntervalBytes = PROGRESS_INTERVAL_BYTES_DEFAULT;
    private boolean allowPartial = ALLOW_PARTIAL_DEFAULT;

    private Builder() {}

    /** Starts from {@code config}'s values. */
    public Builder from(RestoreConfig config) {
      partitionConcurrency = config.partitionConcurrency;
      storeRequestTimeout = config.storeRequestTimeout;
      partitionTimeout = config.partitionTimeout;
      progressIntervalBytes = config.progressIntervalBytes;
      allowPartial = config.allowPartial;
      return this;
    }

    public Builder allowPartial(boolean value) {
      allowPartial = value;
      return this;
    }

    public Builder partitionConcurrency(int value) {
      partitionConcurrency = value;
      return this;
    }

    public Builder storeRequestTimeout(Duration value) {
      storeRequestTimeout = value;
      return this;
    }

    public Builder partitionTimeout(Duration value) {
      partitionTimeout = value;
      return this;
    }

    public Builder progressIntervalBytes(long value) {
      progressIntervalBytes = value;
      return this;
    }

    /**
     * @throws IllegalArgumentException listing every key outside its range
     */
    public RestoreConfig build() {
      List<String> violations = new ArrayList<>();
      if (partitionConcurrency < 1 || partitionConcurrency > PARTITION_CONCURRENCY_MAX) {
        violations.add(
            "Expected "
                + PARTITION_CONCURRENCY_KEY
                + " in 1.."
                + PARTITION_CONCURRENCY_MAX
                + ", but was "
                + partitionConcurrency);
      }
      checkDuration(
          violations,
          STORE_REQUEST_TIMEOUT_KEY,
          storeRequestTimeout,
          "1s..1h",
          Duration.ofHours(1));
      checkDuration(
          violations, PARTITION_TIMEOUT_KEY, partitionTimeout, "1s..7d", Duration.ofDays(7));
      if (progressIntervalBytes < 0 || progressIntervalBytes > PROGRESS_INTERVAL_BYTES_MAX) {
        violations.add(
            "Expected "
                + PROGRESS_INTERVAL_BYTES_KEY
                + " in 0.."
                + PROGRESS_INTERVAL_BYTES_MAX
                + " bytes, but was "
                + progressIntervalBytes);
      }
      if (!violations.isEmpty()) {
        throw new IllegalArgumentException(String.join("; ", violations) + " (restore config)");
      }
      return new RestoreConfig(this);
    }

    private static void checkDuration(
        List<String> violations, String key, Duration value, String range, Duration max) {
      if (value == null || value.compareTo(Duration.ofSeconds(1)) < 0 || value.compareTo(max) > 0) {
        violations.add("Expected " + key + " in " + range + ", but was " + value);
      }
    }
  }
}
