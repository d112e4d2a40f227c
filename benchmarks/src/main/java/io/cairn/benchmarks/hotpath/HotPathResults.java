package io.cairn.benchmarks.hotpath;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything one run measured, for the goals and the report.
 *
 * @param machine the machine's facts, load average at start and end
 * @param cairn the cluster's shape and the accounts per partition
 * @param etcd etcd's version and shape, or why it was skipped
 * @param closed closed-loop steps, both sides, in the order run
 * @param open open-loop deposits by percent of {@code maxDepositsPerSecond}
 * @param backupLoad the deposits the backups under load ran beside; null when not run
 * @param backups backup series by name ({@code idle}, {@code under load})
 * @param hotBackup the hot-backup step's facts; empty when not run
 * @param hotBackupSteps its deposits without and with a backup
 * @param hotBackupRatio throughput during the backup ÷ without; empty when not run or failed
 * @param maxDepositsPerSecond the highest closed-loop deposit rate
 */
record HotPathResults(
    HotPathSettings settings,
    Map<String, Object> machine,
    Map<String, Object> cairn,
    Map<String, Object> etcd,
    List<Measurement> closed,
    Map<Integer, Measurement> open,
    Measurement backupLoad,
    Map<String, BackupProbe.Series> backups,
    Map<String, Object> hotBackup,
    List<Measurement> hotBackupSteps,
    Optional<Double> hotBackupRatio,
    double maxDepositsPerSecond,
    String startedAt,
    String finishedAt) {

  /** Every step in report order: closed loop, open loop, backups' load, hot backup. */
  List<Measurement> steps() {
    List<Measurement> steps = new ArrayList<>(closed);
    steps.addAll(open.values());
    if (backupLoad != null) {
      steps.add(backupLoad);
    }
    steps.addAll(hotBackupSteps);
    return steps;
  }

  /** The goals' inputs: the backups under load give the checkpoint and call latencies. */
  HotPathGoals.Inputs goalInputs() {
    Map<String, Double> callP99 = new LinkedHashMap<>();
    Optional<Double> checkpointP99 = Optional.empty();
    BackupProbe.Series underLoad = backups.get(HotPathBenchmark.UNDER_LOAD);
    if (underLoad != null) {
      if (underLoad.checkpoint().acknowledgedCount() > 0) {
        checkpointP99 = Optional.of(underLoad.checkpoint().latency().p99Ms());
      }
      underLoad
          .calls()
          .forEach(
              (name, recorder) -> {
                if (recorder.acknowledgedCount() > 0) {
                  callP99.put(name, recorder.latency().p99Ms());
                }
              });
    }
    return new HotPathGoals.Inputs(
        closed, open, maxDepositsPerSecond, hotBackupRatio, checkpointP99, callP99);
  }
}
