package io.cairn.benchmarks.hotpath;

import io.cairn.benchmarks.BenchmarkFiles;
import io.cairn.cli.load.LoadGenerator;
import io.cairn.cli.load.LoadSettings;
import io.cairn.client.CairnClient;
import io.cairn.client.RetryPolicy;
import io.cairn.scheduler.Clock;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The hot path of Cairn against etcd, in one run on one machine: a local 3-broker cluster of the
 * assembled distribution (real processes, as {@code cairn cluster up} runs them) and a 3-member
 * etcd on loopback; closed-loop deposits, cross-partition transfers and etcd puts at each
 * concurrency, after a JIT warm-up of every workload; open-loop deposits at 50%, 80% and 150% of
 * the highest deposit rate; backups idle and under load (checkpoint latency, backup status / list /
 * topology latency); optionally throughput during a backup of a grown state. CPU per acknowledged
 * call of every process from {@code /proc}. Prints the steps, backups and goals as tables and
 * writes them with the machine's facts to {@code <out>/<yyyy-MM-dd>-hot-path.json}.
 *
 * <p>Usage: {@code HotPathBenchmark [--step-duration 20s] [--warmup 10s] [--jit-warmup 30s]
 * [--concurrency 1,16,64,256] [--accounts 1000] [--etcd on|off|auto] [--out results]
 * [--hot-backup-mb 0] [--backups 5] [--dist ../dist/target/cairn] [--dir target/hot-path]}; see
 * benchmarks/README.md. Exit 0 when the run completed (whatever the goals say), 1 when it failed, 2
 * on bad options.
 */
public final class HotPathBenchmark {

  private static final Clock CLOCK = Clock.system();
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);
  private static final long INITIAL_BALANCE = 1_000_000_000_000L;
  private static final long SEED = 42;
  private static final int[] OPEN_LOOP_PERCENTS = {50, 80, 150};
  private static final int JIT_WARMUP_CONCURRENCY = 64;

  /** The driver's measured window after the JIT warm-up: short, and not reported. */
  private static final Duration JIT_WARMUP_TAIL = Duration.ofSeconds(1);

  private static final Duration HOT_BACKUP_WINDOW_MIN = Duration.ofSeconds(1);
  private static final String DIRECTORY_MARKER = ".hot-path";
  static final String IDLE = "idle";
  static final String UNDER_LOAD = "under load";

  private final HotPathSettings settings;
  private final PrintStream progress = System.err;
  private final List<Measurement> closed = new ArrayList<>();
  private final Map<Integer, Measurement> open = new TreeMap<>();
  private final Map<String, BackupProbe.Series> backups = new LinkedHashMap<>();
  private final Map<String, Object> hotBackup = new LinkedHashMap<>();
  private final List<Measurement> hotBackupSteps = new ArrayList<>();

  /** The deposits under which backups were taken; shown with the steps, not a goal input. */
  private Measurement backupLoad;

  private Optional<Double> hotBackupRatio = Optional.empty();
  private double maxDepositsPerSecond;

  private HotPathBenchmark(HotPathSettings settings) {
    this.settings = settings;
  }

  public static void main(String[] args) {
    HotPathSettings settings;
    try {
      settings = HotPathSettings.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println("Options (defaults): " + HotPathSettings.defaults());
      System.exit(2);
      return;
    }
    try {
      new HotPathBenchmark(settings).run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      System.err.println("hot-path: interrupted");
      System.exit(1);
    } catch (IllegalStateException e) {
      System.err.println("hot-path: failed: " + e.getMessage()); // says what to do
      System.exit(1);
    } catch (Exception e) {
      System.err.println("hot-path: failed: " + e.getMessage());
      e.printStackTrace(System.err);
      System.exit(1);
    }
    System.exit(0);
  }

  /** A client of the cluster's gateway, trusting its CA and presenting its admin key if secure. */
  private static CairnClient client(CairnClusterProcess cairn) {
    CairnClient.Builder builder =
        CairnClient.builder()
            .gateway(cairn.gatewayAddress())
            .requestTimeout(REQUEST_TIMEOUT)
            .retryPolicy(RetryPolicy.none()); // a refusal is counted, never hidden by a resend
    cairn.directory().caFile().ifPresent(builder::trustedCaFile);
    cairn.directory().adminAuthorization().ifPresent(builder::credentials);
    return builder.build();
  }

  private void run() throws Exception {
    Map<String, Object> machine = MachineFacts.collect();
    machine.put("loadAverageStart", BenchmarkFiles.loadAverage());
    Optional<Path> etcdBinary = etcdBinary();
    Path directory = freshDirectory(settings.directory().toAbsolutePath().normalize());
    progress.println("hot-path: settings " + settings.document() + ", files in " + directory);
    String startedAt = Instant.ofEpochMilli(CLOCK.millis()).toString();
    Map<String, Object> etcdFacts = new LinkedHashMap<>();
    Map<String, Object> cairnFacts = new LinkedHashMap<>();
    cairnFacts.put("brokers", CairnClusterProcess.BROKERS);
    cairnFacts.put("partitions", CairnClusterProcess.PARTITIONS);
    cairnFacts.put("replicationFactor", CairnClusterProcess.REPLICATION_FACTOR);
    try (CairnClusterProcess cairn =
            CairnClusterProcess.up(
                settings.dist(),
                directory.resolve("cairn"),
                CLOCK,
                settings.secure(),
                settings.archive());
        EtcdCluster etcd =
            etcdBinary.isPresent()
                ? EtcdCluster.start(etcdBinary.get(), directory.resolve("etcd"), CLOCK)
                : null;
        CairnClient client = client(cairn)) {
      progress.println(
          "hot-path: cairn cluster up in "
              + cairn.directory().root()
              + " (gateway "
              + cairn.gatewayAddress()
              + ")"
              + (etcd == null ? "" : "; etcd " + etcd.clientUrls()));
      if (etcd != null) {
        etcdFacts.put("version", EtcdCluster.version(etcdBinary.get()));
        etcdFacts.put("members", EtcdCluster.MEMBERS);
        etcdFacts.put("valueBytes", EtcdPuts.VALUE_BYTES);
      } else {
        etcdFacts.put(
            "skipped",
            settings.etcd() == HotPathSettings.EtcdMode.OFF
                ? "--etcd off"
                : "not installed (" + EtcdCluster.INSTALL_HINT + ")");
      }
      ProcCpuSampler cpu = new ProcCpuSampler(groups(cairn, etcd), ProcCpuSampler.ticksPerSecond());
      List<String> accounts = fund(client);
      CairnWorkloads cairnWorkloads =
          new CairnWorkloads(client, accounts, client.topology().partitionCount());
      List<Integer> perPartition = new ArrayList<>();
      int[] counts = cairnWorkloads.partitionCounts();
      for (int p = 1; p < counts.length; p++) {
        perPartition.add(counts[p]);
      }
      cairnFacts.put("accountsPerPartition", perPartition);
      try (EtcdPuts etcdPuts =
          etcd == null
              ? null
              : new EtcdPuts(etcd.clientUrls(), settings.accounts(), REQUEST_TIMEOUT, SEED)) {
        jitWarmup(new ClosedLoopDriver(CLOCK, cpu), cairnWorkloads, etcdPuts);
        closedLoop(cpu, cairnWorkloads, etcdPuts);
      }
      OpenLoopDriver openLoop = new OpenLoopDriver(CLOCK, cpu);
      openLoop(openLoop, cairnWorkloads.deposits());
      backups(client, openLoop, cairnWorkloads.deposits());
      if (settings.hotBackupMegabytes() > 0) {
        hotBackup(client, cairn, openLoop, cairnWorkloads.deposits());
      }
      machine.put("loadAverageEnd", BenchmarkFiles.loadAverage());
      // reported before the clusters stop, so that a slow shutdown cannot lose the figures
      report(
          new HotPathResults(
              settings,
              machine,
              cairnFacts,
              etcdFacts,
              closed,
              open,
              backupLoad,
              backups,
              hotBackup,
              hotBackupSteps,
              hotBackupRatio,
              maxDepositsPerSecond,
              startedAt,
              Instant.ofEpochMilli(CLOCK.millis()).toString()));
      progress.println("hot-path: stopping the clusters");
    }
  }

  private void report(HotPathResults results) throws IOException {
    List<HotPathGoals.Goal> goals = HotPathGoals.evaluate(results.goalInputs());
    HotPathReport.print(results, goals, System.out);
    Path file = settings.out().resolve(LocalDate.now(ZoneOffset.UTC) + "-hot-path.json");
    HotPathReport.write(file, HotPathReport.document(results, goals));
    System.out.println();
    System.out.println("Written: " + file.toAbsolutePath().normalize());
  }

  /**
   * Empties {@code directory} if it is one of an earlier run (it holds the marker file), creates it
   * and marks it; refuses any other directory with files in it.
   */
  private static Path freshDirectory(Path directory) throws IOException {
    Path marker = directory.resolve(DIRECTORY_MARKER);
    if (Files.isDirectory(directory) && !Files.exists(marker)) {
      try (Stream<Path> entries = Files.list(directory)) {
        if (entries.findAny().isPresent()) {
          throw new IllegalStateException(
              "Expected --dir to be empty or a directory of an earlier run (with "
                  + DIRECTORY_MARKER
                  + "), but "
                  + directory
                  + " holds other files; pass"
                  + " another --dir");
        }
      }
    }
    BenchmarkFiles.deleteRecursively(directory);
    Files.createDirectories(directory);
    Files.writeString(marker, "the hot-path benchmark's files; emptied by every run\n");
    return directory;
  }

  private Optional<Path> etcdBinary() {
    if (settings.etcd() == HotPathSettings.EtcdMode.OFF) {
      progress.println("hot-path: --etcd off: Cairn side only");
      return Optional.empty();
    }
    Optional<Path> binary = EtcdCluster.findBinary();
    if (binary.isEmpty()) {
      String hint = "etcd is not installed; install it with: " + EtcdCluster.INSTALL_HINT;
      if (settings.etcd() == HotPathSettings.EtcdMode.ON) {
        throw new IllegalStateException("Expected etcd on the PATH (--etcd on), but " + hint);
      }
      progress.println("hot-path: " + hint + "; running the Cairn side only");
    }
    return binary;
  }

  private static Map<String, List<Long>> groups(CairnClusterProcess cairn, EtcdCluster etcd) {
    Map<String, List<Long>> groups = new LinkedHashMap<>();
    groups.put("brokers", cairn.brokerPids());
    groups.put("gateway", List.of(cairn.gatewayPid()));
    if (etcd != null) {
      groups.put("etcd", etcd.pids());
    }
    groups.put("client", List.of(ProcessHandle.current().pid()));
    return groups;
  }

  /** Creates and funds the accounts (untimed), with the cli's exact funding. */
  private List<String> fund(CairnClient client) {
    LoadSettings load =
        new LoadSettings(
            1,
            settings.accounts(),
            Duration.ofSeconds(1),
            256,
            INITIAL_BALANCE,
            1,
            SEED,
            "hp-",
            Duration.ofSeconds(30),
            1);
    new LoadGenerator(client, load, CLOCK, line -> progress.println("hot-path: " + line)).fund();
    List<String> accounts = new ArrayList<>();
    for (int i = 0; i < settings.accounts(); i++) {
      accounts.add(load.accountId(i));
    }
    return accounts;
  }

  /**
   * Each workload at {@value #JIT_WARMUP_CONCURRENCY} in flight for {@code --jit-warmup}, not
   * measured. Funding alone leaves the brokers' and gateway's hot code to be compiled during the
   * first measured step (c1): their C2 compiler threads then used more CPU than the request path
   * itself and the step measured interpreted code, which a long-running cluster never runs.
   */
  private void jitWarmup(ClosedLoopDriver driver, CairnWorkloads cairn, EtcdPuts etcd)
      throws InterruptedException {
    if (settings.jitWarmup().isZero()) {
      return;
    }
    for (Workload workload : closedLoopWorkloads(cairn, etcd)) {
      progress.println(
          "hot-path: JIT warm-up, "
              + workload.side()
              + " "
              + workload.name()
              + " c"
              + JIT_WARMUP_CONCURRENCY
              + " for "
              + settings.jitWarmup().toMillis()
              + " ms");
      Measurement m =
          driver.run(workload, JIT_WARMUP_CONCURRENCY, settings.jitWarmup(), JIT_WARMUP_TAIL);
      progress.println("hot-path:   (not reported) " + summary(m));
    }
  }

  /** Cairn deposits, Cairn cross-partition transfers, then etcd puts when etcd runs. */
  private static List<Workload> closedLoopWorkloads(CairnWorkloads cairn, EtcdPuts etcd) {
    List<Workload> workloads =
        new ArrayList<>(List.of(cairn.deposits(), cairn.crossPartitionTransfers()));
    if (etcd != null) {
      workloads.add(etcd);
    }
    return workloads;
  }

  private void closedLoop(ProcCpuSampler cpu, CairnWorkloads cairn, EtcdPuts etcd)
      throws InterruptedException {
    ClosedLoopDriver driver = new ClosedLoopDriver(CLOCK, cpu);
    for (int level : settings.concurrency()) {
      for (Workload workload : closedLoopWorkloads(cairn, etcd)) {
        progress.println(
            "hot-path: "
                + workload.side()
                + " "
                + workload.name()
                + " c"
                + level
                + ": warm-up "
                + settings.warmup().toMillis()
                + " ms, then "
                + settings.stepDuration().toMillis()
                + " ms measured");
        Measurement m = driver.run(workload, level, settings.warmup(), settings.stepDuration());
        progress.println("hot-path:   " + summary(m));
        closed.add(m);
        if (workload.side().equals("cairn") && workload.name().equals("deposit")) {
          maxDepositsPerSecond = Math.max(maxDepositsPerSecond, m.opsPerSecond());
        }
      }
    }
  }

  private void openLoop(OpenLoopDriver driver, Workload deposits) throws InterruptedException {
    if (maxDepositsPerSecond <= 0) {
      throw new IllegalStateException(
          "Expected acknowledged deposits in the closed-loop steps, but there were none");
    }
    for (int percent : OPEN_LOOP_PERCENTS) {
      double rate = maxDepositsPerSecond * percent / 100;
      progress.println(
          String.format(
              Locale.ROOT,
              "hot-path: cairn deposit open loop at %d%% of %.0f/s = %.0f/s",
              percent,
              maxDepositsPerSecond,
              rate));
      Measurement m =
          driver
              .run(percent + "%", deposits, rate, settings.warmup(), settings.stepDuration())
              .measurement();
      progress.println("hot-path:   " + summary(m));
      open.put(percent, m);
    }
  }

  /** Backups idle, then under open-loop deposits at 50% of the maximum. */
  private void backups(CairnClient client, OpenLoopDriver driver, Workload deposits)
      throws InterruptedException {
    int partitions = client.topology().partitionCount();
    BackupProbe probe = new BackupProbe(client, CLOCK, partitions);
    progress.println("hot-path: " + settings.backups() + " backups, idle");
    backups.put(IDLE, probe.takeBackups(settings.backups()));
    double rate = maxDepositsPerSecond / 2;
    progress.println(
        String.format(
            Locale.ROOT,
            "hot-path: %d backups under deposits at 50%% of max (%.0f/s)",
            settings.backups(),
            rate));
    OpenLoopDriver.Result<BackupProbe.Series> loaded =
        driver.run(
            "50% + backups",
            deposits,
            rate,
            settings.warmup(),
            Duration.ZERO,
            () -> probe.takeBackups(settings.backups()));
    backups.put(UNDER_LOAD, loaded.alongside());
    progress.println("hot-path:   " + summary(loaded.measurement()));
    backupLoad = loaded.measurement();
  }

  /**
   * Grows the state, then deposits at 80% of the maximum without a backup and with one taken at the
   * start of the window; the ratio compares acknowledged deposits per second while the backup ran
   * with the rate of the window without.
   */
  private void hotBackup(
      CairnClient client, CairnClusterProcess cairn, OpenLoopDriver driver, Workload deposits)
      throws InterruptedException {
    long target = settings.hotBackupMegabytes() * 1_000_000L;
    Path broker0 = cairn.directory().dataDirectory(0);
    long startNanos = CLOCK.nanos();
    long accounts =
        new StateGrower(client, CLOCK, line -> progress.println(line)).grow(broker0, target);
    hotBackup.put("accountsCreated", accounts);
    hotBackup.put("growSeconds", (CLOCK.nanos() - startNanos) / 1e9);
    hotBackup.put("stateBytes", StateGrower.stateBytes(broker0));
    double rate = maxDepositsPerSecond * 0.8;
    Measurement without =
        driver
            .run("80% no backup", deposits, rate, settings.warmup(), settings.stepDuration())
            .measurement();
    progress.println("hot-path:   " + summary(without));
    BackupProbe probe = new BackupProbe(client, CLOCK, client.topology().partitionCount());
    Map<String, LatencyRecorder> calls = BackupProbe.callRecorders();
    OpenLoopDriver.Result<BackupProbe.Sample> during =
        driver.run(
            "80% + backup",
            deposits,
            rate,
            settings.warmup(),
            HOT_BACKUP_WINDOW_MIN,
            () -> probe.takeBackup(calls));
    BackupProbe.Sample sample = during.alongside();
    // at least a second (the load ran that long), so that a short backup is not read from one
    // or two 100 ms buckets
    double duringRate =
        during
            .timeline()
            .ratePerSecond(
                sample.startNanos(),
                Math.max(sample.endNanos(), sample.startNanos() + HOT_BACKUP_WINDOW_MIN.toNanos()));
    progress.println(
        "hot-path:   "
            + summary(during.measurement())
            + "; backup "
            + sample.state()
            + " in "
            + HotPathGoals.fmt(sample.completedMs())
            + " ms");
    hotBackupSteps.add(without);
    hotBackupSteps.add(during.measurement());
    Map<String, Object> backup = new LinkedHashMap<>();
    backup.put("backupId", sample.backupId());
    backup.put("state", sample.state());
    backup.put("checkpointMs", HotPathReport.json(sample.checkpointMs()));
    backup.put("completedMs", HotPathReport.json(sample.completedMs()));
    hotBackup.put("backup", backup);
    Map<String, Object> callsP99 = new LinkedHashMap<>();
    calls.forEach(
        (name, recorder) ->
            callsP99.put(
                name, recorder.acknowledgedCount() == 0 ? null : recorder.latency().p99Ms()));
    hotBackup.put("callsDuringBackupP99Ms", callsP99);
    hotBackup.put("opsPerSecondWithout", without.opsPerSecond());
    hotBackup.put("opsPerSecondDuringBackup", duringRate);
    if (sample.error().isEmpty()) {
      hotBackupRatio = Optional.of(HotPathGoals.ratio(duringRate, without.opsPerSecond()));
    } else {
      hotBackup.put("error", sample.error());
    }
  }

  private static String summary(Measurement m) {
    return String.format(
        Locale.ROOT,
        "%s: %.0f ops/s, p50 %.2f ms, p99 %.2f ms," + " max %.2f ms, errors %s",
        m.label(),
        m.opsPerSecond(),
        m.latency().p50Ms(),
        m.latency().p99Ms(),
        m.latency().maxMs(),
        m.errors().isEmpty() ? "0" : m.errors());
  }
}
