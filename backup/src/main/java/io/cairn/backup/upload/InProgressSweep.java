package io.cairn.backup.upload;

import io.cairn.backup.BackupManager;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.pacing.Backoff;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start-up sweep of a new leader's {@link BackupManager}: marks <em>every</em> IN_PROGRESS
 * backup of the partition FAILED ({@value BackupManager#LEADER_CHANGED}), whichever node wrote it
 * (camunda#41200), and finds the partition's completed backups. An attempt fails when the listing
 * or any mark fails; the manager then tries again after {@link #retryDelay} — until an attempt
 * succeeds or it stops leading — since nobody else would ever end an earlier leader's backup.
 * Thread-safe; the work runs on the store's threads.
 */
public final class InProgressSweep {

  /** The delay before the second attempt; it doubles with each failure up to the max. */
  public static final Duration RETRY_DELAY_MIN = Duration.ofMillis(100);

  /** The longest delay between two attempts. */
  public static final Duration RETRY_DELAY_MAX = Duration.ofSeconds(5);

  private static final Backoff RETRY = new Backoff(RETRY_DELAY_MIN, RETRY_DELAY_MAX);

  private static final Logger LOG = LoggerFactory.getLogger(InProgressSweep.class);

  private final int partitionId;
  private final BackupUploader uploader;

  /**
   * What a successful attempt found.
   *
   * @param completed the partition's COMPLETED backups
   * @param markedFailed how many IN_PROGRESS backups it marked FAILED
   */
  public record Result(List<BackupStatus> completed, int markedFailed) {
    public Result {
      completed = List.copyOf(completed);
    }
  }

  public InProgressSweep(int partitionId, BackupUploader uploader) {
    this.partitionId = partitionId;
    this.uploader = uploader;
  }

  /**
   * One attempt: lists the partition's backups (any node) and marks each IN_PROGRESS one FAILED.
   *
   * @return fails if the listing or any mark failed (each mark's failure is counted and logged)
   */
  public CompletableFuture<Result> attempt() {
    try {
      return uploader.partitionBackups().thenCompose(this::failInProgress);
    } catch (RuntimeException e) { // a store that throws instead of failing the future
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * The delay after {@code failedAttempts} failed attempts in a row: {@link #RETRY_DELAY_MIN}
   * doubled for each failure after the first, at most {@link #RETRY_DELAY_MAX}.
   *
   * @param failedAttempts at least 1
   */
  public static Duration retryDelay(int failedAttempts) {
    return RETRY.ceiling(Math.max(failedAttempts, 1));
  }

  private CompletableFuture<Result> failInProgress(List<BackupStatus> statuses) {
    List<CompletableFuture<?>> marks = new ArrayList<>();
    List<BackupStatus> completed = new ArrayList<>();
    for (BackupStatus status : statuses) {
      if (status.statusCode() == BackupStatusCode.COMPLETED) {
        completed.add(status);
      } else if (status.statusCode() == BackupStatusCode.IN_PROGRESS) {
        LOG.info(
            "Partition {}: marking backup {} FAILED ({}), it was IN_PROGRESS under an earlier"
                + " leader",
            partitionId,
            status.id(),
            BackupManager.LEADER_CHANGED);
        marks.add(uploader.markFailed(status.id(), BackupManager.LEADER_CHANGED));
      }
    }
    return CompletableFuture.allOf(marks.toArray(CompletableFuture[]::new))
        .thenApply(ignored -> new Result(completed, marks.size()));
  }
}
