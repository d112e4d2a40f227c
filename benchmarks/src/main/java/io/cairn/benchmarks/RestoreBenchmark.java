package io.cairn.benchmarks;

import io.cairn.backup.Checkpoint;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.layout.StoreLayout;
import io.cairn.broker.Broker;
import io.cairn.broker.BrokerTestCluster;
import io.cairn.broker.BrokerVersion;
import io.cairn.broker.partition.PartitionHealthStatus;
import io.cairn.restore.BackupRestorer;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.BackupVerifier;
import io.cairn.restore.ClusterShape;
import io.cairn.restore.PartitionProgress;
import io.cairn.restore.RestoreConfig;
import io.cairn.restore.RestoreListener;
import io.cairn.restore.RestorePhase;
import io.cairn.restore.RestoreResult;
import io.cairn.restore.RestoreTarget;
import io.cairn.restore.VerifyReport;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Restore of a real backup from the filesystem store ({@link BackupRestorer}) beside {@code cp -r}
 * of the same stored files, the time until a broker opened on the restored directory is ready and
 * processing, and {@link BackupVerifier} throughput (quick and full) beside a plain read + CRC32C
 * of the same bytes. The backup is built once by {@link LedgerBackupBuilder} (a real broker under
 * ledger load) and reused by every round, and by later runs when {@code keepBackup=true}.
 *
 * <p>Each round:
 *
 * <ol>
 *   <li><b>restore vs copy</b>, alternating which goes first: {@code BackupRestorer.restore} of
 *       backup 1 into a new directory (node 0 of a 1-node cluster hosting every partition), then
 *       <b>ready</b>: a broker (without a backup store) opened on the restored directory, timed
 *       from {@code Broker.open} until every partition leads and the broker reports ready, and
 *       until every partition has processed the kept {@code CHECKPOINT CREATE} again (its replay is
 *       over and it processes commands) with the digest the backup recorded; and {@code cp -r
 *       <store>/contents <new directory>}. Each copy is followed by a separately timed {@code sync}
 *       and deleted before the other side writes;
 *   <li><b>verify</b>, in rotating order: {@code BackupVerifier.verify} quick (files only) and full
 *       (download, install, rebuild, digest), and a plain read + CRC32C of every stored file
 *       ({@code crcThreads} threads, one partition's files per task).
 * </ol>
 *
 * <p>Usage: {@code RestoreBenchmark [key=value ...]}; keys and defaults in {@link #main}.
 */
public final class RestoreBenchmark {

  private static final Clock CLOCK = Clock.system();

  private final Map<String, String> settings;
  private final Path directory;
  private final ExecutorService storeExecutor = pool("bench-restore-store", 4);
  private final ExecutorService crcExecutor;

  private final List<Double> restoreSeconds = new ArrayList<>();
  private final List<Double> copySeconds = new ArrayList<>();
  private final List<Double> restoreSyncSeconds = new ArrayList<>();
  private final List<Double> copySyncSeconds = new ArrayList<>();
  private final List<Double> ratios = new ArrayList<>();
  private final List<Double> syncedRatios = new ArrayList<>();
  private final List<Double> startSeconds = new ArrayList<>();
  private final List<Double> leadSeconds = new ArrayList<>();
  private final List<Double> processingSeconds = new ArrayList<>();
  private final List<Double> quickSeconds = new ArrayList<>();
  private final List<Double> fullSeconds = new ArrayList<>();
  private final List<String> fullFailures = new ArrayList<>();
  private final List<Double> crcSeconds = new ArrayList<>();

  private RestoreBenchmark(Map<String, String> settings) {
    this.settings = settings;
    directory = Path.of(settings.get("directory")).toAbsolutePath();
    crcExecutor = pool("bench-restore-crc", Integer.parseInt(settings.get("crcThreads")));
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> settings = new LinkedHashMap<>();
    // the backup's size (10^6 bytes), at least; 1000 for the recorded run
    settings.put("megabytes", "20");
    settings.put("rounds", "3");
    settings.put("partitions", "3");
    settings.put("stateShare", "0.5"); // of the bytes, in the snapshots; the rest is log
    settings.put("accountIdBytes", "120");
    settings.put("fundedAccounts", "2000");
    settings.put("crossPercent", "10");
    settings.put("crcThreads", Integer.toString(RestoreConfig.PARTITION_CONCURRENCY_DEFAULT));
    settings.put("keepBackup", "false");
    settings.put("seed", "42");
    settings.put("directory", "target/restore-benchmark");
    BenchmarkSettings.apply(settings, args);
    RestoreBenchmark benchmark = new RestoreBenchmark(settings);
    try {
      benchmark.run();
    } finally {
      benchmark.close();
    }
  }

  private void run() throws Exception {
    System.out.println("load average before: " + BenchmarkFiles.loadAverage());
    Path backupDirectory = directory.resolve("backup");
    LedgerBackupBuilder builder =
        new LedgerBackupBuilder(
            backupDirectory,
            Integer.parseInt(settings.get("partitions")),
            Long.parseLong(settings.get("megabytes")) * 1_000_000L,
            Double.parseDouble(settings.get("stateShare")),
            Integer.parseInt(settings.get("accountIdBytes")),
            Integer.parseInt(settings.get("fundedAccounts")),
            Integer.parseInt(settings.get("crossPercent")),
            Long.parseLong(settings.get("seed")));
    LedgerBackupBuilder.Built backup = builder.reuseOrBuild(storeExecutor);
    Path contents = new StoreLayout(backup.store()).contentsRoot();
    System.out.printf(
        Locale.ROOT,
        "backup %d: %d partitions, %d files, %,d bytes (descriptors), %,d bytes in %s, %,d on"
            + " disk%n",
        backup.backupId(),
        backup.partitions(),
        backup.files(),
        backup.bytes(),
        BenchmarkFiles.sizeBytes(contents),
        contents,
        BenchmarkFiles.diskBytes(contents));
    System.out.println("load average after building: " + BenchmarkFiles.loadAverage());
    Path work = directory.resolve("rounds");
    BenchmarkFiles.deleteRecursively(work);
    Files.createDirectories(work);
    try (FilesystemBackupStore store =
        LedgerBackupBuilder.openStore(backup.store(), storeExecutor)) {
      int rounds = Integer.parseInt(settings.get("rounds"));
      for (int round = 1; round <= rounds; round++) {
        restoreVersusCopy(
            round,
            store,
            backup,
            contents,
            work.resolve("restored-" + round),
            work.resolve("copy-" + round));
        verify(round, store, backup, contents, work.resolve("verify-" + round));
        System.out.println("  load average: " + BenchmarkFiles.loadAverage());
      }
    } finally {
      BenchmarkFiles.deleteRecursively(work);
      if (!Boolean.parseBoolean(settings.get("keepBackup"))) {
        BenchmarkFiles.deleteRecursively(directory);
      }
    }
    summary(backup.bytes());
    System.out.println("load average after: " + BenchmarkFiles.loadAverage());
  }

  // ---- 1. restore vs cp -r ----------------------------------------------------------------------

  /**
   * Restore, then a broker on the restored directory, and {@code cp -r}, in this round's order.
   * Each side's files are deleted before the other side writes: on this machine writing into memory
   * the page cache has not used lately is slower (see README), so the second of two writers that
   * both keep their output would pay for it.
   */
  private void restoreVersusCopy(
      int round,
      FilesystemBackupStore store,
      LedgerBackupBuilder.Built backup,
      Path contents,
      Path restored,
      Path copy)
      throws Exception {
    boolean copyFirst = round % 2 == 1;
    double[] copied = null;
    if (copyFirst) {
      copied = copy(contents, copy);
    }
    PhaseTimes phases = new PhaseTimes();
    long start = CLOCK.nanos();
    RestoreResult result =
        restorer(store, phases)
            .restore(target(backup, restored), BackupSelector.exact(backup.backupId()));
    double restoreTook = (CLOCK.nanos() - start) / 1e9;
    double restoreSync = BenchmarkFiles.sync();
    long restoredBytes = BenchmarkFiles.sizeBytes(restored);
    String readiness = ready(backup, restored);
    BenchmarkFiles.deleteRecursively(restored);
    if (!copyFirst) {
      copied = copy(contents, copy);
    }
    restoreSeconds.add(restoreTook);
    restoreSyncSeconds.add(restoreSync);
    copySeconds.add(copied[0]);
    copySyncSeconds.add(copied[1]);
    ratios.add(restoreTook / copied[0]);
    syncedRatios.add((restoreTook + restoreSync) / (copied[0] + copied[1]));
    System.out.printf(
        Locale.ROOT,
        "round %d (%s first): restore %.2f s (%,d bytes restored, %d partitions, %.0f MB/s of the"
            + " backup) + sync %.2f s; cp -r %.2f s (%,d bytes) + sync %.2f s; restore / cp %.2f,"
            + " with the syncs %.2f%n",
        round,
        copyFirst ? "cp" : "restore",
        restoreTook,
        restoredBytes,
        result.partitions().size(),
        result.totalBytes() / 1e6 / restoreTook,
        restoreSync,
        copied[0],
        (long) copied[2],
        copied[1],
        restoreTook / copied[0],
        (restoreTook + restoreSync) / (copied[0] + copied[1]));
    System.out.println("  restore per partition: " + phases.describe());
    System.out.println(
        "  records after the cut dropped per partition: "
            + result.partitions().stream()
                .map(r -> r.partitionId() + ": " + r.droppedRecords())
                .toList());
    System.out.println(readiness);
  }

  /**
   * {@code cp -r contents copy}, then {@code sync}, then the copy is deleted: seconds of each, and
   * the bytes copied.
   */
  private static double[] copy(Path contents, Path copy) throws Exception {
    double took = BenchmarkFiles.run("cp", "-r", contents.toString(), copy.toString());
    double sync = BenchmarkFiles.sync();
    long bytes = BenchmarkFiles.sizeBytes(copy);
    BenchmarkFiles.deleteRecursively(copy);
    return new double[] {took, sync, bytes};
  }

  private static BackupRestorer restorer(FilesystemBackupStore store, RestoreListener listener) {
    return BackupRestorer.builder()
        .store(store)
        .listener(listener)
        .config(RestoreConfig.defaults())
        .meterRegistry(new SimpleMeterRegistry())
        .build();
  }

  private static RestoreTarget target(LedgerBackupBuilder.Built backup, Path directory) {
    return new RestoreTarget(
        directory,
        BenchmarkBroker.CLUSTER_ID,
        0,
        new ClusterShape(1, backup.partitions(), 1),
        BrokerVersion.current());
  }

  // ---- 2. a broker on the restored directory ----------------------------------------------------

  /** Opens a broker on {@code restored}; records the times and returns a line describing them. */
  private String ready(LedgerBackupBuilder.Built backup, Path restored) {
    long start = CLOCK.nanos();
    double led = -1;
    double processing = -1;
    double started;
    try (BrokerTestCluster cluster =
        BenchmarkBroker.start(restored, Optional.empty(), backup.partitions())) {
      Broker broker = cluster.broker(0);
      started = (CLOCK.nanos() - start) / 1e9;
      long deadline = start + BenchmarkBroker.TIMEOUT.toNanos();
      Map<Integer, Checkpoint> processed = new LinkedHashMap<>();
      while (processing < 0) {
        if (CLOCK.nanos() > deadline) {
          throw new IllegalStateException(
              "Expected the restored broker to process within "
                  + BenchmarkBroker.TIMEOUT
                  + ", but: "
                  + broker.health());
        }
        if (broker.health().status() == PartitionHealthStatus.FAILED) {
          throw new IllegalStateException(
              "Expected a healthy restored broker, but " + broker.health());
        }
        if (led < 0 && broker.health().ready() && BenchmarkBroker.allLead(broker)) {
          led = (CLOCK.nanos() - start) / 1e9;
        }
        if (led >= 0) {
          for (int p = 1; p <= backup.partitions(); p++) {
            if (!processed.containsKey(p)) {
              Optional<Checkpoint> checkpoint = BenchmarkBroker.latestCheckpoint(broker, p);
              if (checkpoint.isPresent() && checkpoint.get().id() >= backup.backupId()) {
                processed.put(p, checkpoint.get());
              }
            }
          }
          if (processed.size() == backup.partitions()) {
            processing = (CLOCK.nanos() - start) / 1e9;
          }
        }
        LockSupport.parkNanos(2_000_000);
      }
      for (Map.Entry<Integer, Checkpoint> entry : processed.entrySet()) {
        String expected = backup.digests().get(entry.getKey());
        if (entry.getValue().id() != backup.backupId()
            || !entry.getValue().stateDigestHex().equals(expected)) {
          throw new IllegalStateException(
              "Expected partition "
                  + entry.getKey()
                  + " to process CHECKPOINT CREATE("
                  + backup.backupId()
                  + ") again into digest "
                  + expected
                  + ", but it holds "
                  + entry.getValue());
        }
      }
    }
    startSeconds.add(started);
    leadSeconds.add(led);
    processingSeconds.add(processing);
    return String.format(
        Locale.ROOT,
        "  broker on the restored directory: open + start returned %.2f s; every partition leads,"
            + " broker ready %.2f s; every partition processed the kept CHECKPOINT CREATE (digest"
            + " as recorded) %.2f s",
        started,
        led,
        processing);
  }

  // ---- 3. verify --------------------------------------------------------------------------------

  private void verify(
      int round,
      FilesystemBackupStore store,
      LedgerBackupBuilder.Built backup,
      Path contents,
      Path scratch)
      throws Exception {
    PhaseTimes phases = new PhaseTimes();
    BackupVerifier verifier =
        BackupVerifier.builder()
            .store(store)
            .listener(phases)
            .meterRegistry(new SimpleMeterRegistry())
            .build();
    List<List<Path>> groups = new ArrayList<>();
    for (int p = 1; p <= backup.partitions(); p++) {
      groups.add(BenchmarkFiles.files(contents.resolve(Integer.toString(p))));
    }
    double[] took = new double[3];
    long xor = 0;
    boolean fullClean = true;
    String fullFailure = "";
    for (int i = 0; i < 3; i++) {
      int step = (round - 1 + i) % 3;
      long start = CLOCK.nanos();
      if (step == 2) {
        xor = BenchmarkFiles.readWithCrc32c(groups, crcExecutor);
      } else {
        phases.clear(); // quick sends no progress; the times printed are the full verify's
        VerifyReport report =
            verifier.verify(BackupSelector.exact(backup.backupId()), scratch, step == 0);
        if (!report.isClean()) {
          if (step == 0) {
            throw new IllegalStateException("Expected a clean backup, but " + report.describe());
          }
          // a full verify that fails is reported, and kept out of the medians
          fullClean = false;
          fullFailure = report.describe();
        }
      }
      took[step] = (CLOCK.nanos() - start) / 1e9;
    }
    quickSeconds.add(took[0]);
    if (fullClean) {
      fullSeconds.add(took[1]);
    } else {
      fullFailures.add(fullFailure);
      System.out.println("  FULL VERIFY NOT CLEAN (left out of the medians): " + fullFailure);
    }
    crcSeconds.add(took[2]);
    double mb = backup.bytes() / 1e6;
    System.out.printf(
        Locale.ROOT,
        "  verify: quick %.2f s (%.0f MB/s), full %.2f s (%.0f MB/s), read + CRC32C %.2f s (%.0f"
            + " MB/s, %d threads, xor %08x)%n",
        took[0],
        mb / took[0],
        took[1],
        mb / took[1],
        took[2],
        mb / took[2],
        Integer.parseInt(settings.get("crcThreads")),
        xor);
    System.out.println("  full verify per partition: " + phases.describe());
  }

  // ---- summary ----------------------------------------------------------------------------------

  private void summary(long bytes) {
    double mb = bytes / 1e6;
    System.out.printf(
        Locale.ROOT,
        "%nrestore (s): %s; cp -r (s): %s; sync after restore (s): %s; sync after cp (s): %s%n",
        BenchmarkFiles.seconds(restoreSeconds),
        BenchmarkFiles.seconds(copySeconds),
        BenchmarkFiles.seconds(restoreSyncSeconds),
        BenchmarkFiles.seconds(copySyncSeconds));
    System.out.printf(
        Locale.ROOT,
        "restore / cp per round: %s; median %.2f (goal <= 1.25); with the syncs: %s, median %.2f%n",
        BenchmarkFiles.seconds(ratios),
        BenchmarkFiles.median(ratios),
        BenchmarkFiles.seconds(syncedRatios),
        BenchmarkFiles.median(syncedRatios));
    System.out.printf(
        Locale.ROOT,
        "medians: restore %.2f s (%.0f MB/s), cp -r %.2f s (%.0f MB/s)%n",
        BenchmarkFiles.median(restoreSeconds),
        mb / BenchmarkFiles.median(restoreSeconds),
        BenchmarkFiles.median(copySeconds),
        mb / BenchmarkFiles.median(copySeconds));
    System.out.printf(
        Locale.ROOT,
        "restored broker: open + start (s) %s, median %.2f; leads and ready (s) %s, median %.2f;"
            + " processing (s) %s, median %.2f%n",
        BenchmarkFiles.seconds(startSeconds),
        BenchmarkFiles.median(startSeconds),
        BenchmarkFiles.seconds(leadSeconds),
        BenchmarkFiles.median(leadSeconds),
        BenchmarkFiles.seconds(processingSeconds),
        BenchmarkFiles.median(processingSeconds));
    double full = fullSeconds.isEmpty() ? Double.NaN : BenchmarkFiles.median(fullSeconds);
    System.out.printf(
        Locale.ROOT,
        "verify medians: quick %.2f s (%.0f MB/s), full %.2f s (%.0f MB/s; clean in %d of %d"
            + " rounds), read + CRC32C %.2f s (%.0f MB/s); quick / plain %.2f%n",
        BenchmarkFiles.median(quickSeconds),
        mb / BenchmarkFiles.median(quickSeconds),
        full,
        mb / full,
        fullSeconds.size(),
        fullSeconds.size() + fullFailures.size(),
        BenchmarkFiles.median(crcSeconds),
        mb / BenchmarkFiles.median(crcSeconds),
        BenchmarkFiles.median(quickSeconds) / BenchmarkFiles.median(crcSeconds));
  }

  /**
   * The elapsed time of each partition when it entered each phase (restore and verify progress
   * events carry the time since the partition started).
   */
  private static final class PhaseTimes implements RestoreListener {
    private final Map<Integer, Map<RestorePhase, Duration>> entered = new TreeMap<>();

    @Override
    public synchronized void onProgress(PartitionProgress progress) {
      entered
          .computeIfAbsent(progress.partitionId(), p -> new EnumMap<>(RestorePhase.class))
          .putIfAbsent(progress.phase(), progress.elapsed());
    }

    synchronized void clear() {
      entered.clear();
    }

    /** Per partition: seconds downloading, installing, rebuilding (verify only), in total. */
    synchronized String describe() {
      StringBuilder text = new StringBuilder();
      for (Map.Entry<Integer, Map<RestorePhase, Duration>> partition : entered.entrySet()) {
        Map<RestorePhase, Duration> at = partition.getValue();
        Duration done = at.getOrDefault(RestorePhase.DONE, at.get(RestorePhase.FAILED));
        Duration installing = at.get(RestorePhase.INSTALLING);
        Duration rebuilding = at.get(RestorePhase.REBUILDING);
        if (done == null || installing == null) {
          continue;
        }
        Duration installed = rebuilding != null ? rebuilding : done;
        text.append(text.isEmpty() ? "" : "; ")
            .append(
                String.format(
                    Locale.ROOT,
                    "%d: download %.2f s, install %.2f s%s, %.2f s",
                    partition.getKey(),
                    installing.toNanos() / 1e9,
                    installed.minus(installing).toNanos() / 1e9,
                    rebuilding == null
                        ? ""
                        : String.format(
                            Locale.ROOT,
                            ", rebuild %.2f s",
                            done.minus(rebuilding).toNanos() / 1e9),
                    done.toNanos() / 1e9));
      }
      return text.toString();
    }
  }

  private void close() {
    storeExecutor.shutdownNow();
    crcExecutor.shutdownNow();
  }

  private static ExecutorService pool(String name, int threads) {
    AtomicInteger count = new AtomicInteger();
    return Executors.newFixedThreadPool(
        threads,
        runnable -> {
          Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }
}
