package io.cairn.benchmarks.hotpath;

import io.cairn.cli.cluster.ClusterDirectory;
import io.cairn.cli.cluster.FreePorts;
import io.cairn.scheduler.Clock;
import io.cairn.units.Durations;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The local 3-broker cluster of the assembled distribution, run as {@code cairn cluster up} runs
 * it: {@code <dist>/bin/cairn --gateway 127.0.0.1:G cluster up --dir <dir> --base-port P
 * --http-port H} with free ports below 32000 (picked as {@code cairn demo} picks them), so every
 * broker and the gateway are their own processes. {@link #close()} — and a shutdown hook, for a
 * failure or Ctrl-C — runs {@code cluster down}. The pids come from {@code <dir>/run/*.pid}.
 */
final class CairnClusterProcess implements AutoCloseable {

  static final int BROKERS = 3;
  static final int PARTITIONS = 3;
  static final int REPLICATION_FACTOR = 3;
  private static final String HOST = "127.0.0.1";
  private static final long UP_TIMEOUT_SECONDS = 180;
  private static final long DOWN_TIMEOUT_SECONDS = 60;

  private final Path cairn;
  private final ClusterDirectory directory;
  private final String gatewayAddress;
  private final Path cliLog;
  private final AtomicBoolean down = new AtomicBoolean();
  private final Thread shutdownHook;

  private CairnClusterProcess(
      Path cairn, ClusterDirectory directory, String gatewayAddress, Path cliLog) {
    this.cairn = cairn;
    this.directory = directory;
    this.gatewayAddress = gatewayAddress;
    this.cliLog = cliLog;
    this.shutdownHook = new Thread(this::down, "cairn-cluster-down");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Runs {@code cluster up} in {@code directory} (a new one) and returns once the gateway knows a
   * leader for every partition.
   *
   * @param dist the assembled distribution ({@code dist/target/cairn})
   * @param secure with {@code --secure}: TLS everywhere, encrypted backups
   * @param archive with {@code --archive}: every partition's log archived continuously
   * @throws IllegalStateException if the distribution is missing or the cluster does not start
   */
  static CairnClusterProcess up(
      Path dist, Path directory, Clock clock, boolean secure, boolean archive)
      throws IOException, InterruptedException {
    return up(dist, directory, clock, secure, archive, Optional.empty());
  }

  /**
   * {@link #up(Path, Path, Clock, boolean, boolean)} with {@code --marker-interval} (with the
   * archive): a restore point on every partition every interval.
   */
  static CairnClusterProcess up(
      Path dist,
      Path directory,
      Clock clock,
      boolean secure,
      boolean archive,
      Optional<Duration> markerInterval)
      throws IOException, InterruptedException {
    Path cairn = dist.resolve("bin").resolve("cairn").toAbsolutePath();
    if (!Files.isExecutable(cairn)) {
      throw new IllegalStateException(
          "Expected the distribution's bin/cairn at "
              + cairn
              + ", but it is missing; build it"
              + " with: mvn -B -q install -DskipTests -DskipITs -pl benchmarks,dist -am (or pass --dist)");
    }
    int[] ports = FreePorts.forCluster(HOST, BROKERS, clock.nanos());
    String gateway = HOST + ":" + ports[1];
    ClusterDirectory dir = new ClusterDirectory(directory);
    Path cliLog = directory.resolveSibling(directory.getFileName() + "-cli.log");
    CairnClusterProcess cluster = new CairnClusterProcess(cairn, dir, gateway, cliLog);
    List<String> up =
        new ArrayList<>(
            List.of(
                "--gateway",
                gateway,
                "cluster",
                "up",
                "--dir",
                dir.root().toString(),
                "--brokers",
                Integer.toString(BROKERS),
                "--partitions",
                Integer.toString(PARTITIONS),
                "--replication-factor",
                Integer.toString(REPLICATION_FACTOR),
                "--base-port",
                Integer.toString(ports[0]),
                "--http-port",
                Integer.toString(ports[2]),
                "--timeout",
                UP_TIMEOUT_SECONDS + "s"));
    if (secure) {
      up.add("--secure");
    }
    if (archive) {
      up.add("--archive");
    }
    markerInterval.ifPresent(
        interval -> up.addAll(List.of("--marker-interval", Durations.formatExact(interval))));
    int exit = cluster.cli(UP_TIMEOUT_SECONDS + 30, up.toArray(String[]::new));
    if (exit != 0) {
      cluster.close();
      throw new IllegalStateException(
          "Expected 'cairn cluster up' to exit 0, but it exited "
              + exit
              + ":\n"
              + tail(cliLog)
              + "\n(processes' logs in "
              + dir.root().resolve("logs")
              + ")");
    }
    return cluster;
  }

  String gatewayAddress() {
    return gatewayAddress;
  }

  ClusterDirectory directory() {
    return directory;
  }

  /** The brokers' pids (from {@code run/broker-<i>.pid}). */
  List<Long> brokerPids() {
    List<Long> pids = new ArrayList<>();
    for (int i = 0; i < BROKERS; i++) {
      pids.add(pid(ClusterDirectory.brokerName(i)));
    }
    return pids;
  }

  /** The gateway's pid (from {@code run/gateway.pid}). */
  long gatewayPid() {
    return pid(ClusterDirectory.GATEWAY);
  }

  /** Runs {@code cluster down} once. */
  @Override
  public void close() {
    down();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook runs anyway
    }
  }

  private void down() {
    if (!down.compareAndSet(false, true)) {
      return;
    }
    try {
      int exit =
          cli(
              DOWN_TIMEOUT_SECONDS + 30,
              "cluster",
              "down",
              "--dir",
              directory.root().toString(),
              "--timeout",
              DOWN_TIMEOUT_SECONDS + "s");
      if (exit != 0) {
        System.err.println("cairn cluster down exited " + exit + "; see " + cliLog);
      }
    } catch (IOException e) {
      System.err.println(
          "cairn cluster down failed: "
              + e
              + "; stop it with: "
              + cairn
              + " cluster down --dir "
              + directory.root());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private long pid(String process) {
    return directory
        .readPid(process)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "Expected a pid in " + directory.pidFile(process) + ", but there is none"));
  }

  /** Runs {@code bin/cairn <args>}, output appended to the cli log; the exit code. */
  int cli(long timeoutSeconds, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(cairn.toString());
    command.addAll(List.of(args));
    Files.createDirectories(cliLog.getParent());
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(cliLog.toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .start();
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException(
          "Expected 'cairn "
              + String.join(" ", args)
              + "' to end within "
              + timeoutSeconds
              + " s, but it did not; see "
              + cliLog);
    }
    return process.exitValue();
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(no output: " + e.getMessage() + ")";
    }
  }
}
