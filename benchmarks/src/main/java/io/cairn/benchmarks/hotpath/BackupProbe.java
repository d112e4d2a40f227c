package io.cairn.benchmarks.hotpath;

import io.cairn.client.BackupInfo;
import io.cairn.client.BackupState;
import io.cairn.client.BackupTaken;
import io.cairn.client.CairnClient;
import io.cairn.client.CairnClientException;
import io.cairn.client.PartitionCheckpoint;
import io.cairn.scheduler.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Backups taken through the admin API, one after the other, timed:
 *
 * <ul>
 *   <li><b>checkpoint</b>: from sending {@code TakeBackup} until every partition has created the
 *       checkpoint — the answer lists each partition's result; when it does not name every
 *       partition as created, backup status is polled until every partition has the backup;
 *   <li><b>completed</b>: until the backup is COMPLETED (or FAILED);
 *   <li><b>status / list / topology</b>: {@code getBackup}, {@code listBackups} (first page) and
 *       {@code topology} calls made while the backup runs, every {@value #POLL_MILLIS} ms.
 * </ul>
 *
 * Backup ids are the wall clock in ms (higher than every earlier one, as ids must be).
 */
final class BackupProbe {

  static final long POLL_MILLIS = 20;
  private static final Duration COMPLETION_TIMEOUT = Duration.ofMinutes(10);
  private static final int LIST_PAGE_SIZE = 10;

  private final CairnClient client;
  private final Clock clock;
  private final int partitions;
  private long lastBackupId;

  BackupProbe(CairnClient client, Clock clock, int partitions) {
    this.client = client;
    this.clock = clock;
    this.partitions = partitions;
  }

  /** One backup; {@code error} is empty when it completed. */
  record Sample(
      long backupId,
      long startNanos,
      double checkpointMs,
      double completedMs,
      long endNanos,
      String state,
      String error) {}

  /** Several backups and the latencies of the calls made while they ran. */
  record Series(
      List<Sample> samples,
      LatencyRecorder checkpoint,
      LatencyRecorder completed,
      Map<String, LatencyRecorder> calls) {}

  /** Takes {@code count} backups one after the other. */
  Series takeBackups(int count) throws InterruptedException {
    LatencyRecorder checkpoint = new LatencyRecorder();
    LatencyRecorder completed = new LatencyRecorder();
    Map<String, LatencyRecorder> calls = callRecorders();
    List<Sample> samples = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Sample sample = takeBackup(calls);
      samples.add(sample);
      if (sample.error().isEmpty()) {
        checkpoint.acknowledged((long) (sample.checkpointMs() * 1e6));
        completed.acknowledged((long) (sample.completedMs() * 1e6));
      } else {
        checkpoint.failed(new IllegalStateException(sample.error()));
      }
    }
    return new Series(samples, checkpoint, completed, calls);
  }

  /** A recorder for each call timed while a backup runs: status, list, topology. */
  static Map<String, LatencyRecorder> callRecorders() {
    Map<String, LatencyRecorder> calls = new LinkedHashMap<>();
    calls.put("status", new LatencyRecorder());
    calls.put("list", new LatencyRecorder());
    calls.put("topology", new LatencyRecorder());
    return calls;
  }

  /**
   * Takes one backup and follows it until its state is final; the calls made meanwhile are recorded
   * in {@code calls} (from {@link #callRecorders()}).
   */
  Sample takeBackup(Map<String, LatencyRecorder> calls) throws InterruptedException {
    long backupId = Math.max(clock.millis(), lastBackupId + 1);
    lastBackupId = backupId;
    long start = clock.nanos();
    BackupTaken taken;
    try {
      taken = client.takeBackup(backupId);
    } catch (CairnClientException e) {
      return new Sample(
          backupId,
          start,
          Double.NaN,
          Double.NaN,
          clock.nanos(),
          "NOT_TAKEN",
          e.code() + ": " + e.getMessage());
    }
    long checkpointed = clock.nanos();
    long deadline = start + COMPLETION_TIMEOUT.toNanos();
    BackupInfo info = null;
    if (!everyPartitionCreated(taken)) {
      info = await(backupId, calls, deadline, i -> i.partitions().size() >= partitions);
      checkpointed = clock.nanos();
    }
    if (info == null || !ended(info)) {
      info = await(backupId, calls, deadline, BackupProbe::ended);
    }
    long end = clock.nanos();
    String error =
        info.state() == BackupState.COMPLETED ? "" : info.state() + ": " + info.failureReason();
    return new Sample(
        backupId,
        start,
        (checkpointed - start) / 1e6,
        (end - start) / 1e6,
        end,
        info.state().name(),
        error);
  }

  /**
   * COMPLETED or FAILED. INCOMPLETE is not an end here: right after the checkpoint a partition may
   * not have started its backup yet (as {@code cairn backup take --wait} waits it out).
   */
  private static boolean ended(BackupInfo info) {
    return info.state() == BackupState.COMPLETED || info.state() == BackupState.FAILED;
  }

  private boolean everyPartitionCreated(BackupTaken taken) {
    return taken.partitions().size() >= partitions
        && taken.partitions().stream().allMatch(PartitionCheckpoint::created);
  }

  private BackupInfo await(
      long backupId, Map<String, LatencyRecorder> calls, long deadline, Predicate<BackupInfo> done)
      throws InterruptedException {
    while (true) {
      BackupInfo info = timed(calls.get("status"), () -> client.getBackup(backupId));
      timed(calls.get("list"), () -> client.listBackups(LIST_PAGE_SIZE, ""));
      timed(calls.get("topology"), client::topology);
      if (info != null && done.test(info)) {
        return info;
      }
      if (clock.nanos() - deadline > 0) {
        throw new IllegalStateException(
            "Expected backup "
                + backupId
                + " to end within "
                + COMPLETION_TIMEOUT
                + ", but it is "
                + (info == null ? "unknown" : info.state()));
      }
      Pacing.sleepUntil(clock, clock.nanos() + POLL_MILLIS * 1_000_000);
    }
  }

  /** Runs and times one call; null when it failed (counted). */
  private <T> T timed(LatencyRecorder recorder, Supplier<T> call) {
    long start = clock.nanos();
    try {
      T result = call.get();
      recorder.acknowledged(clock.nanos() - start);
      return result;
    } catch (CairnClientException e) {
      recorder.failed(e);
      return null;
    }
  }
}
