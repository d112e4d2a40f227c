package io.cairn.benchmarks.hotpath;

import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.benchmarks.BenchmarkFiles;
import io.cairn.broker.BrokerVersion;
import io.cairn.cli.Pause;
import io.cairn.cli.cluster.ClusterLayout;
import io.cairn.restore.BackupRestorer;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.ClusterShape;
import io.cairn.restore.RestoreConfig;
import io.cairn.restore.RestoreResult;
import io.cairn.restore.RestoreTarget;
import io.cairn.scheduler.Clock;
import io.cairn.units.Durations;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The recovery point objective of point-in-time restores under load, and a point-in-time restore
 * beside a full restore of the same state, on the deployed shape: {@code cairn cluster up --archive
 * --marker-interval 1s} (three broker processes, three partitions, replication 3, a gateway, the
 * filesystem store).
 *
 * <ol>
 *   <li>Backup B1 of the empty cluster (the point-in-time restore's base).
 *   <li>{@code cairn load --rate R --duration D}; meanwhile every 250 ms each broker's {@code
 *       /metrics} is read: the RPO at that moment is now minus the oldest of the partitions' newest
 *       archived restore points ({@code cairn_backup_archive_point_timestamp_seconds}, the newest
 *       value any replica reports for a partition). Samples from the load's funding phase on (the
 *       first seconds) to its end are kept: p50, p99, max.
 *   <li>Three seconds after the load, T is taken; backup B2 follows. The cluster goes down.
 *   <li>Alternating rounds: a full restore of B2 and a point-in-time restore to the newest restore
 *       point at or before T (B1 plus the whole load replayed from the archive) of every node into
 *       fresh directories, each timed — the same state, two ways.
 * </ol>
 *
 * <pre>
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp target/benchmarks.jar \
 *   io.cairn.benchmarks.hotpath.RpoBenchmark [dist=../dist/target/cairn] [dir=target/rpo]
 *   [rate=1000] [duration=60s] [markerInterval=1s] [rounds=2]
 * </pre>
 */
public final class RpoBenchmark {

  private static final Clock CLOCK = Clock.system();
  private static final Pattern POINT =
      Pattern.compile(
          "^cairn_backup_archive_point_timestamp_seconds\\{[^}]*partition=\"(\\d+)\"[^}]*\\}"
              + " ([0-9.eE+-]+|NaN)$");

  private RpoBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("dist", "../dist/target/cairn");
    settings.put("dir", "target/rpo");
    settings.put("rate", "1000");
    settings.put("duration", "60s");
    settings.put("markerInterval", "1s");
    settings.put("rounds", "2");
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (eq < 0 || !settings.containsKey(arg.substring(0, eq))) {
        System.err.println(
            "Expected key=value with a key of " + settings.keySet() + ", got " + arg);
        System.exit(2);
      }
      settings.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    System.out.println("rpo: " + settings + ", " + MachineFacts.collect());
    Path dir = Path.of(settings.get("dir")).toAbsolutePath();
    BenchmarkFiles.deleteRecursively(dir);
    Files.createDirectories(dir);
    Duration duration = Durations.parseOrThrow(settings.get("duration"));
    Duration markerInterval = Durations.parseOrThrow(settings.get("markerInterval"));

    List<Double> rpoSeconds = Collections.synchronizedList(new ArrayList<>());
    long base;
    long full;
    Instant pointTime;
    String clusterId;
    Path store;
    try (CairnClusterProcess cluster =
        CairnClusterProcess.up(
            Path.of(settings.get("dist")),
            dir.resolve("cluster"),
            CLOCK,
            false,
            true,
            Optional.of(markerInterval))) {
      ClusterLayout layout = cluster.directory().readLayout().orElseThrow();
      clusterId = layout.clusterId();
      store = cluster.directory().root().resolve("backups");
      base = takeBackup(cluster);
      ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
      HttpClient http = HttpClient.newHttpClient();
      long loadStart = CLOCK.millis();
      long fundingMillis = 15_000;
      sampler.scheduleAtFixedRate(
          () -> {
            Optional<Double> rpo = rpoSeconds(http, layout.managementPorts());
            if (rpo.isPresent() && CLOCK.millis() - loadStart >= fundingMillis) {
              rpoSeconds.add(rpo.get());
            }
          },
          0,
          250,
          TimeUnit.MILLISECONDS);
      long started = CLOCK.nanos();
      int exit =
          cluster.cli(
              duration.toSeconds() + 300,
              "--gateway",
              cluster.gatewayAddress(),
              "load",
              "--rate",
              settings.get("rate"),
              "--duration",
              settings.get("duration"),
              "--accounts",
              "1000");
      sampler.shutdownNow();
      System.out.printf(
          Locale.ROOT,
          "load: exit %d after %.1f s (its report: %s)%n",
          exit,
          (CLOCK.nanos() - started) / 1e9,
          cluster.directory().root().resolveSibling("cluster-cli.log"));
      if (exit != 0) {
        throw new IllegalStateException("Expected the load to exit 0, but it exited " + exit);
      }
      Pause.of(Duration.ofSeconds(3));
      pointTime = Instant.ofEpochMilli(CLOCK.millis());
      Pause.of(Duration.ofMillis(1_100));
      full = takeBackup(cluster);
      Pause.of(Duration.ofSeconds(1));
    }
    report(rpoSeconds, markerInterval);

    ExecutorService storeThreads = Executors.newFixedThreadPool(2);
    try (FilesystemBackupStore fs =
        FilesystemBackupStore.open(
            FilesystemBackupStoreConfig.of(store),
            CLOCK,
            storeThreads,
            storeThreads,
            new SimpleMeterRegistry())) {
      int rounds = Integer.parseInt(settings.get("rounds"));
      for (int round = 1; round <= rounds; round++) {
        for (boolean pointFirst : List.of(round % 2 == 0, round % 2 != 0)) {
          Path target = dir.resolve("restored-" + round + (pointFirst ? "-point" : "-full"));
          BackupSelector selector =
              pointFirst ? new BackupSelector.ToTime(pointTime) : BackupSelector.exact(full);
          long start = CLOCK.nanos();
          List<RestoreResult> results = restore(fs, target, clusterId, selector);
          double seconds = (CLOCK.nanos() - start) / 1e9;
          RestoreResult first = results.get(0);
          System.out.printf(
              Locale.ROOT,
              "round %d %-5s restore: %.2f s, backup %d%s, %d bytes downloaded for 3 nodes%n",
              round,
              pointFirst ? "point" : "full",
              seconds,
              first.backupId(),
              first.restorePoint().map(p -> " + archive to point " + p).orElse(""),
              results.stream().mapToLong(RestoreResult::totalBytes).sum());
          BenchmarkFiles.deleteRecursively(target);
        }
      }
      System.out.println("base backup " + base + ", full backup " + full + ", T " + pointTime);
    } finally {
      storeThreads.shutdownNow();
    }
    System.exit(0);
  }

  private static long takeBackup(CairnClusterProcess cluster)
      throws IOException, InterruptedException {
    // ids are ordered with the markers' (their slots' starts in epoch ms): ahead of the clock by
    // more than the command's start-up, so no marker taken meanwhile is higher
    long id = CLOCK.millis() + 10_000;
    int exit =
        cluster.cli(
            120,
            "--gateway",
            cluster.gatewayAddress(),
            "backup",
            "take",
            Long.toString(id),
            "--wait",
            "--timeout",
            "100s");
    if (exit != 0) {
      throw new IllegalStateException("Expected backup " + id + " to complete, but exit " + exit);
    }
    return id;
  }

  /** Now minus the oldest of the partitions' newest archived restore points; empty if unknown. */
  private static Optional<Double> rpoSeconds(HttpClient http, List<Integer> managementPorts) {
    Map<Integer, Double> newest = new TreeMap<>();
    for (int port : managementPorts) {
      try {
        HttpResponse<String> metrics =
            http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .timeout(Duration.ofSeconds(2))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        for (String line : metrics.body().split("\n")) {
          Matcher m = POINT.matcher(line);
          if (m.matches() && !m.group(2).equals("NaN")) {
            newest.merge(Integer.parseInt(m.group(1)), Double.parseDouble(m.group(2)), Math::max);
          }
        }
      } catch (IOException e) {
        return Optional.empty();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.empty();
      }
    }
    if (newest.size() < CairnClusterProcess.PARTITIONS) {
      return Optional.empty();
    }
    double oldest = newest.values().stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    return Optional.of(CLOCK.millis() / 1000.0 - oldest);
  }

  private static void report(List<Double> samples, Duration markerInterval) {
    List<Double> sorted = new ArrayList<>(samples);
    Collections.sort(sorted);
    if (sorted.isEmpty()) {
      throw new IllegalStateException("Expected RPO samples, but none was taken");
    }
    System.out.printf(
        Locale.ROOT,
        "RPO under load with markers every %s: %d samples, p50 %.2f s, p99 %.2f s, max %.2f s%n",
        Durations.formatExact(markerInterval),
        sorted.size(),
        percentile(sorted, 0.50),
        percentile(sorted, 0.99),
        sorted.get(sorted.size() - 1));
  }

  private static double percentile(List<Double> sorted, double p) {
    int index = (int) Math.ceil(p * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }

  private static List<RestoreResult> restore(
      FilesystemBackupStore store, Path directory, String clusterId, BackupSelector selector) {
    int nodes = CairnClusterProcess.BROKERS;
    ClusterShape shape =
        new ClusterShape(
            nodes, CairnClusterProcess.PARTITIONS, CairnClusterProcess.REPLICATION_FACTOR);
    List<RestoreTarget> targets = new ArrayList<>();
    for (int node = 0; node < nodes; node++) {
      targets.add(
          new RestoreTarget(
              directory.resolve("broker-" + node),
              clusterId,
              node,
              shape,
              BrokerVersion.current()));
    }
    return BackupRestorer.builder()
        .store(store)
        .config(RestoreConfig.defaults())
        .meterRegistry(new SimpleMeterRegistry())
        .build()
        .restoreCluster(targets, selector);
  }
}
