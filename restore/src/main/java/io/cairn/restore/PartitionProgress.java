package io.cairn.restore;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One partition's progress: sent at the start and end of every phase and every few MiB while
 * downloading ({@link RestoreConfig#progressIntervalBytes()}).
 *
 * @param partitionId the partition
 * @param phase where it stands
 * @param bytesDone bytes downloaded and checked so far (uncompressed)
 * @param bytesTotal the partition backup's size
 * @param filesDone files downloaded and checked so far
 * @param fileCount the partition backup's file count
 * @param bytesPerSecond the download rate since the partition started, 0 before any byte
 * @param eta the expected time until the download ends at that rate; empty until a rate is known,
 *     zero once every byte is there
 * @param elapsed time since the partition started
 */
public record PartitionProgress(
    int partitionId,
    RestorePhase phase,
    long bytesDone,
    long bytesTotal,
    int filesDone,
    int fileCount,
    long bytesPerSecond,
    Optional<Duration> eta,
    Duration elapsed) {

  public PartitionProgress {
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(eta, "eta");
    Objects.requireNonNull(elapsed, "elapsed");
  }

  /** Done bytes as a fraction of the total, in [0, 1]; 1 for an empty backup. */
  public double fraction() {
    return bytesTotal == 0 ? 1.0 : Math.min(1.0, (double) bytesDone / bytesTotal);
  }

  /**
   * One line for a terminal: {@code partition 2 DOWNLOADING 45% 12.0 MiB/26.7 MiB 8.1 MiB/s ETA
   * 2s}.
   */
  public String describe() {
    return "partition "
        + partitionId
        + " "
        + phase
        + " "
        + Math.round(fraction() * 100)
        + "% "
        + mib(bytesDone)
        + "/"
        + mib(bytesTotal)
        + " "
        + mib(bytesPerSecond)
        + "/s"
        + eta.map(d -> " ETA " + Math.max(0, d.toSeconds()) + "s").orElse("");
  }

  private static String mib(long bytes) {
    return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
  }
}
