package io.cairn.cli.cluster;

import io.cairn.cli.CairnMain;
import io.cairn.cli.CliContext;
import io.cairn.cli.CliException;
import io.cairn.cli.ClientCommand;
import io.cairn.cli.ExitCode;
import io.cairn.cli.admin.TopologyCommand;
import io.cairn.cli.output.Printer;
import io.cairn.cli.output.Table;
import io.cairn.cli.restore.RestoreProgressReporter;
import io.cairn.cli.restore.RestoreReports;
import io.cairn.cli.restore.RestoreSelection;
import io.cairn.client.HostPort;
import io.cairn.client.RetryPolicy;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.RestoreResult;
import io.cairn.units.Durations;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code cairn cluster up|down|status}: a multi-process cluster on this machine. */
@Command(
    name = "cluster",
    description = {
      "A local cluster of broker processes and a gateway process in one directory:",
      "  cluster.json, broker-<i>.yaml, gateway.yaml (written once, then yours),",
      "  broker-<i>/ (data), backups/ (fs backup store), logs/, run/ (pid files)."
    },
    subcommands = {
      ClusterCommand.Up.class,
      ClusterCommand.Down.class,
      ClusterCommand.Status.class,
      ClusterCommand.Restore.class
    })
public final class ClusterCommand implements Runnable {

  static final String DEFAULT_DIR = "./data";

  @Spec private CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(), "Expected one of up, down, status, restore, but got none");
  }

  /** Options every cluster subcommand has. */
  abstract static class DirCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--dir",
        paramLabel = "dir",
        description = "The cluster's directory (default: " + DEFAULT_DIR + ").")
    Path dir = Path.of(DEFAULT_DIR);

    CairnMain root() {
      return ClientCommand.root(spec);
    }

    LocalCluster cluster() {
      CliContext context = root().context();
      Printer printer = root().printer();
      ClusterDirectory directory = new ClusterDirectory(context.resolve(dir));
      return new LocalCluster(
          directory,
          ProcessLauncher.current(),
          context.clock(),
          address ->
              root()
                  .connect(
                      address,
                      RetryPolicy.defaults(),
                      directory.caFile(),
                      directory.adminAuthorization()),
          printer::progress);
    }

    ParameterException invalid(String message) {
      return new ParameterException(spec.commandLine(), message);
    }
  }

  @Command(
      name = "up",
      description = {
        "Starts the brokers and the gateway as background processes (unless running) and waits"
            + " until the gateway knows a leader for every partition (progress on stderr).",
        "Ports: broker i listens on <base-port>+i (transport) and <base-port>+100+i"
            + " (management); the gateway on --gateway (gRPC) and --http-port.",
        "An existing directory keeps its shape and ports; options that contradict it are refused."
      })
  static final class Up extends DirCommand {
    @Option(names = "--brokers", paramLabel = "n", description = "Brokers (default: 3).")
    int brokers = 3;

    @Option(names = "--partitions", paramLabel = "n", description = "Partitions (default: 3).")
    int partitions = 3;

    @Option(
        names = "--replication-factor",
        paramLabel = "n",
        description = "Brokers per partition: 1, 3 or 5 (default: 3).")
    int replicationFactor = 3;

    @Option(
        names = "--base-port",
        paramLabel = "port",
        description = "First broker transport port (default: 26501).")
    int basePort = 26501;

    @Option(
        names = "--http-port",
        paramLabel = "port",
        description = "The gateway's management HTTP port (default: 9600).")
    int httpPort = 9600;

    @Option(
        names = "--timeout",
        paramLabel = "duration",
        description = "Longest wait for the cluster to be ready (default: 2m).")
    Duration timeout = Duration.ofMinutes(2);

    @Option(
        names = "--secure",
        description =
            "A new cluster with a CA of its own in <dir>/tls: TLS on every listener, mutual TLS"
                + " between the processes, encrypted backups (master keys in"
                + " <dir>/tls/backup-master.keys). Clients need --ca-file <dir>/tls/ca.crt.")
    boolean secure;

    @Option(
        names = "--archive",
        description =
            "A new cluster whose brokers archive their logs continuously into <dir>/backups"
                + " (backup.archive.enabled): restore points for cairn cluster restore"
                + " --to-checkpoint/--to-time; with --secure its objects are encrypted too.")
    boolean archive;

    @Option(
        names = "--restore-mode",
        description =
            "A new cluster whose brokers start empty and wait for a restore through the gateway"
                + " (data.restoreMode): cairn backup restore. Point its backup store at the"
                + " backups to restore by editing the broker files, or create it on a copy.")
    boolean restoreMode;

    @Option(
        names = "--marker-interval",
        paramLabel = "duration",
        description =
            "With --archive: a restore point on every partition every <duration> (a checkpoint"
                + " marker, backup.schedule.markerInterval), between full backups taken every hour"
                + " (backup.schedule.interval: 1h); from 1s to 59m.")
    Duration markerInterval;

    @Override
    public Integer call() {
      CairnMain root = root();
      HostPort gateway = root.gateway();
      ClusterLayout requested =
          ClusterLayout.of(
              brokers,
              partitions,
              replicationFactor,
              gateway.host(),
              basePort,
              gateway.port(),
              httpPort);
      List<String> violations = requested.violations();
      if (timeout.compareTo(Duration.ofSeconds(1)) < 0
          || timeout.compareTo(Duration.ofHours(1)) > 0) {
        violations.add(
            "Expected --timeout in [1.0s, 60m00s], but was " + Durations.formatRounded(timeout));
      }
      if (markerInterval != null && !archive) {
        violations.add(
            "Expected --marker-interval with --archive (markers are restore points of the log"
                + " archive), but --archive is not given");
      }
      if (markerInterval != null
          && (markerInterval.compareTo(Duration.ofSeconds(1)) < 0
              || markerInterval.compareTo(Duration.ofMinutes(59)) > 0)) {
        violations.add(
            "Expected --marker-interval in [1s, 59m], but was "
                + Durations.formatRounded(markerInterval));
      }
      if (!violations.isEmpty()) {
        throw invalid(String.join("; ", violations));
      }
      LocalCluster cluster = cluster();
      if (archive) {
        flag(
            cluster.directory().archiveFlagFile(),
            Optional.ofNullable(markerInterval).map(Durations::formatExact).orElse(""));
      }
      if (restoreMode) {
        flag(cluster.directory().restoreModeFlagFile(), "");
      }
      ClusterLayout layout = existingOr(cluster.directory(), requested);
      if (secure) {
        ClusterSecurity.setUp(
            cluster.directory(), layout, Optional.empty(), root.context().clock().instant());
      }
      cluster
          .directory()
          .caFile()
          .ifPresent(
              ca ->
                  root.printer()
                      .progress(
                          "cluster: TLS and API keys on; clients use --ca-file "
                              + ca
                              + " --credentials-file "
                              + cluster.directory().adminKeyFile()
                              + " (or export CAIRN_CA_FILE="
                              + ca
                              + ")"));
      LocalCluster.Result result = cluster.up(layout, timeout);
      root.printer()
          .result(document(cluster.directory(), layout, result), out -> print(result, out));
      return ExitCode.OK;
    }

    private static void flag(java.nio.file.Path file, String content) {
      try {
        java.nio.file.Files.createDirectories(file.getParent());
        if (!java.nio.file.Files.exists(file)) {
          java.nio.file.Files.writeString(file, content);
        }
      } catch (java.io.IOException e) {
        throw new CliException(ExitCode.FAILED, "Cannot create " + file + ": " + e.getMessage(), e);
      }
    }

    private ClusterLayout existingOr(ClusterDirectory directory, ClusterLayout requested) {
      Optional<ClusterLayout> existing = directory.readLayout();
      if (existing.isEmpty()) {
        return requested;
      }
      ClusterLayout layout = existing.get();
      var parsed = spec.commandLine().getParseResult();
      StringBuilder conflicts = new StringBuilder();
      conflict(
          conflicts, parsed.hasMatchedOption("--brokers"), "--brokers", brokers, layout.brokers());
      conflict(
          conflicts,
          parsed.hasMatchedOption("--partitions"),
          "--partitions",
          partitions,
          layout.partitions());
      conflict(
          conflicts,
          parsed.hasMatchedOption("--replication-factor"),
          "--replication-factor",
          replicationFactor,
          layout.replicationFactor());
      if (conflicts.length() > 0) {
        throw invalid(
            "Expected options matching the cluster in "
                + directory.root()
                + ", but"
                + conflicts
                + ". Use another --dir, or remove the directory to start afresh");
      }
      return layout;
    }

    private static void conflict(
        StringBuilder out, boolean given, String option, int value, int existing) {
      if (given && value != existing) {
        out.append(out.length() == 0 ? " " : ", ")
            .append(option)
            .append(' ')
            .append(value)
            .append(" != ")
            .append(existing);
      }
    }
  }

  @Command(
      name = "down",
      description =
          "Stops the gateway, then the brokers, with SIGTERM (graceful), and kills"
              + " what is still running after --timeout.")
  static final class Down extends DirCommand {
    @Option(
        names = "--timeout",
        paramLabel = "duration",
        description = "Longest wait for each process to exit before SIGKILL (default: 30s).")
    Duration timeout = Duration.ofSeconds(30);

    @Override
    public Integer call() {
      if (timeout.isNegative() || timeout.compareTo(Duration.ofMinutes(10)) > 0) {
        throw invalid(
            "Expected --timeout in [0ms, 10m00s], but was " + Durations.formatRounded(timeout));
      }
      List<ProcessStatus> stopped = cluster().down(timeout);
      root()
          .printer()
          .result(Map.of("processes", stopped), out -> processTable(stopped).print(out));
      return ExitCode.OK;
    }
  }

  @Command(
      name = "status",
      description =
          "Shows the processes and the topology; exit 0 when every process runs and"
              + " every partition has a leader, 3 otherwise.")
  static final class Status extends DirCommand {
    @Override
    public Integer call() {
      LocalCluster cluster = cluster();
      ClusterLayout layout = cluster.directory().requireLayout();
      LocalCluster.Result result = cluster.status();
      root()
          .printer()
          .result(document(cluster.directory(), layout, result), out -> print(result, out));
      return result.healthy() ? ExitCode.OK : ExitCode.UNAVAILABLE;
    }
  }

  @Command(
      name = "restore",
      description = {
        "Restores every broker of the local cluster from one backup into the data directories"
            + " its broker-<i>.yaml files name (offline: the cluster must be down, exit 5"
            + " otherwise; every data directory empty or absent). Then start it with: cairn"
            + " cluster up.",
        "On any failure every directory is left empty again. Progress per partition on"
            + " stderr. With --allow-partial, partitions none of whose copies verifies are"
            + " skipped and reported (exit 1), the others restored. Exit codes as for 'cairn"
            + " restore'."
      })
  static final class Restore extends DirCommand {
    @ArgGroup(exclusive = true, multiplicity = "1")
    RestoreSelection selection;

    @Option(
        names = "--allow-partial",
        description =
            "Restore the partitions that verify and skip (and report) those that do"
                + " not; exit 1 if any was skipped.")
    boolean allowPartial;

    @Override
    public Integer call() {
      BackupSelector selector = selection.selector(spec);
      CliContext context = root().context();
      Printer printer = root().printer();
      long started = context.clock().nanos();
      List<RestoreResult> results =
          LocalClusterRestore.restore(
              cluster(),
              selector,
              new RestoreProgressReporter(printer, context.clock(), "restore"),
              allowPartial,
              context);
      Duration took = Duration.ofNanos(context.clock().nanos() - started);
      printer.result(
          RestoreReports.restoreDocument(results, took),
          out -> RestoreReports.printRestore(results, took, out));
      return RestoreReports.exitCode(results);
    }
  }

  static Map<String, Object> document(
      ClusterDirectory dir, ClusterLayout layout, LocalCluster.Result result) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("dir", dir.root().toString());
    doc.put("layout", layout);
    doc.put("healthy", result.healthy());
    doc.put("processes", result.processes());
    doc.put("topology", result.topology());
    if (!result.gatewayError().isEmpty()) {
      doc.put("gatewayError", result.gatewayError());
    }
    return doc;
  }

  static void print(LocalCluster.Result result, PrintStream out) {
    processTable(result.processes()).print(out);
    out.println();
    if (result.topology() != null) {
      TopologyCommand.print(result.topology(), out);
    } else {
      out.println("Gateway unreachable: " + result.gatewayError());
    }
  }

  static Table processTable(List<ProcessStatus> processes) {
    Table table = Table.of("process", "pid", "state", "log");
    for (ProcessStatus p : processes) {
      table.row(p.name(), p.pid() < 0 ? "-" : Long.toString(p.pid()), p.state(), p.log());
    }
    return table;
  }
}
