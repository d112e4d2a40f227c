package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;
import java.util.List;
import java.util.Objects;

/**
 * How a restore through the API stands on one broker ({@link ApiDescriptor#TYPE_RESTORE}).
 *
 * @param nodeId the broker
 * @param phase where the broker stands
 * @param selection what was asked ({@code backup 5}, ...), empty before a request
 * @param backupId the backup restored (resolved), 0 before it is known
 * @param restorePointId the restore point the archived log is continued to, 0 for none
 * @param detail why it failed, or why this broker cannot restore; empty otherwise
 * @param startedMillis when the restore started (epoch ms), 0 before
 * @param finishedMillis when the data directory was restored (epoch ms), 0 before
 * @param partitions the partitions this broker hosts, in partition id order, once a restore started
 */
public record NodeRestoreState(
    int nodeId,
    Phase phase,
    String selection,
    long backupId,
    long restorePointId,
    String detail,
    long startedMillis,
    long finishedMillis,
    List<PartitionRestoreState> partitions) {

  /** The most partitions one answer carries. */
  public static final int PARTITIONS_MAX = ApiDescriptor.PARTITION_ID_MAX;

  /** Where a broker stands, with its stable wire code. */
  public enum Phase {
    /** Started empty in restore mode; waits for a restore request. */
    WAITING(0),
    /** Downloading and installing its partitions. */
    RESTORING(1),
    /** Restored; its partitions run and wait for their digest checks. */
    CHECKING(2),
    /** Every partition it hosts passed the digest check at the restored checkpoint. */
    COMPLETED(3),
    /** The restore or a digest check failed; {@code detail} says why. */
    FAILED(4),
    /** Not in restore mode: it holds data and processes, so it cannot be restored into. */
    PROCESSING(5);

    private final int code;

    Phase(int code) {
      this.code = code;
    }

    public int code() {
      return code;
    }

    static Phase fromCode(int code) {
      for (Phase phase : values()) {
        if (phase.code == code) {
          return phase;
        }
      }
      throw new ProtocolException(
          "Expected a restore phase in [0, " + (values().length - 1) + "], but was " + code);
    }
  }

  /**
   * One partition on that broker.
   *
   * @param partitionId the partition
   * @param phase DOWNLOADING, INSTALLING, DONE, FAILED while restoring; CHECKING, VERIFIED or
   *     FAILED once the partition runs
   * @param bytesDone bytes downloaded and checked
   * @param bytesTotal the partition backup's size
   * @param bytesPerSecond the download rate
   * @param etaMillis the expected time until the download ends, -1 while unknown
   * @param detail why it failed, empty otherwise
   */
  public record PartitionRestoreState(
      int partitionId,
      String phase,
      long bytesDone,
      long bytesTotal,
      long bytesPerSecond,
      long etaMillis,
      String detail) {
    public PartitionRestoreState {
      Objects.requireNonNull(phase, "phase");
      Objects.requireNonNull(detail, "detail");
      if (bytesDone < 0 || bytesTotal < 0 || bytesPerSecond < 0 || etaMillis < -1) {
        throw new IllegalArgumentException(
            "Expected bytes, rate >= 0 and an ETA >= -1, but partition "
                + partitionId
                + " reports "
                + bytesDone
                + "/"
                + bytesTotal
                + " bytes, "
                + bytesPerSecond
                + " B/s, ETA "
                + etaMillis
                + " ms");
      }
    }
  }

  public NodeRestoreState {
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(selection, "selection");
    Objects.requireNonNull(detail, "detail");
    partitions = List.copyOf(partitions);
    if (nodeId < 0) {
      throw new IllegalArgumentException("Expected nodeId >= 0, but was " + nodeId);
    }
    if (backupId < 0 || restorePointId < 0) {
      throw new IllegalArgumentException(
          "Expected backup and restore point ids >= 0, but were "
              + backupId
              + " and "
              + restorePointId);
    }
  }
}
