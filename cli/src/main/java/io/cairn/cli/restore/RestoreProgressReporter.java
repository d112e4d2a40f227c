package io.cairn.cli.restore;

import io.cairn.cli.Formats;
import io.cairn.cli.output.Printer;
import io.cairn.restore.PartitionPlan;
import io.cairn.restore.PartitionProgress;
import io.cairn.restore.RestoreListener;
import io.cairn.restore.RestorePhase;
import io.cairn.restore.RestorePlan;
import io.cairn.scheduler.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Shows a restore's or verification's progress on stderr: a line per partition when its phase
 * changes and at most once a second while it downloads ({@code restore: node 0 partition 2
 * DOWNLOADING 45% 12.0 MiB/26.7 MiB 8.1 MiB/s ETA 2s}); with {@code --output json}, one compact
 * JSON object per line instead ({@code {"event":"progress",...}}, see {@link #progressEvent}).
 * Thread-safe: the library calls it from several partitions' threads.
 */
public final class RestoreProgressReporter implements RestoreListener {
  private static final Duration LINE_INTERVAL = Duration.ofSeconds(1);

  private final Printer printer;
  private final Clock clock;
  private final String operation;
  private final Map<Integer, RestorePhase> phases = new HashMap<>();
  private final Map<Integer, Long> lastLineNanos = new HashMap<>();
  private Optional<Integer> nodeId = Optional.empty();

  /**
   * @param operation {@code restore} or {@code verify}: the prefix of each line and the events'
   *     {@code operation}
   */
  public RestoreProgressReporter(Printer printer, Clock clock, String operation) {
    this.printer = printer;
    this.clock = clock;
    this.operation = operation;
  }

  @Override
  public synchronized void onPlan(RestorePlan plan) {
    nodeId = plan.nodeId();
    phases.clear();
    lastLineNanos.clear();
    if (printer.isJson()) {
      printer.event(planEvent(operation, plan));
      return;
    }
    printer.progress(
        operation
            + ": backup "
            + plan.backupId()
            + plan.nodeId().map(id -> " for node " + id + " into " + plan.directory()).orElse("")
            + ": partitions "
            + plan.partitions().stream()
                .map(p -> p.partitionId() + " (from node " + p.source().nodeId() + ")")
                .collect(Collectors.joining(", "))
            + ", "
            + plan.totalFiles()
            + " files, "
            + Formats.bytes(plan.totalBytes()));
  }

  @Override
  public synchronized void onProgress(PartitionProgress progress) {
    long now = clock.nanos();
    RestorePhase previous = phases.put(progress.partitionId(), progress.phase());
    Long last = lastLineNanos.get(progress.partitionId());
    if (previous == progress.phase() && last != null && now - last < LINE_INTERVAL.toNanos()) {
      return;
    }
    lastLineNanos.put(progress.partitionId(), now);
    if (printer.isJson()) {
      printer.event(progressEvent(operation, nodeId, progress));
    } else {
      printer.progress(
          operation + ": " + nodeId.map(id -> "node " + id + " ").orElse("") + progress.describe());
    }
  }

  /** {@code {"event":"plan", "operation", "backupId", "nodeId", "directory", ...}}. */
  static Map<String, Object> planEvent(String operation, RestorePlan plan) {
    Map<String, Object> event = new LinkedHashMap<>();
    event.put("event", "plan");
    event.put("operation", operation);
    event.put("backupId", plan.backupId());
    event.put("nodeId", plan.nodeId().orElse(null));
    event.put("directory", plan.directory().toString());
    event.put("totalFiles", plan.totalFiles());
    event.put("totalBytes", plan.totalBytes());
    List<Map<String, Object>> partitions =
        plan.partitions().stream().map(RestoreProgressReporter::partition).toList();
    event.put("partitions", partitions);
    return event;
  }

  private static Map<String, Object> partition(PartitionPlan plan) {
    Map<String, Object> partition = new LinkedHashMap<>();
    partition.put("partitionId", plan.partitionId());
    partition.put("sourceNodeId", plan.source().nodeId());
    partition.put("checkpointPosition", plan.descriptor().checkpointPosition());
    partition.put("fileCount", plan.fileCount());
    partition.put("sizeBytes", plan.sizeBytes());
    return partition;
  }

  /**
   * {@code {"event":"progress", "operation", "nodeId", "partitionId", "phase", "bytesDone",
   * "bytesTotal", "filesDone", "fileCount", "bytesPerSecond", "etaMs", "elapsedMs"}}; {@code etaMs}
   * is null until a rate is known.
   */
  static Map<String, Object> progressEvent(
      String operation, Optional<Integer> nodeId, PartitionProgress progress) {
    Map<String, Object> event = new LinkedHashMap<>();
    event.put("event", "progress");
    event.put("operation", operation);
    event.put("nodeId", nodeId.orElse(null));
    event.put("partitionId", progress.partitionId());
    event.put("phase", progress.phase());
    event.put("bytesDone", progress.bytesDone());
    event.put("bytesTotal", progress.bytesTotal());
    event.put("filesDone", progress.filesDone());
    event.put("fileCount", progress.fileCount());
    event.put("bytesPerSecond", progress.bytesPerSecond());
    event.put("etaMs", progress.eta().map(Duration::toMillis).orElse(null));
    event.put("elapsedMs", progress.elapsed().toMillis());
    return event;
  }
}
