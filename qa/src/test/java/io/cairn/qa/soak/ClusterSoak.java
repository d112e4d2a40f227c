package io.cairn.qa.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backupstore.BackupEncryption;
import io.cairn.client.BackupInfo;
import io.cairn.client.BackupState;
import io.cairn.client.CairnClient;
import io.cairn.client.ManagementClient;
import io.cairn.files.DurableFiles;
import io.cairn.qa.BackupStoreSpec;
import io.cairn.qa.EmbeddedCluster;
import io.cairn.qa.support.ClusterRestore;
import io.cairn.qa.support.LedgerOracle;
import io.cairn.qa.support.Phases;
import io.cairn.qa.support.Seeds;
import io.cairn.qa.support.TransferLoad;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.ClusterShape;
import io.cairn.units.Durations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soak: a three-broker cluster under cross-partition transfer load for {@code
 * cairn.soak.duration} (the {@code soak} profile: 1h) with a scheduled backup every minute, a
 * marker every 10 s, the log archive, retention keeping 5 backups, a leader killed and restarted in
 * every window of {@code cairn.soak.window} (2m), money checked conserved at the end of every
 * window, and every 10 minutes the newest completed backup restored into a new cluster that must
 * add up to the deposits. After every window the JVM's heap after a full GC, resident memory, open
 * files, threads and disk use are sampled; at the end they are written as CSV and plotted ({@code
 * target/soak/soak.png}) with the kinds of open files whose count changed ({@code
 * soak-open-files.txt}), and the last third of the run must stay within a margin of the first third
 * (after 6 minutes of warm-up): no leak. Not part of {@code mvn verify}: {@code mvn -pl qa verify
 * -Psoak} (see qa/README.md).
 */
final class ClusterSoak {

  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final Duration RESTORE_EVERY = Duration.ofMinutes(10);
  private static final ClusterShape SHAPE = new ClusterShape(3, 3, 3);

  /**
   * Until retention holds its 5 backups (one a minute) the store only grows: samples before this
   * are not compared.
   */
  private static final Duration WARM_UP = Duration.ofMinutes(6);

  @TempDir Path directory;

  @Test
  void staysBoundedUnderLoadBackupsLeaderKillsAndRestores() throws Exception {
    Duration duration = setting("cairn.soak.duration", "10m");
    Duration window = setting("cairn.soak.window", "2m");
    long seed = Seeds.seed("ClusterSoak");
    Phases phases = new Phases("ClusterSoak");
    Path store = Files.createDirectories(directory.resolve("backups"));
    Path data = directory.resolve("source");
    Path report = Files.createDirectories(Path.of("target", "soak"));
    List<ResourceSample> samples = new ArrayList<>();
    long start = System.nanoTime();
    int restores = 0;

    try (EmbeddedCluster cluster = source(data, store)) {
      cluster.start().awaitHealthy();
      String clusterId = cluster.config().clusterId();
      CairnClient client = cluster.client();
      List<String> accounts = LedgerOracle.accounts(cluster, "soak", 4);
      LedgerOracle oracle = LedgerOracle.fund(client, accounts, 1_000_000);
      long deposited = oracle.total();
      long lastRestore = System.nanoTime();
      samples.add(ResourceSample.take(0, List.of(data, store), data, journalReaders(cluster)));
      var firstFileKinds = ResourceSample.openFileKinds();

      for (int round = 1; elapsed(start).compareTo(duration) < 0; round++) {
        TransferLoad load = new TransferLoad(client, accounts, seed + round, 8, 100);
        int partition = 1 + round % SHAPE.partitionCount();
        int leader = -1;
        load.start();
        try {
          Thread.sleep(window.toMillis() / 2);
          leader = cluster.awaitLeader(partition);
          cluster.kill(leader);
          cluster.awaitNewLeader(partition, leader);
          cluster.restart(leader);
          Thread.sleep(window.toMillis() / 2);
        } finally {
          load.stop(TIMEOUT);
        }
        oracle.awaitConserved(client, load, TIMEOUT);
        oracle = LedgerOracle.settledAt(oracle.balances(client));
        phases.mark(
            "round "
                + round
                + ": node "
                + leader
                + ", leader of partition "
                + partition
                + ", killed and restarted; money conserved after "
                + load);

        if (Duration.ofNanos(System.nanoTime() - lastRestore).compareTo(RESTORE_EVERY) >= 0) {
          restoreNewest(client, clusterId, store, deposited, round);
          restores++;
          lastRestore = System.nanoTime();
          phases.mark("round " + round + ": newest backup restored, money conserved");
        }
        samples.add(
            ResourceSample.take(
                elapsed(start).toSeconds(), List.of(data, store), data, journalReaders(cluster)));
      }
      if (restores == 0) {
        restoreNewest(client, clusterId, store, deposited, 0);
        restores++;
      }
      writeFileKinds(report.resolve("soak-open-files.txt"), firstFileKinds);
    }

    writeReport(report, samples, restores);
    assertBounded(samples);
  }

  private EmbeddedCluster source(Path data, Path store) {
    return EmbeddedCluster.builder()
        .brokers(3)
        .partitions(3)
        .replicationFactor(3)
        .backupStore(BackupStoreSpec.filesystem(store))
        .dataDirectory(data)
        .brokerSetting("data.snapshotInterval", "30s")
        .brokerSetting("backup.schedule.interval", "1m")
        .brokerSetting("backup.schedule.markerInterval", "10s")
        .brokerSetting("backup.retention.maxCount", "5")
        .brokerSetting("backup.archive.enabled", "true")
        .brokerSetting("backup.archive.interval", "1s")
        .brokerSetting("processing.creditRetryInterval", "100ms")
        .brokerSetting("processing.creditRetryIntervalMax", "200ms")
        .gatewayRequestTimeout(Duration.ofSeconds(5))
        .build();
  }

  /** Restores the newest completed backup into a new cluster, checks it and removes it. */
  private void restoreNewest(
      CairnClient client, String clusterId, Path store, long deposited, int round)
      throws IOException {
    long newest =
        client.listAllBackups().stream()
            .filter(b -> b.state() == BackupState.COMPLETED)
            .mapToLong(BackupInfo::backupId)
            .max()
            .orElseThrow(() -> new AssertionError("Expected a completed backup, but none is"));
    Path restored = directory.resolve("restored-" + round);
    ClusterRestore.restore(
        ClusterRestore.filesystem(store, BackupEncryption.off()),
        restored,
        clusterId,
        SHAPE,
        BackupSelector.exact(newest));
    try (EmbeddedCluster cluster =
        EmbeddedCluster.builder()
            .brokers(3)
            .partitions(3)
            .replicationFactor(3)
            .backupStore(
                BackupStoreSpec.filesystem(Files.createDirectories(restored.resolve("own"))))
            .dataDirectory(restored)
            .brokerSetting("processing.creditRetryInterval", "100ms")
            .brokerSetting("processing.creditRetryIntervalMax", "200ms")
            .build()) {
      cluster.start().awaitHealthy();
      LedgerOracle.awaitTotal(
          cluster.client(),
          LedgerOracle.accounts(cluster, "soak", 4),
          deposited,
          "backup " + newest + " restored",
          TIMEOUT);
    }
    DurableFiles.deleteRecursively(restored);
  }

  /**
   * The last third of the samples against the first third, the warm-up left out: a leak grows with
   * time, a working set does not.
   */
  private static void assertBounded(List<ResourceSample> samples) {
    List<ResourceSample> steady =
        samples.stream().filter(s -> s.elapsedSeconds() >= WARM_UP.toSeconds()).toList();
    assertThat(steady)
        .as("samples after the warm-up of %s (run the soak for 20 minutes or more)", WARM_UP)
        .hasSizeGreaterThanOrEqualTo(3);
    int third = Math.max(1, steady.size() / 3);
    List<ResourceSample> early = steady.subList(0, third);
    List<ResourceSample> late = steady.subList(steady.size() - third, steady.size());
    long mib = 1024 * 1024;
    assertThat(max(late, ResourceSample::heapAfterGcBytes))
        .as("heap after GC, late against early")
        .isLessThanOrEqualTo(max(early, ResourceSample::heapAfterGcBytes) * 3 / 2 + 64 * mib);
    assertThat(max(late, ResourceSample::rssBytes))
        .as("resident memory, late against early")
        .isLessThanOrEqualTo(max(early, ResourceSample::rssBytes) * 5 / 4 + 256 * mib);
    assertThat(max(late, ResourceSample::threads))
        .as("threads, late against early")
        .isLessThanOrEqualTo(max(early, ResourceSample::threads) + 16);
    assertThat(max(late, ResourceSample::openFiles))
        .as("open files (RocksDB table files apart), late against early")
        .isLessThanOrEqualTo(max(early, ResourceSample::openFiles) + 64);
    for (ResourceSample sample : samples) {
      assertThat(sample.tableFilesOpen())
          .as(
              "RocksDB table files open at %d s, against those on disk (compaction deletes some"
                  + " meanwhile)",
              sample.elapsedSeconds())
          .isLessThanOrEqualTo(sample.tableFilesLive() + 32);
    }
    assertThat(max(late, ResourceSample::journalReaders))
        .as("journal readers, late against early (a reader not closed grows them)")
        .isLessThanOrEqualTo(max(early, ResourceSample::journalReaders) + 9);
    assertThat(max(late, ResourceSample::diskBytes))
        .as("disk used, late against early (retention and compaction bound it)")
        .isLessThanOrEqualTo(max(early, ResourceSample::diskBytes) * 2 + 64 * mib);
  }

  private static long max(List<ResourceSample> samples, ToLongFunction<ResourceSample> measure) {
    return samples.stream().mapToLong(measure).max().orElseThrow();
  }

  private static void writeReport(Path report, List<ResourceSample> samples, int restores)
      throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add(ResourceSample.csvHeader());
    samples.forEach(sample -> lines.add(sample.csv()));
    Files.write(report.resolve("soak.csv"), lines);
    SoakChart.write(
        "Cairn soak: 3 brokers, " + samples.size() + " samples, " + restores + " restores",
        samples,
        report.resolve("soak.png"));
    System.out.println("[ClusterSoak] wrote " + report.toAbsolutePath().resolve("soak.png"));
  }

  /** The kinds of open files whose count changed since the first sample, with both counts. */
  private static void writeFileKinds(Path file, SortedMap<String, Integer> first)
      throws IOException {
    var last = ResourceSample.openFileKinds();
    SortedSet<String> kinds = new TreeSet<>(first.keySet());
    kinds.addAll(last.keySet());
    List<String> lines = new ArrayList<>();
    lines.add("first\tlast\tkind of open file (digits as #)");
    for (String kind : kinds) {
      int before = first.getOrDefault(kind, 0);
      int after = last.getOrDefault(kind, 0);
      if (before != after) {
        lines.add(before + "\t" + after + "\t" + kind);
      }
    }
    Files.write(file, lines);
  }

  /** The running brokers' open journal readers, from their {@code /metrics}. */
  private static long journalReaders(EmbeddedCluster cluster) {
    long readers = 0;
    for (int nodeId : cluster.runningBrokerIds()) {
      String metrics = ManagementClient.of(cluster.brokerManagementUri(nodeId)).metrics();
      for (String line : metrics.split("\n")) {
        if (line.startsWith("cairn_journal_readers")) {
          readers += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        }
      }
    }
    return readers;
  }

  private static Duration setting(String property, String fallback) {
    return Durations.parseOrThrow(System.getProperty(property, fallback));
  }

  private static Duration elapsed(long startNanos) {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }
}
