package io.cairn.cli.admin;

import io.cairn.cli.CliException;
import io.cairn.cli.ExitCode;
import io.cairn.cli.Formats;
import io.cairn.cli.Pause;
import io.cairn.client.BackupInfo;
import io.cairn.client.BackupState;
import io.cairn.client.CairnClient;
import io.cairn.client.CairnClientException;
import io.cairn.client.ErrorCode;
import io.cairn.client.PartitionBackupInfo;
import io.cairn.scheduler.Clock;
import io.cairn.units.Durations;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Follows one backup until it is COMPLETED or FAILED: polls {@code GetBackup}, prints one progress
 * line per partition change ("backup 7 IN_PROGRESS 1/3 completed: p1 COMPLETED 3 files 1.2 MiB, p2
 * IN_PROGRESS, p3 pending"). NOT_FOUND, DOES_NOT_EXIST and INCOMPLETE count as "not started
 * everywhere yet" and are waited out; so is UNAVAILABLE (a leader change).
 */
public final class BackupProgress {
  private final CairnClient client;
  private final Clock clock;
  private final Duration pollInterval;
  private final Consumer<String> progress;

  public BackupProgress(
      CairnClient client, Clock clock, Duration pollInterval, Consumer<String> progress) {
    this.client = Objects.requireNonNull(client, "client");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
    this.progress = Objects.requireNonNull(progress, "progress");
  }

  /**
   * Waits for backup {@code backupId} of {@code partitionCount} partitions to end.
   *
   * @return the final status: COMPLETED or FAILED
   * @throws CliException (exit code 1) if it does not end within {@code timeout}
   */
  public BackupInfo await(long backupId, int partitionCount, Duration timeout) {
    long deadline = clock.nanos() + timeout.toNanos();
    String last = "";
    BackupInfo info = null;
    String lastError = "";
    while (true) {
      try {
        info = client.getBackup(backupId);
        lastError = "";
      } catch (CairnClientException e) {
        if (e.code() != ErrorCode.NOT_FOUND
            && e.code() != ErrorCode.UNAVAILABLE
            && e.code() != ErrorCode.DEADLINE_EXCEEDED) {
          throw e;
        }
        lastError = e.code() + ": " + e.getMessage();
      }
      String line =
          info == null ? "backup " + backupId + " pending" : describe(info, partitionCount);
      if (!line.equals(last)) {
        progress.accept(line);
        last = line;
      }
      if (info != null
          && (info.state() == BackupState.COMPLETED || info.state() == BackupState.FAILED)) {
        return info;
      }
      if (clock.nanos() - deadline >= 0) {
        throw new CliException(
            ExitCode.FAILED,
            "Expected backup "
                + backupId
                + " to be COMPLETED or FAILED within "
                + Durations.formatRounded(timeout)
                + ", but it is "
                + (info == null ? "not visible yet" : info.state().toString())
                + (lastError.isEmpty() ? "" : " (last error " + lastError + ")")
                + ". Check again with: cairn backup status "
                + backupId);
      }
      Pause.of(pollInterval);
    }
  }

  /** One progress line of {@code info}. */
  public static String describe(BackupInfo info, int partitionCount) {
    List<PartitionBackupInfo> partitions =
        info.partitions().stream()
            .sorted(Comparator.comparingInt(PartitionBackupInfo::partitionId))
            .toList();
    long completed = partitions.stream().filter(p -> p.state() == BackupState.COMPLETED).count();
    StringBuilder line =
        new StringBuilder("backup ")
            .append(info.backupId())
            .append(' ')
            .append(info.state())
            .append(' ')
            .append(completed)
            .append('/')
            .append(Math.max(partitionCount, partitions.size()))
            .append(" completed:");
    for (int p = 1; p <= Math.max(partitionCount, maxId(partitions)); p++) {
      int id = p;
      line.append(p == 1 ? " " : ", ").append('p').append(p).append(' ');
      partitions.stream()
          .filter(x -> x.partitionId() == id)
          .findFirst()
          .ifPresentOrElse(
              x -> {
                line.append(x.state());
                if (x.state() == BackupState.COMPLETED) {
                  line.append(' ')
                      .append(x.fileCount())
                      .append(" files ")
                      .append(Formats.bytes(x.sizeBytes()));
                } else if (x.state() == BackupState.FAILED) {
                  line.append(" (").append(x.failureReason()).append(')');
                }
              },
              () -> line.append("pending"));
    }
    return line.toString();
  }

  private static int maxId(List<PartitionBackupInfo> partitions) {
    return partitions.stream().mapToInt(PartitionBackupInfo::partitionId).max().orElse(0);
  }
}
