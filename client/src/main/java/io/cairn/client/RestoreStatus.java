package io.cairn.client;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * How a restore through the API stands on every broker and partition.
 *
 * @param state WAITING, IN_PROGRESS, COMPLETED, FAILED or NOT_IN_RESTORE_MODE
 * @param selection what was asked ({@code backup 5}, ...), empty before a request
 * @param backupId the backup restored, 0 before it is resolved
 * @param restorePointId the restore point the archived log is continued to, 0 for none
 * @param brokers every configured broker
 * @param partitions every partition replica a broker restores, by broker
 */
public record RestoreStatus(
    String state,
    String selection,
    long backupId,
    long restorePointId,
    List<Broker> brokers,
    List<Partition> partitions) {

  public RestoreStatus {
    brokers = List.copyOf(brokers);
    partitions = List.copyOf(partitions);
  }

  /** Whether the restore ended: COMPLETED or FAILED. */
  public boolean isDone() {
    return state.equals("COMPLETED") || state.equals("FAILED");
  }

  /**
   * @param phase WAITING, RESTORING, CHECKING, COMPLETED, FAILED, PROCESSING or UNREACHABLE
   * @param detail why it failed or cannot restore; empty otherwise
   */
  public record Broker(int nodeId, String phase, String detail) {}

  /**
   * @param phase DOWNLOADING, INSTALLING, DONE, FAILED while restoring; CHECKING, VERIFIED or
   *     FAILED once the partition runs
   * @param eta until the download ends at the current rate; null while unknown
   */
  public record Partition(
      int partitionId,
      int nodeId,
      String phase,
      long bytesDone,
      long bytesTotal,
      long bytesPerSecond,
      Duration eta,
      String detail) {

    /** {@link #eta()}, empty while unknown. */
    public Optional<Duration> etaIfKnown() {
      return Optional.ofNullable(eta);
    }
  }
}
