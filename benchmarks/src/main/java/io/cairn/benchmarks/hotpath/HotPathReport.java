package io.cairn.benchmarks.hotpath;

import io.cairn.cli.output.Printer;
import io.cairn.cli.output.Table;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmark's output: plain-text tables (steps, backups, goals) and the JSON document written
 * to {@code <out>/<yyyy-MM-dd>-hot-path.json}.
 */
final class HotPathReport {

  /** CPU columns of the steps table; a side shows only its own groups and the client. */
  static final List<String> CPU_GROUPS = List.of("brokers", "gateway", "etcd", "client");

  private HotPathReport() {}

  /** Every table: steps, backups, the maximum, the hot backup, the goals. */
  static void print(HotPathResults results, List<HotPathGoals.Goal> goals, PrintStream out) {
    out.println();
    out.println(
        "Steps (closed loop cN: N calls in flight, latency from sending; open loop: a"
            + " fixed rate, latency from the due time). CPU ms per acknowledged call:");
    printSteps(results.steps(), out);
    out.println();
    out.println(
        "Backups (checkpoint: TakeBackup until every partition created it; completed:"
            + " until COMPLETED; calls made while each backup ran):");
    printBackups(results.backups(), out);
    out.println();
    out.printf(Locale.ROOT, "Max deposits/s (closed loop): %.0f%n", results.maxDepositsPerSecond());
    if (!results.hotBackup().isEmpty()) {
      out.println("Hot backup: " + results.hotBackup());
    }
    out.println();
    out.println("Goals (ratios within this run):");
    printGoals(goals, out);
  }

  /** The run as one JSON document. */
  static Map<String, Object> document(HotPathResults results, List<HotPathGoals.Goal> goals) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("benchmark", "hot-path");
    doc.put("startedAt", results.startedAt());
    doc.put("finishedAt", results.finishedAt());
    doc.put("machine", results.machine());
    doc.put("settings", results.settings().document());
    doc.put("cairn", results.cairn());
    doc.put("etcd", results.etcd());
    doc.put("maxDepositsPerSecond", json(results.maxDepositsPerSecond()));
    doc.put("steps", results.steps().stream().map(HotPathReport::document).toList());
    Map<String, Object> backups = new LinkedHashMap<>();
    results.backups().forEach((name, series) -> backups.put(name, document(series)));
    doc.put("backups", backups);
    doc.put("hotBackup", results.hotBackup().isEmpty() ? null : results.hotBackup());
    doc.put("goals", goals.stream().map(HotPathReport::document).toList());
    return doc;
  }

  static void printSteps(List<Measurement> steps, PrintStream out) {
    Table table =
        Table.of(
            "step",
            "offered/s",
            "ops/s",
            "p50 ms",
            "p99 ms",
            "max ms",
            "errors",
            "cpu ms/op brokers",
            "gateway",
            "etcd",
            "client");
    for (Measurement m : steps) {
      Object[] row = new Object[11];
      row[0] = m.label();
      row[1] = m.mode().equals("open") ? number(m.offeredPerSecond(), 0) : "-";
      row[2] = number(m.opsPerSecond(), 0);
      row[3] = number(m.latency().p50Ms(), 2);
      row[4] = number(m.latency().p99Ms(), 2);
      row[5] = number(m.latency().maxMs(), 2);
      row[6] = m.errors().isEmpty() ? "0" : errors(m.errors());
      for (int g = 0; g < CPU_GROUPS.size(); g++) {
        String group = CPU_GROUPS.get(g);
        boolean own =
            group.equals("client")
                || (m.side().equals("etcd")
                    ? HotPathGoals.ETCD_SERVER_GROUPS.contains(group)
                    : HotPathGoals.CAIRN_SERVER_GROUPS.contains(group));
        row[7 + g] = own ? number(m.cpuMsPerOp(group), 3) : "-";
      }
      table.row(row);
    }
    table.print(out);
  }

  static void printBackups(Map<String, BackupProbe.Series> series, PrintStream out) {
    Table table =
        Table.of(
            "backups",
            "taken",
            "failed",
            "checkpoint p50 ms",
            "p99 ms",
            "completed p50 ms",
            "p99 ms",
            "status p99 ms",
            "list p99 ms",
            "topology p99 ms",
            "calls");
    series.forEach(
        (name, s) -> {
          long calls =
              s.calls().values().stream().mapToLong(LatencyRecorder::acknowledgedCount).sum();
          table.row(
              name,
              s.samples().size(),
              s.samples().stream().filter(x -> !x.error().isEmpty()).count(),
              number(s.checkpoint().latency().p50Ms(), 2),
              number(s.checkpoint().latency().p99Ms(), 2),
              number(s.completed().latency().p50Ms(), 2),
              number(s.completed().latency().p99Ms(), 2),
              number(s.calls().get("status").latency().p99Ms(), 2),
              number(s.calls().get("list").latency().p99Ms(), 2),
              number(s.calls().get("topology").latency().p99Ms(), 2),
              calls);
        });
    table.print(out);
  }

  static void printGoals(List<HotPathGoals.Goal> goals, PrintStream out) {
    Table table = Table.of("goal", "value", "target", "result", "detail");
    for (HotPathGoals.Goal goal : goals) {
      table.row(
          goal.name(),
          goal.shown(),
          goal.goal(),
          goal.verdict() == HotPathGoals.Verdict.NOT_MEASURED ? "n/a" : goal.verdict().name(),
          goal.detail());
    }
    table.print(out);
  }

  /** One step as JSON. */
  static Map<String, Object> document(Measurement m) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("step", m.step());
    doc.put("side", m.side());
    doc.put("workload", m.workload());
    doc.put("mode", m.mode());
    if (m.mode().equals("closed")) {
      doc.put("concurrency", m.concurrency());
    } else {
      doc.put("offeredPerSecond", json(m.offeredPerSecond()));
    }
    doc.put("seconds", json(m.seconds()));
    doc.put("acknowledged", m.acknowledged());
    doc.put("opsPerSecond", json(m.opsPerSecond()));
    Map<String, Object> latency = new LinkedHashMap<>();
    latency.put("p50", json(m.latency().p50Ms()));
    latency.put("p99", json(m.latency().p99Ms()));
    latency.put("max", json(m.latency().maxMs()));
    doc.put("latencyMs", latency);
    doc.put("errors", m.errors());
    Map<String, Object> cpu = new LinkedHashMap<>();
    Map<String, Object> perOp = new LinkedHashMap<>();
    m.cpuSeconds()
        .forEach(
            (group, seconds) -> {
              cpu.put(group, json(seconds));
              perOp.put(group, json(m.cpuMsPerOp(group)));
            });
    doc.put("cpuSeconds", cpu);
    doc.put("cpuMsPerOp", perOp);
    return doc;
  }

  /** A series of backups as JSON. */
  static Map<String, Object> document(BackupProbe.Series s) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("checkpointMs", latency(s.checkpoint()));
    doc.put("completedMs", latency(s.completed()));
    Map<String, Object> calls = new LinkedHashMap<>();
    s.calls().forEach((name, recorder) -> calls.put(name, latency(recorder)));
    doc.put("callsDuringBackupMs", calls);
    doc.put(
        "backups",
        s.samples().stream()
            .map(
                sample -> {
                  Map<String, Object> b = new LinkedHashMap<>();
                  b.put("backupId", sample.backupId());
                  b.put("state", sample.state());
                  b.put("checkpointMs", json(sample.checkpointMs()));
                  b.put("completedMs", json(sample.completedMs()));
                  if (!sample.error().isEmpty()) {
                    b.put("error", sample.error());
                  }
                  return b;
                })
            .toList());
    return doc;
  }

  static Map<String, Object> document(HotPathGoals.Goal goal) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("goal", goal.name());
    doc.put("value", json(goal.value()));
    doc.put("target", goal.goal());
    doc.put("result", goal.verdict().name());
    doc.put("detail", goal.detail());
    return doc;
  }

  /** Writes {@code document} as indented JSON to {@code file} (directories created). */
  static void write(Path file, Map<String, Object> document) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, Printer.toJson(document) + "\n", StandardCharsets.UTF_8);
  }

  private static Map<String, Object> latency(LatencyRecorder recorder) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("count", recorder.acknowledgedCount());
    doc.put("p50", json(recorder.latency().p50Ms()));
    doc.put("p99", json(recorder.latency().p99Ms()));
    doc.put("max", json(recorder.latency().maxMs()));
    doc.put("errors", recorder.errors());
    return doc;
  }

  private static String errors(Map<String, Long> errors) {
    StringBuilder text = new StringBuilder();
    errors.forEach(
        (code, count) ->
            text.append(text.length() == 0 ? "" : " ").append(code).append('=').append(count));
    return text.toString();
  }

  /** A right-aligned table cell; "-" for NaN. */
  private static Object number(double value, int decimals) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return "-";
    }
    return BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP);
  }

  /** A JSON number, null for NaN (which JSON cannot hold). */
  static Double json(double value) {
    return Double.isNaN(value) || Double.isInfinite(value) ? null : value;
  }
}
