package io.cairn.backup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Immutable, validated settings of a partition's {@link BackupManager}.
 *
 * <table>
 *   <caption>Keys</caption>
 *   <tr><th>key</th><th>default</th><th>allowed</th><th>what</th></tr>
 *   <tr><td>{@code maxConcurrentBackups}</td><td>{@value #MAX_CONCURRENT_BACKUPS_DEFAULT}</td>
 *       <td>[1, {@value #MAX_CONCURRENT_BACKUPS_LIMIT}]</td>
 *       <td>backups of the partition uploading at once; later ones wait in the queue</td></tr>
 *   <tr><td>{@code maxPendingBackups}</td><td>{@value #MAX_PENDING_BACKUPS_DEFAULT}</td>
 *       <td>[1, {@value #MAX_PENDING_BACKUPS_LIMIT}]</td>
 *       <td>backups waiting to upload; a checkpoint beyond that fails its backup at once</td></tr>
 *   <tr><td>{@code uploadRateBytesPerSecond}</td><td>0 (unlimited)</td>
 *       <td>0 or [{@value #UPLOAD_RATE_BYTES_PER_SECOND_MIN}, 2^40]</td>
 *       <td>average rate of bytes copied into the store: after a backup copied {@code n} bytes,
 *       the next one starts no earlier than {@code n / rate} seconds after the previous start.
 *       It cannot slow a save down: the bytes/s limit that keeps processing hot is the store's
 *       own {@code maxBytesPerSecond} (filesystem and S3 stores), which bounds every byte of
 *       every save; with it set, leave this at 0</td></tr>
 *   <tr><td>{@code confirmRetryDelay}</td><td>100ms</td><td>[1ms, 1min]</td>
 *       <td>delay before writing {@code CONFIRM_BACKUP} again after backpressure</td></tr>
 *   <tr><td>{@code confirmMaxAttempts}</td><td>{@value #CONFIRM_MAX_ATTEMPTS_DEFAULT}</td>
 *       <td>[1, 10000]</td><td>attempts to write {@code CONFIRM_BACKUP}</td></tr>
 * </table>
 */
public final class BackupConfig {

  public static final String MAX_CONCURRENT_BACKUPS_KEY = "maxConcurrentBackups";
  public static final int MAX_CONCURRENT_BACKUPS_DEFAULT = 1;
  public static final int MAX_CONCURRENT_BACKUPS_LIMIT = 16;
  public static final String MAX_PENDING_BACKUPS_KEY = "maxPendingBackups";
  public static final int MAX_PENDING_BACKUPS_DEFAULT = 16;
  public static final int MAX_PENDING_BACKUPS_LIMIT = 1000;
  public static final String UPLOAD_RATE_BYTES_PER_SECOND_KEY = "uploadRateBytesPerSecond";
  public static final long UPLOAD_RATE_BYTES_PER_SECOND_DEFAULT = 0;
  public static final long UPLOAD_RATE_BYTES_PER_SECOND_MIN = 64 * 1024;
  public static final long UPLOAD_RATE_BYTES_PER_SECOND_MAX = 1L << 40;
  public static final String CONFIRM_RETRY_DELAY_KEY = "confirmRetryDelay";
  public static final Duration CONFIRM_RETRY_DELAY_DEFAULT = Duration.ofMillis(100);
  public static final String CONFIRM_MAX_ATTEMPTS_KEY = "confirmMaxAttempts";
  public static final int CONFIRM_MAX_ATTEMPTS_DEFAULT = 50;

  private static final Duration CONFIRM_RETRY_DELAY_MIN = Duration.ofMillis(1);
  private static final Duration CONFIRM_RETRY_DELAY_MAX = Duration.ofMinutes(1);
  private static final int CONFIRM_MAX_ATTEMPTS_LIMIT = 10_000;

  private final int maxConcurrentBackups;
  private final int maxPendingBackups;
  private final long uploadRateBytesPerSecond;
  private final Duration confirmRetryDelay;
  private final int confirmMaxAttempts;

  private BackupConfig(Builder builder) {
    maxConcurrentBackups = builder.maxConcurrentBackups;
    maxPendingBackups = builder.maxPendingBackups;
    uploadRateBytesPerSecond = builder.uploadRateBytesPerSecond;
    confirmRetryDelay = builder.confirmRetryDelay;
    confirmMaxAttempts = builder.confirmMaxAttempts;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The defaults listed in the class doc. */
  public static BackupConfig defaults() {
    return builder().build();
  }

  public Builder toBuilder() {
    return builder()
        .maxConcurrentBackups(maxConcurrentBackups)
        .maxPendingBackups(maxPendingBackups)
        .uploadRateBytesPerSecond(uploadRateBytesPerSecond)
        .confirmRetryDelay(confirmRetryDelay)
        .confirmMaxAttempts(confirmMaxAttempts);
  }

  public int maxConcurrentBackups() {
    return maxConcurrentBackups;
  }

  public int maxPendingBackups() {
    return maxPendingBackups;
  }

  /** 0: unlimited. */
  public long uploadRateBytesPerSecond() {
    return uploadRateBytesPerSecond;
  }

  public Duration confirmRetryDelay() {
    return confirmRetryDelay;
  }

  public int confirmMaxAttempts() {
    return confirmMaxAttempts;
  }

  @Override
  public String toString() {
    return "BackupConfig{maxConcurrentBackups="
        + maxConcurrentBackups
        + ", maxPendingBackups="
        + maxPendingBackups
        + ", uploadRateBytesPerSecond="
        + uploadRateBytesPerSecond
        + ", confirmRetryDelay="
        + confirmRetryDelay
        + ", confirmMaxAttempts="
        + confirmMaxAttempts
        + "}";
  }

  /** Collects settings; {@link #build()} validates them. */
  public static final class Builder {
    private int maxConcurrentBackups = MAX_CONCURRENT_BACKUPS_DEFAULT;
    private int maxPendingBackups = MAX_PENDING_BACKUPS_DEFAULT;
    private long uploadRateBytesPerSecond = UPLOAD_RATE_BYTES_PER_SECOND_DEFAULT;
    private Duration confirmRetryDelay = CONFIRM_RETRY_DELAY_DEFAULT;
    private int confirmMaxAttempts = CONFIRM_MAX_ATTEMPTS_DEFAULT;

    private Builder() {}

    public Builder maxConcurrentBackups(int value) {
      maxConcurrentBackups = value;
      return this;
    }

    public Builder maxPendingBackups(int value) {
      maxPendingBackups = value;
      return this;
    }

    public Builder uploadRateBytesPerSecond(long value) {
      uploadRateBytesPerSecond = value;
      return this;
    }

    public Builder confirmRetryDelay(Duration value) {
      confirmRetryDelay = value;
      return this;
    }

    public Builder confirmMaxAttempts(int value) {
      confirmMaxAttempts = value;
      return this;
    }

    /**
     * @throws IllegalArgumentException listing every setting outside its range, with key, value and
     *     the allowed range
     */
    public BackupConfig build() {
      List<String> violations = new ArrayList<>();
      if (maxConcurrentBackups < 1 || maxConcurrentBackups > MAX_CONCURRENT_BACKUPS_LIMIT) {
        violations.add(
            MAX_CONCURRENT_BACKUPS_KEY
                + " in [1, "
                + MAX_CONCURRENT_BACKUPS_LIMIT
                + "], but was "
                + maxConcurrentBackups);
      }
      if (maxPendingBackups < 1 || maxPendingBackups > MAX_PENDING_BACKUPS_LIMIT) {
        violations.add(
            MAX_PENDING_BACKUPS_KEY
                + " in [1, "
                + MAX_PENDING_BACKUPS_LIMIT
                + "], but was "
                + maxPendingBackups);
      }
      if (uploadRateBytesPerSecond != 0
          && (uploadRateBytesPerSecond < UPLOAD_RATE_BYTES_PER_SECOND_MIN
              || uploadRateBytesPerSecond > UPLOAD_RATE_BYTES_PER_SECOND_MAX)) {
        violations.add(
            UPLOAD_RATE_BYTES_PER_SECOND_KEY
                + " 0 (unlimited) or in ["
                + UPLOAD_RATE_BYTES_PER_SECOND_MIN
                + ", "
                + UPLOAD_RATE_BYTES_PER_SECOND_MAX
                + "], but was "
                + uploadRateBytesPerSecond);
      }
      if (confirmRetryDelay == null
          || confirmRetryDelay.compareTo(CONFIRM_RETRY_DELAY_MIN) < 0
          || confirmRetryDelay.compareTo(CONFIRM_RETRY_DELAY_MAX) > 0) {
        violations.add(
            CONFIRM_RETRY_DELAY_KEY
                + " in ["
                + CONFIRM_RETRY_DELAY_MIN
                + ", "
                + CONFIRM_RETRY_DELAY_MAX
                + "], but was "
                + confirmRetryDelay);
      }
      if (confirmMaxAttempts < 1 || confirmMaxAttempts > CONFIRM_MAX_ATTEMPTS_LIMIT) {
        violations.add(
            CONFIRM_MAX_ATTEMPTS_KEY
                + " in [1, "
                + CONFIRM_MAX_ATTEMPTS_LIMIT
                + "], but was "
                + confirmMaxAttempts);
      }
      if (!violations.isEmpty()) {
        throw new IllegalArgumentException(
            "Expected " + String.join("; ", violations) + " (BackupConfig)");
      }
      return new BackupConfig(this);
    }
  }
}
