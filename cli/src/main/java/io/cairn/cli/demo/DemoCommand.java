package io.cairn.cli.demo;

import io.cairn.cli.CairnMain;
import io.cairn.cli.CliContext;
import io.cairn.cli.CliException;
import io.cairn.cli.ClientCommand;
import io.cairn.cli.ExitCode;
import io.cairn.cli.admin.BackupCommand;
import io.cairn.cli.admin.BackupProgress;
import io.cairn.cli.cluster.ClusterDirectory;
import io.cairn.cli.cluster.ClusterLayout;
import io.cairn.cli.cluster.ClusterSecurity;
import io.cairn.cli.cluster.FreePorts;
import io.cairn.cli.cluster.LocalCluster;
import io.cairn.cli.cluster.ProcessLauncher;
import io.cairn.cli.load.LoadGenerator;
import io.cairn.cli.load.LoadResults;
import io.cairn.cli.load.LoadSettings;
import io.cairn.cli.output.Printer;
import io.cairn.client.BackupInfo;
import io.cairn.client.BackupState;
import io.cairn.client.CairnClient;
import io.cairn.client.CairnClientException;
import io.cairn.client.ErrorCode;
import io.cairn.client.RetryPolicy;
import io.cairn.units.Durations;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cairn demo}: a local 3-broker, 3-partition, RF 3 cluster with the filesystem backup store;
 * transfer load; a backup taken under load, followed until COMPLETED; the money check; the cluster
 * stopped; the backup verified (files and state digests); the backup restored into a new cluster,
 * which is started and checked (every account present, money conserved); a summary.
 *
 * <p>Steps, each timed: start cluster, fund accounts, transfer load (backup under load from a third
 * of the way in), money check, stop cluster, verify backup, restore into a new cluster, start the
 * restored cluster, check it, stop it. Exit 0 only if every check passed.
 */
@Command(
    name = "demo",
    description = {
      "Starts a local 3-broker, 3-partition, replication factor 3 cluster with the filesystem"
          + " backup store (in a fresh directory, on free ports), runs transfer load, takes a"
          + " backup under load and shows its progress and status, waits until it is COMPLETED,"
          + " checks that the money is conserved and stops the cluster. Then verifies the backup"
          + " (checksums and state digests), restores it into a new cluster (<run>/restored),"
          + " starts that, checks that every account is there and the money is conserved, stops"
          + " it and prints a summary.",
      "Exit code 0 only if the backup completed, verified and restored, and the money is"
          + " conserved in both clusters."
    })
public final class DemoCommand implements Callable<Integer> {
  static final String DEFAULT_DIR = "./cairn-demo";
  private static final String HOST = "127.0.0.1";
  private static final long BACKUP_ID = 1;
  private static final Duration TAKE_BACKUP_TIMEOUT = Duration.ofSeconds(60);
  private static final DateTimeFormatter RUN_NAME =
      DateTimeFormatter.ofPattern("'run-'yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

  @Spec private CommandSpec spec;

  @Option(
      names = "--dir",
      paramLabel = "dir",
      description =
          "Where the demo's clusters go; each run gets a fresh run-<time> directory"
              + " inside (default: "
              + DEFAULT_DIR
              + ").")
  Path dir = Path.of(DEFAULT_DIR);

  @Option(
      names = "--duration",
      paramLabel = "duration",
      description = "How long the transfer load runs (default: 20s).")
  Duration duration = Duration.ofSeconds(20);

  @Option(names = "--rate", paramLabel = "n", description = "Transfers per second (default: 100).")
  int rate = 100;

  @Option(names = "--accounts", paramLabel = "n", description = "Accounts (default: 100).")
  int accounts = 100;

  @Option(
      names = "--brokers",
      paramLabel = "n",
      description = "Brokers; partitions and replication follow (default: 3).",
      hidden = true)
  int brokers = 3;

  @Option(
      names = "--secure",
      description =
          "Run everything secured: a CA of the demo's own, TLS on every listener and between the"
              + " processes, encrypted backups (the restored cluster gets a copy of the master"
              + " keys).")
  boolean secure;

  @Option(
      names = "--keep-running",
      description =
          "Leave the restored cluster running at the end and print where its web console is"
              + " (stop it with: cairn cluster down --dir <run directory>/restored).")
  boolean keepRunning;

  private final List<Step> steps = new ArrayList<>();

  /** The cluster that may be running now (the first, then the restored one); null when none. */
  private final AtomicReference<LocalCluster> running = new AtomicReference<>();

  @Override
  public Integer call() {
    CairnMain root = ClientCommand.root(spec);
    CliContext context = root.context();
    Printer printer = root.printer();
    LoadSettings settings = loadSettings(context);
    if (duration.compareTo(Duration.ofSeconds(3)) < 0
        || duration.compareTo(Duration.ofHours(1)) > 0) {
      throw new ParameterException(
          spec.commandLine(),
          "Expected --duration in [3.0s, 60m00s], but was " + Durations.formatRounded(duration));
    }
    List<String> violations = settings.violations();
    if (!violations.isEmpty()) {
      throw new ParameterException(spec.commandLine(), String.join("; ", violations));
    }
    int partitions = brokers;
    int replicationFactor = Math.min(brokers, 3);
    int[] ports = FreePorts.forCluster(HOST, brokers, context.clock().nanos());
    ClusterLayout layout =
        ClusterLayout.of(
            brokers, partitions, replicationFactor, HOST, ports[0], ports[1], ports[2]);
    if (!layout.violations().isEmpty()) {
      throw new ParameterException(spec.commandLine(), String.join("; ", layout.violations()));
    }
    Path runDir = freshRunDirectory(context);
    LocalCluster cluster = localCluster(runDir, root, printer);
    LocalCluster restoredCluster = localCluster(runDir.resolve("restored"), root, printer);
    printer.progress(
        "demo: "
            + brokers
            + " brokers, "
            + partitions
            + " partitions, replication factor "
            + replicationFactor
            + (secure ? ", TLS, encrypted" : ",")
            + " filesystem backups, in "
            + runDir);
    if (secure) {
      ClusterSecurity.setUp(
          cluster.directory(), layout, Optional.empty(), context.clock().instant());
    }
    DemoSummary summary = new DemoSummary(runDir.toString(), layout.gatewayAddress());
    // The processes run in their own sessions: Ctrl-C reaches only this JVM, so stop them here.
    Thread stopOnExit =
        new Thread(
            () -> {
              LocalCluster current = keepRunning ? null : running.getAndSet(null);
              if (current != null) {
                printer.progress("demo: interrupted; stopping the cluster");
                current.down(Duration.ofSeconds(15));
              }
            },
            "cairn-demo-stop");
    Runtime.getRuntime().addShutdownHook(stopOnExit);
    try {
      running.set(cluster);
      step(printer, "start cluster", () -> cluster.up(layout, Duration.ofMinutes(2)));
      LoadResults.Funding funding;
      try (CairnClient client = connect(root, cluster, layout.gatewayAddress())) {
        LoadGenerator load =
            new LoadGenerator(client, settings, context.clock(), printer::progress);
        funding = step(printer, "fund accounts", load::fund);
        summary.funding = funding;
        step(
            printer,
            "transfer load with a backup under load",
            () -> {
              // its own client, so that the load's retry counters count transfers only
              try (CairnClient admin = connect(root, cluster, layout.gatewayAddress())) {
                loadWithBackup(admin, load, summary, printer, context, partitions);
              }
              return null;
            });
        summary.conservation =
            step(
                printer, "check money conservation", () -> load.checkConservation(funding.total()));
      }
      step(printer, "stop cluster", () -> stop(cluster));
      restore(summary, settings, funding, cluster, restoredCluster, layout, printer, context);
    } finally {
      LocalCluster current = keepRunning ? null : running.getAndSet(null);
      if (current != null) {
        printer.progress("demo: stopping the cluster after a failure");
        current.down(Duration.ofSeconds(30));
      }
      removeHook(stopOnExit);
    }
    summary.steps = List.copyOf(steps);
    boolean ok = summary.ok();
    summary.result = ok ? "ok" : "failed";
    printer.result(summary.document(), out -> summary.print(out));
    return ok ? ExitCode.OK : ExitCode.FAILED;
  }

  /**
   * Verifies backup {@value #BACKUP_ID} (files and state digests), restores it with {@code cluster
   * restore} into {@code <run>/restored} (the same shape, fresh ports, the first cluster's backup
   * store), starts that cluster, checks that every account is there and the money is conserved, and
   * stops it (unless {@code --keep-running}). Runs only when the backup COMPLETED.
   */
  private void restore(
      DemoSummary summary,
      LoadSettings settings,
      LoadResults.Funding funding,
      LocalCluster cluster,
      LocalCluster restoredCluster,
      ClusterLayout layout,
      Printer printer,
      CliContext context) {
    if (summary.backup == null || summary.backup.state() != BackupState.COMPLETED) {
      printer.progress("demo: the backup did not complete; nothing to verify or restore");
      return;
    }
    DemoRestore demoRestore = new DemoRestore(cluster.directory(), layout, printer, context);
    summary.verify =
        step(
            printer,
            "verify backup " + BACKUP_ID,
            () -> demoRestore.verify(BACKUP_ID),
            report -> report.isClean() ? "clean" : "NOT CLEAN");
    summary.restoredDir = restoredCluster.directory().root().toString();
    long restoreStarted = context.clock().nanos();
    DemoRestore.Restored restored =
        step(
            printer,
            "restore backup " + BACKUP_ID + " into a new cluster",
            () -> demoRestore.restore(BACKUP_ID, restoredCluster),
            r -> "ok: " + r.results().size() + " brokers");
    summary.restoreMs = (context.clock().nanos() - restoreStarted) / 1_000_000;
    summary.restored = restored.results();
    running.set(restoredCluster);
    step(
        printer,
        "start restored cluster",
        () -> restoredCluster.up(restored.layout(), Duration.ofMinutes(2)));
    try (CairnClient client =
        connect(ClientCommand.root(spec), restoredCluster, restored.layout().gatewayAddress())) {
      LoadGenerator check = new LoadGenerator(client, settings, context.clock(), printer::progress);
      summary.restoredConservation =
          step(
              printer,
              "check restored accounts and money",
              () -> check.checkConservation(funding.total()),
              c -> c.conserved() ? "ok" : "NOT conserved");
    }
    if (keepRunning) {
      ClusterLayout running = restored.layout();
      summary.console =
          (secure ? "https" : "http")
              + "://"
              + running.host()
              + ":"
              + running.gatewayHttpPort()
              + "/console/";
      summary.consoleKeyFile =
          secure ? restoredCluster.directory().adminKeyFile().toString() : null;
    } else {
      step(printer, "stop restored cluster", () -> stop(restoredCluster));
    }
  }

  private String stop(LocalCluster cluster) {
    running.compareAndSet(cluster, null);
    cluster.down(Duration.ofSeconds(30));
    return "ok";
  }

  private LocalCluster localCluster(Path dir, CairnMain root, Printer printer) {
    ClusterDirectory directory = new ClusterDirectory(dir);
    return new LocalCluster(
        directory,
        ProcessLauncher.current(),
        root.context().clock(),
        address ->
            root.connect(
                address,
                RetryPolicy.defaults(),
                directory.caFile(),
                directory.adminAuthorization()),
        printer::progress);
  }

  /** A client of a cluster's gateway, trusting the cluster's own CA when it is secure. */
  private static CairnClient connect(CairnMain root, LocalCluster cluster, String address) {
    return root.connect(
        address,
        RetryPolicy.defaults(),
        cluster.directory().caFile(),
        cluster.directory().adminAuthorization());
  }

  private void loadWithBackup(
      CairnClient client,
      LoadGenerator load,
      DemoSummary summary,
      Printer printer,
      CliContext context,
      int partitionCount) {
    AtomicBoolean stop = new AtomicBoolean();
    CompletableFuture<LoadResults.Transfers> transfers =
        CompletableFuture.supplyAsync(
            () -> load.runTransfers(stop::get),
            runnable -> {
              Thread thread = new Thread(runnable, "cairn-demo-load");
              thread.setDaemon(true);
              thread.start();
            });
    try {
      Duration warmUp = duration.dividedBy(3);
      io.cairn.cli.Pause.of(warmUp);
      if (transfers.isDone()) {
        summary.transfers = join(transfers);
        throw new CliException(ExitCode.FAILED, "Expected the load to run, but it ended early");
      }
      long started = context.clock().nanos();
      printer.progress("demo: taking backup " + BACKUP_ID + " under load");
      int partitions = takeBackup(client, printer, context, partitionCount);
      BackupInfo info =
          new BackupProgress(client, context.clock(), Duration.ofMillis(250), printer::progress)
              .await(BACKUP_ID, partitions, Duration.ofMinutes(2));
      summary.backup = info;
      summary.backupMs = (context.clock().nanos() - started) / 1_000_000;
      summary.backupDuringLoad = !transfers.isDone();
      java.io.ByteArrayOutputStream status = new java.io.ByteArrayOutputStream();
      BackupCommand.printStatus(
          info, new PrintStream(status, true, java.nio.charset.StandardCharsets.UTF_8));
      printer.progress(status.toString(java.nio.charset.StandardCharsets.UTF_8).stripTrailing());
      summary.transfers = join(transfers);
    } catch (RuntimeException e) {
      stop.set(true);
      throw e;
    }
  }

  /**
   * Takes the backup, sending it again while the cluster answers UNAVAILABLE, RESOURCE_EXHAUSTED or
   * DEADLINE_EXCEEDED (the log may be full under load). Once an attempt failed, some partitions may
   * have created the checkpoint already; when a later attempt finds every partition at this id
   * (ALREADY_EXISTS), the backup was taken. No one else takes backups in the demo's fresh cluster,
   * so that answer can only come from this command's own attempts.
   *
   * @return the number of partitions the backup covers
   */
  private static int takeBackup(
      CairnClient client, Printer printer, CliContext context, int partitionCount) {
    long deadline = context.clock().nanos() + TAKE_BACKUP_TIMEOUT.toNanos();
    boolean retried = false;
    while (true) {
      try {
        return client.takeBackup(BACKUP_ID).partitions().size();
      } catch (CairnClientException e) {
        if (retried && e.code() == ErrorCode.ALREADY_EXISTS) {
          printer.progress(
              "demo: every partition has checkpoint " + BACKUP_ID + " from an earlier attempt");
          return partitionCount;
        }
        boolean retryable =
            e.code() == ErrorCode.UNAVAILABLE
                || e.code() == ErrorCode.RESOURCE_EXHAUSTED
                || e.code() == ErrorCode.DEADLINE_EXCEEDED;
        if (!retryable || context.clock().nanos() - deadline >= 0) {
          throw e;
        }
        retried = true;
        printer.progress(
            "demo: backup "
                + BACKUP_ID
                + " not taken yet ("
                + e.code()
                + ": "
                + e.getMessage()
                + "); sending it again");
        io.cairn.cli.Pause.of(Duration.ofMillis(250));
      }
    }
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook runs (or ran) and stops the cluster
    }
  }

  private static LoadResults.Transfers join(CompletableFuture<LoadResults.Transfers> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(ExitCode.FAILED, "Interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new CliException(ExitCode.FAILED, "The load failed: " + e.getCause(), e.getCause());
    }
  }

  private LoadSettings loadSettings(CliContext context) {
    return new LoadSettings(
        rate,
        accounts,
        duration,
        64,
        1_000_000,
        100,
        context.clock().nanos(),
        "demo-",
        Duration.ofSeconds(30),
        RetryPolicy.DEFAULT_MAX_ATTEMPTS);
  }

  private Path freshRunDirectory(CliContext context) {
    Path base = context.resolve(dir);
    Path run = base.resolve(RUN_NAME.format(Instant.ofEpochMilli(context.clock().millis())));
    try {
      if (Files.exists(run)) {
        try (Stream<Path> entries = Files.list(run)) {
          if (entries.findAny().isPresent()) {
            throw new CliException(
                ExitCode.CONFLICT,
                "Expected a fresh directory for the demo, but " + run + " is not empty");
          }
        }
      }
      Files.createDirectories(run);
      return run;
    } catch (IOException e) {
      throw new CliException(ExitCode.FAILED, "Cannot create " + run + ": " + e.getMessage(), e);
    }
  }

  private <T> T step(Printer printer, String name, java.util.function.Supplier<T> work) {
    return step(printer, name, work, result -> result instanceof String text ? text : "ok");
  }

  /** Runs and times one step; {@code outcome} describes its result in the summary. */
  private <T> T step(
      Printer printer,
      String name,
      java.util.function.Supplier<T> work,
      java.util.function.Function<T, String> outcome) {
    CliContext context = ClientCommand.root(spec).context();
    printer.progress("== " + (steps.size() + 1) + ". " + name);
    long started = context.clock().nanos();
    String described = "failed";
    try {
      T result = work.get();
      described = outcome.apply(result);
      return result;
    } catch (RuntimeException e) {
      described = "failed: " + e.getMessage();
      throw e;
    } finally {
      steps.add(new Step(name, (context.clock().nanos() - started) / 1_000_000, described));
    }
  }

  /** One step of the demo: what, how long, how it ended. */
  public record Step(String name, long elapsedMs, String outcome) {}
}
