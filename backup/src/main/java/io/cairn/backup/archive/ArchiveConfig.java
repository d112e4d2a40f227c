package io.cairn.backup.archive;

import java.time.Duration;
import java.util.Objects;

/**
 * How a partition's log is archived (DESIGN.md §9, "Log archive").
 *
 * @param interval the longest a committed record waits before the leader archives it (a chunk is
 *     written at once when a full one is ready)
 * @param maxChunkBytes the most log bytes in one chunk
 * @param maxUnarchivedBytes the most journal bytes compaction is held for while they are not
 *     archived (the store is down or slow); beyond it compaction goes on, the archive gets a gap,
 *     and the partition reports it
 * @param followerPollInterval how often a member that does not lead reads the archive's tail, to
 *     release what is archived for compaction
 */
public record ArchiveConfig(
    Duration interval, int maxChunkBytes, long maxUnarchivedBytes, Duration followerPollInterval) {

  public static final Duration INTERVAL_DEFAULT = Duration.ofSeconds(1);
  public static final int MAX_CHUNK_BYTES_DEFAULT = 4 * 1024 * 1024;
  public static final long MAX_UNARCHIVED_BYTES_DEFAULT = 2L * 1024 * 1024 * 1024;

  public ArchiveConfig {
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(followerPollInterval, "followerPollInterval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("Expected a positive interval, but was " + interval);
    }
    if (maxChunkBytes < 1024) {
      throw new IllegalArgumentException(
          "Expected maxChunkBytes >= 1024, but was " + maxChunkBytes);
    }
    if (maxUnarchivedBytes < maxChunkBytes) {
      throw new IllegalArgumentException(
          "Expected maxUnarchivedBytes >= maxChunkBytes ("
              + maxChunkBytes
              + "), but was "
              + maxUnarchivedBytes);
    }
  }

  /** The settings for {@code interval}, the other values their defaults. */
  public static ArchiveConfig of(Duration interval, long maxUnarchivedBytes) {
    return new ArchiveConfig(
        interval,
        MAX_CHUNK_BYTES_DEFAULT,
        maxUnarchivedBytes,
        interval.compareTo(Duration.ofSeconds(10)) > 0 ? interval : Duration.ofSeconds(10));
  }
}
