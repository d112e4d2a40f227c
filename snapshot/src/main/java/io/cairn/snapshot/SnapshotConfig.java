package io.cairn.snapshot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Immutable, validated snapshot settings of one partition. Build with {@link #builder()}; {@link
 * Builder#build()} checks every key and lists every violation in one {@link
 * IllegalArgumentException}.
 *
 * <table>
 *   <caption>Keys</caption>
 *   <tr><th>key</th><th>default</th><th>allowed</th></tr>
 *   <tr><td>snapshotInterval</td><td>5 minutes</td><td>[1 s, 1 day]; how often the {@link
 *       SnapshotDirector} takes a snapshot (if anything was processed since the last)</td></tr>
 *   <tr><td>retainedSnapshotCount</td><td>1</td><td>[1, 100]; newest snapshots kept besides the
 *       reserved ones and the newest one's base ({@link SnapshotStore})</td></tr>
 *   <tr><td>replicationChunkSizeBytes</td><td>1 MiB</td><td>[1 KiB, 16 MiB]; largest chunk sent
 *       to a follower</td></tr>
 * </table>
 */
public final class SnapshotConfig {

  public static final Duration DEFAULT_SNAPSHOT_INTERVAL = Duration.ofMinutes(5);
  public static final int DEFAULT_RETAINED_SNAPSHOT_COUNT = 1;
  public static final int DEFAULT_REPLICATION_CHUNK_SIZE_BYTES = 1024 * 1024;

  private static final Duration MIN_SNAPSHOT_INTERVAL = Duration.ofSeconds(1);
  private static final Duration MAX_SNAPSHOT_INTERVAL = Duration.ofDays(1);
  private static final int MAX_RETAINED_SNAPSHOT_COUNT = 100;
  private static final int MIN_CHUNK_SIZE_BYTES = 1024;
  private static final int MAX_CHUNK_SIZE_BYTES = 16 * 1024 * 1024;

  private final Duration snapshotInterval;
  private final int retainedSnapshotCount;
  private final int replicationChunkSizeBytes;

  private SnapshotConfig(Builder builder) {
    snapshotInterval = builder.snapshotInterval;
    retainedSnapshotCount = builder.retainedSnapshotCount;
    replicationChunkSizeBytes = builder.replicationChunkSizeBytes;
  }

  /** A builder with every default set. */
  public static Builder builder() {
    return new Builder();
  }

  /** The defaults. */
  public static SnapshotConfig defaults() {
    return builder().build();
  }

  /** A builder holding this config's values. */
  public Builder toBuilder() {
    return new Builder()
        .snapshotInterval(snapshotInterval)
        .retainedSnapshotCount(retainedSnapshotCount)
        .replicationChunkSizeBytes(replicationChunkSizeBytes);
  }

  /** How often the director takes a snapshot. */
  public Duration snapshotInterval() {
    return snapshotInterval;
  }

  /** How many of the newest snapshots retention keeps, besides the reserved ones. */
  public int retainedSnapshotCount() {
    return retainedSnapshotCount;
  }

  /** The largest chunk a snapshot is sent to a follower in. */
  public int replicationChunkSizeBytes() {
    return replicationChunkSizeBytes;
  }

  @Override
  public String toString() {
    return "SnapshotConfig{snapshotInterval="
        + snapshotInterval
        + ", retainedSnapshotCount="
        + retainedSnapshotCount
        + ", replicationChunkSizeBytes="
        + replicationChunkSizeBytes
        + '}';
  }

  /** Mutable builder; {@link #build()} validates. */
  public static final class Builder {
    private Duration snapshotInterval = DEFAULT_SNAPSHOT_INTERVAL;
    private int retainedSnapshotCount = DEFAULT_RETAINED_SNAPSHOT_COUNT;
    private int replicationChunkSizeBytes = DEFAULT_REPLICATION_CHUNK_SIZE_BYTES;

    private Builder() {}

    public Builder snapshotInterval(Duration value) {
      snapshotInterval = value;
      return this;
    }

    public Builder retainedSnapshotCount(int value) {
      retainedSnapshotCount = value;
      return this;
    }

    public Builder replicationChunkSizeBytes(int value) {
      replicationChunkSizeBytes = value;
      return this;
    }

    /**
     * @throws IllegalArgumentException listing every key out of range
     */
    public SnapshotConfig build() {
      List<String> violations = new ArrayList<>();
      if (snapshotInterval == null
          || snapshotInterval.compareTo(MIN_SNAPSHOT_INTERVAL) < 0
          || snapshotInterval.compareTo(MAX_SNAPSHOT_INTERVAL) > 0) {
        violations.add(
            "Expected snapshotInterval in [PT1S, P1D], but was "
                + snapshotInterval
                + " (snapshot config)");
      }
      if (retainedSnapshotCount < 1 || retainedSnapshotCount > MAX_RETAINED_SNAPSHOT_COUNT) {
        violations.add(
            "Expected retainedSnapshotCount in [1, "
                + MAX_RETAINED_SNAPSHOT_COUNT
                + "], but was "
                + retainedSnapshotCount
                + " (snapshot config)");
      }
      if (replicationChunkSizeBytes < MIN_CHUNK_SIZE_BYTES
          || replicationChunkSizeBytes > MAX_CHUNK_SIZE_BYTES) {
        violations.add(
            "Expected replicationChunkSizeBytes in ["
                + MIN_CHUNK_SIZE_BYTES
                + ", "
                + MAX_CHUNK_SIZE_BYTES
                + "], but was "
                + replicationChunkSizeBytes
                + " (snapshot config)");
      }
      if (!violations.isEmpty()) {
        throw new IllegalArgumentException(String.join("; ", violations));
      }
      return new SnapshotConfig(this);
    }
  }
}
