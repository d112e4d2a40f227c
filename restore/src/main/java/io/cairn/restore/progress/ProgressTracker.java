package io.cairn.restore.progress;

import io.cairn.backupapi.RestoreProgress;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.restore.PartitionProgress;
import io.cairn.restore.RestoreListener;
import io.cairn.restore.RestorePhase;
import io.cairn.scheduler.Clock;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition's progress: turns the store's per-file events into {@link PartitionProgress} with a
 * rate (bytes since the partition started over the time since then) and an ETA at that rate. A
 * store may report from several threads (the filesystem store restores several files of a partition
 * at once, and sends their events one at a time); the state is guarded by this object's monitor.
 */
public final class ProgressTracker implements RestoreProgressListener {

  private static final Logger LOG = LoggerFactory.getLogger(ProgressTracker.class);

  private final int partitionId;
  private final long bytesTotal;
  private final int fileCount;
  private final long intervalBytes;
  private final Clock clock;
  private final RestoreListener listener;
  private final long startNanos;

  private long bytesDone;
  private int filesDone;
  private long reportedBytes = -1;
  private RestorePhase phase = RestorePhase.DOWNLOADING;

  /**
   * @param intervalBytes the least bytes between two download events (phase changes and the end of
   *     the download are always reported)
   */
  public ProgressTracker(
      int partitionId,
      long bytesTotal,
      int fileCount,
      long intervalBytes,
      Clock clock,
      RestoreListener listener) {
    this.partitionId = partitionId;
    this.bytesTotal = bytesTotal;
    this.fileCount = fileCount;
    this.intervalBytes = intervalBytes;
    this.clock = clock;
    this.listener = listener;
    this.startNanos = clock.nanos();
  }

  /** The store's event: the download moved on. */
  @Override
  public synchronized void onProgress(RestoreProgress progress) {
    bytesDone = progress.totalBytesDone();
    filesDone = progress.filesDone();
    boolean finished = bytesDone >= bytesTotal && filesDone >= fileCount;
    if (finished || reportedBytes < 0 || bytesDone - reportedBytes >= intervalBytes) {
      report();
    }
  }

  /** The partition entered {@code next}; always reported. */
  public synchronized void phase(RestorePhase next) {
    phase = next;
    if (next == RestorePhase.INSTALLING
        || next == RestorePhase.REBUILDING
        || next == RestorePhase.DONE) {
      // every byte was checked once the download ended
      bytesDone = bytesTotal;
      filesDone = fileCount;
    }
    report();
  }

  /** The current progress, without telling anyone. */
  public synchronized PartitionProgress snapshot() {
    Duration elapsed = Duration.ofNanos(Math.max(0, clock.nanos() - startNanos));
    long nanos = elapsed.toNanos();
    long rate = nanos <= 0 ? 0 : (long) (bytesDone * 1e9 / nanos);
    Optional<Duration> eta;
    if (bytesDone >= bytesTotal) {
      eta = Optional.of(Duration.ZERO);
    } else if (rate <= 0) {
      eta = Optional.empty();
    } else {
      eta = Optional.of(Duration.ofNanos((long) ((bytesTotal - bytesDone) * 1e9 / rate)));
    }
    return new PartitionProgress(
        partitionId, phase, bytesDone, bytesTotal, filesDone, fileCount, rate, eta, elapsed);
  }

  private void report() {
    reportedBytes = bytesDone;
    PartitionProgress progress = snapshot();
    try {
      listener.onProgress(progress);
    } catch (RuntimeException e) {
      LOG.warn("A restore listener failed on {}; ignored", progress, e);
    }
  }
}
