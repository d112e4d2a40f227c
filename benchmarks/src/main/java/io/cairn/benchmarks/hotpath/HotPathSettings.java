package io.cairn.benchmarks.hotpath;

import io.cairn.units.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The options of {@link HotPathBenchmark}, parsed from {@code --name value} (or {@code
 * --name=value}) pairs and checked together: {@link #parse} lists every violation, each in the form
 * "Expected --name in [min, max], but was value".
 *
 * @param stepDuration measured time of each step, [1s, 10m]
 * @param warmup load before each measured step, not measured, [0s, 10m]
 * @param jitWarmup load before the first step, per workload (Cairn deposits, Cairn transfers, etcd
 *     puts, at c64), not measured: the processes' JIT compilers finish with the hot code here
 *     rather than in the c1 step, [0s, 10m]
 * @param concurrency calls in flight of each closed-loop step, each in [1, 4096], ascending
 * @param accounts accounts the deposits and transfers use, [6, 1000000]
 * @param etcd whether etcd runs: on (required), off, auto (when installed)
 * @param out where the JSON result goes
 * @param hotBackupMegabytes grow broker 0's data directory to at least this many MB (10^6 bytes)
 *     and measure throughput during a backup; 0 = skip, else [1, 100000]
 * @param backups backups taken idle and again under load for the checkpoint latencies, [1, 100]
 * @param dist the assembled distribution ({@code dist/target/cairn})
 * @param directory where the clusters keep their files (emptied first when an earlier run's)
 * @param secure the Cairn cluster as {@code cluster up --secure} runs it: TLS on every listener and
 *     between the processes, API keys at the gateway, encrypted backups
 * @param archive the Cairn cluster as {@code cluster up --archive} runs it: every partition's log
 *     archived continuously into the backup store
 */
public record HotPathSettings(
    Duration stepDuration,
    Duration warmup,
    Duration jitWarmup,
    List<Integer> concurrency,
    int accounts,
    EtcdMode etcd,
    Path out,
    int hotBackupMegabytes,
    int backups,
    Path dist,
    Path directory,
    boolean secure,
    boolean archive) {

  public static final int CONCURRENCY_MAX = 4096;
  public static final int ACCOUNTS_MIN = 6;
  public static final int ACCOUNTS_MAX = 1_000_000;
  public static final int HOT_BACKUP_MEGABYTES_MAX = 100_000;
  public static final int BACKUPS_MAX = 100;
  private static final Duration STEP_MIN = Duration.ofSeconds(1);
  private static final Duration STEP_MAX = Duration.ofMinutes(10);

  /** Whether the etcd side runs. */
  public enum EtcdMode {
    /** etcd must be installed; the run fails without it. */
    ON,
    /** Cairn only. */
    OFF,
    /** etcd when installed, else Cairn only (with the install line printed). */
    AUTO
  }

  /** The defaults, as documented in benchmarks/README.md. */
  static Map<String, String> defaults() {
    Map<String, String> defaults = new LinkedHashMap<>();
    defaults.put("step-duration", "20s");
    defaults.put("warmup", "10s");
    defaults.put("jit-warmup", "30s");
    defaults.put("concurrency", "1,16,64,256");
    defaults.put("accounts", "1000");
    defaults.put("etcd", "auto");
    defaults.put("out", "results");
    defaults.put("hot-backup-mb", "0");
    defaults.put("backups", "5");
    defaults.put("dist", "../dist/target/cairn");
    defaults.put("dir", "target/hot-path");
    defaults.put("secure", "off");
    defaults.put("archive", "off");
    return defaults;
  }

  public HotPathSettings {
    Objects.requireNonNull(stepDuration, "stepDuration");
    Objects.requireNonNull(warmup, "warmup");
    Objects.requireNonNull(jitWarmup, "jitWarmup");
    concurrency = List.copyOf(concurrency);
    Objects.requireNonNull(etcd, "etcd");
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(dist, "dist");
    Objects.requireNonNull(directory, "directory");
  }

  /**
   * Parses and checks {@code args}; unknown options and missing values are violations too.
   *
   * @throws IllegalArgumentException listing every violation, one per line
   */
  public static HotPathSettings parse(String... args) {
    Map<String, String> values = defaults();
    List<String> violations = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        violations.add("Expected an option --name, but was '" + arg + "'");
        continue;
      }
      int eq = arg.indexOf('=');
      String name = arg.substring(2, eq < 0 ? arg.length() : eq);
      if (!values.containsKey(name)) {
        violations.add(
            "Expected an option of "
                + String.join(", ", values.keySet().stream().map(n -> "--" + n).toList())
                + ", but was '"
                + arg
                + "'");
        if (eq < 0 && i + 1 < args.length && !args[i + 1].startsWith("--")) {
          i++;
        }
        continue;
      }
      if (eq >= 0) {
        values.put(name, arg.substring(eq + 1));
      } else if (i + 1 < args.length) {
        values.put(name, args[++i]);
      } else {
        violations.add("Expected a value after --" + name + ", but it is the last argument");
      }
    }
    Duration step = duration(violations, "step-duration", values, STEP_MIN, STEP_MAX);
    Duration warmup = duration(violations, "warmup", values, Duration.ZERO, STEP_MAX);
    Duration jitWarmup = duration(violations, "jit-warmup", values, Duration.ZERO, STEP_MAX);
    List<Integer> concurrency = concurrency(violations, values.get("concurrency"));
    int accounts =
        integer(violations, "accounts", values.get("accounts"), ACCOUNTS_MIN, ACCOUNTS_MAX);
    EtcdMode etcd = etcdMode(violations, values.get("etcd"));
    int hotBackup = hotBackup(violations, values.get("hot-backup-mb"));
    int backups = integer(violations, "backups", values.get("backups"), 1, BACKUPS_MAX);
    Path out = path(violations, "out", values.get("out"));
    Path dist = path(violations, "dist", values.get("dist"));
    Path directory = path(violations, "dir", values.get("dir"));
    String secure = values.get("secure");
    if (!secure.equals("on") && !secure.equals("off")) {
      violations.add("Expected --secure on or off, but was '" + secure + "'");
    }
    String archive = values.get("archive");
    if (!archive.equals("on") && !archive.equals("off")) {
      violations.add("Expected --archive on or off, but was '" + archive + "'");
    }
    if (!violations.isEmpty()) {
      throw new IllegalArgumentException(String.join(System.lineSeparator(), violations));
    }
    return new HotPathSettings(
        step,
        warmup,
        jitWarmup,
        concurrency,
        accounts,
        etcd,
        out,
        hotBackup,
        backups,
        dist,
        directory,
        secure.equals("on"),
        archive.equals("on"));
  }

  /** The options as given (or defaulted), for the report. */
  public Map<String, Object> document() {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("stepDuration", Durations.formatRounded(stepDuration));
    doc.put("warmup", Durations.formatRounded(warmup));
    doc.put("jitWarmup", Durations.formatRounded(jitWarmup));
    doc.put("concurrency", concurrency);
    doc.put("accounts", accounts);
    doc.put("etcd", etcd.name().toLowerCase(Locale.ROOT));
    doc.put("hotBackupMb", hotBackupMegabytes);
    doc.put("backups", backups);
    doc.put("secure", secure);
    doc.put("archive", archive);
    return doc;
  }

  private static Duration duration(
      List<String> violations,
      String name,
      Map<String, String> values,
      Duration min,
      Duration max) {
    String text = values.get(name);
    Duration value;
    try {
      value = Durations.parseOrThrow(text);
    } catch (IllegalArgumentException e) {
      violations.add(
          "Expected --" + name + " to be a duration like 500ms, 20s, 5m, but was '" + text + "'");
      return min;
    }
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      violations.add(
          "Expected --"
              + name
              + " in ["
              + Durations.formatRounded(min)
              + ", "
              + Durations.formatRounded(max)
              + "], but was "
              + text);
    }
    return value;
  }

  private static List<Integer> concurrency(List<String> violations, String text) {
    List<Integer> levels = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      int level = integer(violations, "concurrency", part.trim(), 1, CONCURRENCY_MAX);
      if (!levels.isEmpty() && level <= levels.get(levels.size() - 1)) {
        violations.add(
            "Expected --concurrency to be ascending without repeats, but was '" + text + "'");
        return levels;
      }
      levels.add(level);
    }
    return levels;
  }

  private static int integer(List<String> violations, String name, String text, int min, int max) {
    try {
      int value = Integer.parseInt(text.trim());
      if (value < min || value > max) {
        violations.add("Expected --" + name + " in [" + min + ", " + max + "], but was " + value);
      }
      return value;
    } catch (NumberFormatException e) {
      violations.add(
          "Expected --"
              + name
              + " to be an integer in ["
              + min
              + ", "
              + max
              + "], but was '"
              + text
              + "'");
      return min;
    }
  }

  private static EtcdMode etcdMode(List<String> violations, String text) {
    for (EtcdMode mode : EtcdMode.values()) {
      if (mode.name().equalsIgnoreCase(text.trim())) {
        return mode;
      }
    }
    violations.add("Expected --etcd to be one of on, off, auto, but was '" + text + "'");
    return EtcdMode.AUTO;
  }

  private static int hotBackup(List<String> violations, String text) {
    try {
      int value = Integer.parseInt(text.trim());
      if (value != 0 && (value < 1 || value > HOT_BACKUP_MEGABYTES_MAX)) {
        violations.add(
            "Expected --hot-backup-mb to be 0 (off) or in [1, "
                + HOT_BACKUP_MEGABYTES_MAX
                + "], but was "
                + value);
      }
      return value;
    } catch (NumberFormatException e) {
      violations.add(
          "Expected --hot-backup-mb to be 0 (off) or an integer in [1, "
              + HOT_BACKUP_MEGABYTES_MAX
              + "], but was '"
              + text
              + "'");
      return 0;
    }
  }

  private static Path path(List<String> violations, String name, String text) {
    if (text.isBlank()) {
      violations.add("Expected --" + name + " to be a path, but was empty");
      return Path.of(".");
    }
    return Path.of(text);
  }
}
