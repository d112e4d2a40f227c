package io.cairn.benchmarks.hotpath;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The goals of the hot-path benchmark, each a ratio (or a count, or a latency) within one run,
 * evaluated from its measurements. A goal whose inputs were not measured (etcd off, a concurrency
 * not in the run, no hot-backup step) is {@link Verdict#NOT_MEASURED}, never a pass.
 */
final class HotPathGoals {

  /** The concurrency levels compared with etcd's throughput. */
  static final List<Integer> THROUGHPUT_LEVELS = List.of(16, 64, 256);

  /** Where CPU per call and transfers are compared (else the highest level measured). */
  static final int REFERENCE_LEVEL = 64;

  /** "p99 bounded" at 150% of the maximum: the acknowledged calls' p99 from their due time. */
  static final double OVERLOAD_P99_MAX_MS = 1000;

  static final double CHECKPOINT_P99_MAX_MS = 50;
  static final double CALL_P99_MAX_MS = 100;

  /** Cairn's server processes, and etcd's, for CPU per call. */
  static final List<String> CAIRN_SERVER_GROUPS = List.of("brokers", "gateway");

  static final List<String> ETCD_SERVER_GROUPS = List.of("etcd");

  private HotPathGoals() {}

  /** The outcome of one goal. */
  enum Verdict {
    PASS,
    MISS,
    NOT_MEASURED
  }

  /**
   * One goal.
   *
   * @param name what is compared
   * @param goal the rule, e.g. "≥ 1.0, 0 errors"
   * @param value the ratio, count or milliseconds; NaN when not measured
   * @param shown the value as printed ("-" when not measured)
   * @param verdict pass, miss or not measured
   * @param detail the inputs, e.g. "12,000 / 9,000 ops/s, errors 0 / 0"
   */
  record Goal(
      String name, String goal, double value, String shown, Verdict verdict, String detail) {

    static Goal ratio(String name, String goal, double value, boolean pass, String detail) {
      return new Goal(name, goal, value, format(value, "%.2f"), verdict(pass), detail);
    }

    static Goal count(String name, String goal, long value, boolean pass, String detail) {
      return new Goal(name, goal, value, Long.toString(value), verdict(pass), detail);
    }

    static Goal millis(String name, String goal, double value, boolean pass, String detail) {
      return new Goal(name, goal, value, format(value, "%.1f"), verdict(pass), detail);
    }

    private static Verdict verdict(boolean pass) {
      return pass ? Verdict.PASS : Verdict.MISS;
    }

    private static String format(double value, String pattern) {
      return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, pattern, value);
    }
  }

  /**
   * What the goals are evaluated from.
   *
   * @param closed every closed-loop measurement (both sides)
   * @param open open-loop deposits by share of the maximum in percent (50, 80, 150)
   * @param maxDepositsPerSecond the highest closed-loop deposit rate
   * @param hotBackupRatio throughput during a backup ÷ without at 80% (empty: not run)
   * @param checkpointP99UnderLoadMs (empty: no backup completed under load)
   * @param callP99DuringBackupMs status / list / topology p99 while backups ran (under load)
   */
  record Inputs(
      List<Measurement> closed,
      Map<Integer, Measurement> open,
      double maxDepositsPerSecond,
      Optional<Double> hotBackupRatio,
      Optional<Double> checkpointP99UnderLoadMs,
      Map<String, Double> callP99DuringBackupMs) {}

  static List<Goal> evaluate(Inputs in) {
    List<Goal> goals = new ArrayList<>();
    for (int level : THROUGHPUT_LEVELS) {
      goals.add(throughputRatio(in, "deposit", level, 1.0));
    }
    goals.add(p50Ratio(in));
    goals.add(cpuRatio(in));
    goals.add(throughputRatio(in, "transfer", REFERENCE_LEVEL, 0.5));
    goals.add(rejections(in, 50));
    goals.add(rejections(in, 80));
    goals.add(overload(in));
    goals.add(
        in.hotBackupRatio()
            .map(
                r ->
                    Goal.ratio(
                        "throughput during a backup ÷ without, 80% of max",
                        "≥ 0.95", r, r >= 0.95, ""))
            .orElse(
                notMeasured(
                    "throughput during a backup ÷ without, 80% of max",
                    "≥ 0.95", "--hot-backup-mb 0")));
    goals.add(
        in.checkpointP99UnderLoadMs()
            .map(
                ms ->
                    Goal.millis(
                        "checkpoint latency p99 under load (ms)",
                        "≤ 50 ms",
                        ms,
                        ms <= CHECKPOINT_P99_MAX_MS,
                        ""))
            .orElse(
                notMeasured(
                    "checkpoint latency p99 under load (ms)",
                    "≤ 50 ms",
                    "no backup completed under load")));
    for (String call : List.of("status", "list", "topology")) {
      String name = "backup " + call + " p99 during a backup (ms)";
      Double ms = in.callP99DuringBackupMs().get(call);
      goals.add(
          ms == null
              ? notMeasured(name, "≤ 100 ms", "no call while a backup ran")
              : Goal.millis(name, "≤ 100 ms", ms, ms <= CALL_P99_MAX_MS, ""));
    }
    return goals;
  }

  /** Whether every measured goal passed (goals not measured do not count). */
  static boolean allMeasuredPass(List<Goal> goals) {
    return goals.stream().noneMatch(g -> g.verdict() == Verdict.MISS);
  }

  private static Goal throughputRatio(Inputs in, String workload, int level, double min) {
    String name = workload + "s/s ÷ etcd puts/s, c" + level;
    String goal = "≥ " + min + ", 0 errors";
    Optional<Measurement> cairn = closed(in, "cairn", workload, level);
    Optional<Measurement> etcd = closed(in, "etcd", "put", level);
    if (cairn.isEmpty() || etcd.isEmpty()) {
      return notMeasured(name, goal, missing(cairn, etcd, level));
    }
    double ratio = ratio(cairn.get().opsPerSecond(), etcd.get().opsPerSecond());
    long errors = cairn.get().errorCount() + etcd.get().errorCount();
    return Goal.ratio(
        name,
        goal,
        ratio,
        ratio >= min && errors == 0,
        fmt(cairn.get().opsPerSecond())
            + " / "
            + fmt(etcd.get().opsPerSecond())
            + " ops/s, errors "
            + cairn.get().errorCount()
            + " / "
            + etcd.get().errorCount());
  }

  private static Goal p50Ratio(Inputs in) {
    String name = "deposit p50 ÷ etcd put p50, c1";
    Optional<Measurement> cairn = closed(in, "cairn", "deposit", 1);
    Optional<Measurement> etcd = closed(in, "etcd", "put", 1);
    if (cairn.isEmpty() || etcd.isEmpty()) {
      return notMeasured(name, "≤ 1.25", missing(cairn, etcd, 1));
    }
    double ratio = ratio(cairn.get().latency().p50Ms(), etcd.get().latency().p50Ms());
    return Goal.ratio(
        name,
        "≤ 1.25",
        ratio,
        ratio <= 1.25,
        fmt(cairn.get().latency().p50Ms()) + " / " + fmt(etcd.get().latency().p50Ms()) + " ms");
  }

  private static Goal cpuRatio(Inputs in) {
    Optional<Integer> level = referenceLevel(in);
    String name =
        "CPU per deposit ÷ etcd CPU per put (servers), c"
            + level.map(String::valueOf).orElse(String.valueOf(REFERENCE_LEVEL));
    if (level.isEmpty()) {
      return notMeasured(name, "≤ 1.0", "no level with both deposits and etcd puts");
    }
    Measurement cairn = closed(in, "cairn", "deposit", level.get()).orElseThrow();
    Measurement etcd = closed(in, "etcd", "put", level.get()).orElseThrow();
    double cairnMs = cpuMsPerOp(cairn, CAIRN_SERVER_GROUPS);
    double etcdMs = cpuMsPerOp(etcd, ETCD_SERVER_GROUPS);
    double ratio = ratio(cairnMs, etcdMs);
    return Goal.ratio(
        name,
        "≤ 1.0",
        ratio,
        ratio <= 1.0,
        fmt(cairnMs) + " / " + fmt(etcdMs) + " CPU ms per call");
  }

  private static Goal rejections(Inputs in, int percent) {
    String name = "rejections at " + percent + "% of max offered";
    Measurement m = in.open().get(percent);
    if (m == null) {
      return notMeasured(name, "0", "no open-loop step");
    }
    return Goal.count(
        name,
        "0",
        m.errorCount(),
        m.errorCount() == 0,
        fmt(m.offeredPerSecond())
            + "/s offered, "
            + fmt(m.opsPerSecond())
            + "/s acknowledged"
            + (m.errors().isEmpty() ? "" : ", " + m.errors()));
  }

  private static Goal overload(Inputs in) {
    String name = "acknowledged at 150% offered ÷ max";
    String goal = "≥ 0.9, p99 ≤ 1000 ms";
    Measurement m = in.open().get(150);
    if (m == null) {
      return notMeasured(name, goal, "no open-loop step");
    }
    double ratio = ratio(m.opsPerSecond(), in.maxDepositsPerSecond());
    return Goal.ratio(
        name,
        goal,
        ratio,
        ratio >= 0.9 && m.latency().p99Ms() <= OVERLOAD_P99_MAX_MS,
        fmt(m.opsPerSecond())
            + " / "
            + fmt(in.maxDepositsPerSecond())
            + " ops/s, p99 "
            + fmt(m.latency().p99Ms())
            + " ms, errors "
            + m.errorCount());
  }

  /** {@link #REFERENCE_LEVEL} if both sides ran it, else the highest level both ran. */
  private static Optional<Integer> referenceLevel(Inputs in) {
    if (closed(in, "cairn", "deposit", REFERENCE_LEVEL).isPresent()
        && closed(in, "etcd", "put", REFERENCE_LEVEL).isPresent()) {
      return Optional.of(REFERENCE_LEVEL);
    }
    return in.closed().stream()
        .filter(m -> m.side().equals("cairn") && m.workload().equals("deposit"))
        .map(Measurement::concurrency)
        .filter(level -> closed(in, "etcd", "put", level).isPresent())
        .max(Integer::compare);
  }

  static double cpuMsPerOp(Measurement m, List<String> groups) {
    double sum = 0;
    for (String group : groups) {
      sum += m.cpuMsPerOp(group);
    }
    return sum;
  }

  private static Optional<Measurement> closed(Inputs in, String side, String workload, int level) {
    return in.closed().stream()
        .filter(
            m -> m.side().equals(side) && m.workload().equals(workload) && m.concurrency() == level)
        .findFirst();
  }

  private static String missing(
      Optional<Measurement> cairn, Optional<Measurement> etcd, int level) {
    return cairn.isEmpty() ? "c" + level + " not in --concurrency" : "etcd not run at c" + level;
  }

  private static Goal notMeasured(String name, String goal, String why) {
    return new Goal(name, goal, Double.NaN, "-", Verdict.NOT_MEASURED, why);
  }

  /** a ÷ b; NaN when b is 0. */
  static double ratio(double a, double b) {
    return b == 0 ? Double.NaN : a / b;
  }

  static String fmt(double value) {
    if (Double.isNaN(value)) {
      return "-";
    }
    if (Math.abs(value) >= 100) {
      return String.format(Locale.ROOT, "%,.0f", value);
    }
    return String.format(Locale.ROOT, "%.2f", value);
  }
}
