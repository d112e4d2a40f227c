package io.cairn.benchmarks;

import static io.cairn.benchmarks.PartitionOnDisk.account;

import io.cairn.backup.BackupColumnFamily;
import io.cairn.backup.BackupConfig;
import io.cairn.backup.BackupManager;
import io.cairn.backup.BackupMetrics;
import io.cairn.backup.BackupOutcome;
import io.cairn.backup.Checkpoint;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbConfig;
import io.cairn.db.Digest128;
import io.cairn.engine.LedgerColumnFamily;
import io.cairn.journal.JournalConfig;
import io.cairn.journal.SegmentedJournal;
import io.cairn.logstreams.LogStreamWriter;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordValue;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.ThreadPoolActorScheduler;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotConfig;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.streamprocessor.StreamProcessorColumnFamily;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * A partition's backup to the filesystem store ({@code BackupManager} → {@code
 * FilesystemBackupStore}), three figures:
 *
 * <ol>
 *   <li><b>Full backup vs copy.</b> A partition on disk ({@link PartitionOnDisk}) with about {@code
 *       stateMegabytes} of RocksDB state (1M ledger accounts plus 1 KiB history values, random so
 *       incompressible) in a persisted snapshot, and about {@code logMegabytes} of journal (default
 *       128 MiB segments, entries of 40 encoded {@code TRANSFER CREATE} commands). A full backup
 *       (snapshot + every segment) is timed beside {@code cp -r <snapshot dir> <journal dir>
 *       <target> && sync} of the same files, alternating which goes first, {@code rounds} times.
 *   <li><b>Processing while a backup runs.</b> One ledger partition ({@link
 *       LedgerBenchmarkPartition}: one raft member, its own journal and RocksDB, the ledger engine)
 *       under {@code window} in-flight transfers; transfers answered per second while a full backup
 *       of the partition above runs, against the {@code offSeconds} before and after it.
 *   <li><b>Incremental.</b> 1% of the accounts and of the history change, with the log entries of
 *       those changes; a new snapshot and checkpoint; the second backup's copied bytes against the
 *       full one's.
 * </ol>
 *
 * <p>Usage: {@code BackupBenchmark [key=value ...]}; keys and defaults in {@link #main}. Files go
 * to {@code directory} (deleted at the end).
 */
public final class BackupBenchmark {

  private static final Clock CLOCK = Clock.system();
  private static final int RING = 1 << 20;
  private static final LogStreamWriter NO_LOG =
      records -> new WriteResult.Written(1, records.size());

  private final Map<String, String> settings;
  private final Path directory;
  private final PartitionOnDisk partition = new PartitionOnDisk(CLOCK);
  private final ExecutorService storeExecutor;
  private final ExecutorService uploadExecutor = pool("bench-backup-upload", 2);
  private final ThreadPoolActorScheduler scheduler =
      new ThreadPoolActorScheduler("backup-bench", 1, CLOCK, new SimpleMeterRegistry());
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong answered = new AtomicLong();
  private long nextRequestId = 1;
  private int storeCount;

  private BackupBenchmark(Map<String, String> settings) {
    this.settings = settings;
    directory = Path.of(settings.get("directory"));
    storeExecutor =
        pool("bench-backup-store", Math.max(2, Integer.parseInt(settings.get("fileCopies"))));
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("stateMegabytes", "600");
    settings.put("logMegabytes", "400");
    settings.put("accounts", "1000000");
    settings.put("rounds", "3");
    settings.put("throughputRounds", "3");
    settings.put("offSeconds", "4");
    settings.put("window", "64");
    settings.put("fileCopies", "2");
    settings.put("maxBytesPerSecond", "0"); // the store's limit while processing runs (figure 2)
    settings.put("directory", "target/backup-benchmark");
    BenchmarkSettings.apply(settings, args);
    BackupBenchmark benchmark = new BackupBenchmark(settings);
    try {
      benchmark.run();
    } finally {
      benchmark.close();
    }
  }

  private void run() throws Exception {
    deleteRecursively(directory);
    Files.createDirectories(directory);
    List<ColumnFamilyDefinition> families = new ArrayList<>(LedgerColumnFamily.all());
    families.addAll(BackupColumnFamily.all());
    families.addAll(StreamProcessorColumnFamily.all());
    families.add(PartitionOnDisk.HISTORY);
    try (CairnDb db =
            CairnDb.open(
                directory.resolve("state"),
                DbConfig.defaults(),
                families,
                new SimpleMeterRegistry());
        SnapshotStore snapshots =
            SnapshotStore.open(
                directory.resolve("snapshots"),
                SnapshotConfig.defaults(),
                CLOCK,
                new SimpleMeterRegistry(),
                Tags.empty());
        SegmentedJournal journal =
            SegmentedJournal.open(
                JournalConfig.builder()
                    .directory(directory.resolve("journal"))
                    .name("raft-partition-1")
                    .build(),
                new SimpleMeterRegistry())) {
      int accounts = Integer.parseInt(settings.get("accounts"));
      long historyEntries = Long.parseLong(settings.get("stateMegabytes")) * 1024;
      long start = CLOCK.nanos();
      partition.loadState(db, accounts, historyEntries);
      PersistedSnapshot first = partition.snapshot(snapshots, db, 1, 0);
      partition.appendLog(journal, Long.parseLong(settings.get("logMegabytes")) << 20, accounts);
      long firstCheckpoint = partition.lastPosition();
      System.out.printf(
          Locale.ROOT,
          "partition built in %.1f s: snapshot %s (%d files, %d bytes), journal %d segments, %d"
              + " committed bytes, last position %d%n",
          (CLOCK.nanos() - start) / 1e9,
          first.id(),
          first.files().size(),
          first.sizeBytes(),
          journal.segmentFiles().size(),
          journal.segmentFiles().stream().mapToLong(s -> s.committedLengthBytes()).sum(),
          firstCheckpoint);
      System.out.printf(
          Locale.ROOT,
          "source on disk: snapshot %d bytes, journal %d bytes (allocated blocks)%n",
          diskBytes(first.directory()),
          diskBytes(directory.resolve("journal")));

      // 1. full backup vs cp -r + sync
      int rounds = Integer.parseInt(settings.get("rounds"));
      List<Double> ratios = new ArrayList<>();
      Path keptStore = null;
      long fullBytes = 0;
      for (int round = 1; round <= rounds; round++) {
        Path copy = directory.resolve("copy-" + round);
        Path store = directory.resolve("store-" + (++storeCount));
        double copySeconds;
        Timed backup;
        if (round % 2 == 1) {
          copySeconds = copyAndSync(first.directory(), directory.resolve("journal"), copy);
          backup = backup(store, snapshots, journal, 1, firstCheckpoint);
        } else {
          backup = backup(store, snapshots, journal, 1, firstCheckpoint);
          copySeconds = copyAndSync(first.directory(), directory.resolve("journal"), copy);
        }
        long copiedBytes = diskBytes(copy);
        fullBytes = backup.result.copiedBytes();
        ratios.add(backup.seconds / copySeconds);
        System.out.printf(
            Locale.ROOT,
            "round %d (%s first): backup %.2f s (%d files, %d bytes, %.0f MB/s), cp -r + sync %.2f"
                + " s (%d bytes on disk, %.0f MB/s), backup / copy %.2f%n",
            round,
            round % 2 == 1 ? "copy" : "backup",
            backup.seconds,
            backup.result.copiedFileCount(),
            backup.result.copiedBytes(),
            backup.result.copiedBytes() / 1e6 / backup.seconds,
            copySeconds,
            copiedBytes,
            copiedBytes / 1e6 / copySeconds,
            backup.seconds / copySeconds);
        deleteRecursively(copy);
        if (keptStore != null) {
          deleteRecursively(keptStore);
        }
        keptStore = store;
      }
      System.out.printf(Locale.ROOT, "backup / copy: median %.2f of %s%n", median(ratios), ratios);

      // 2. processing throughput while a full backup runs
      throughput(snapshots, journal, firstCheckpoint);

      // 3. incremental: 1% of the accounts and history change
      start = CLOCK.nanos();
      int changedAccounts = accounts / 100;
      long changedHistory = historyEntries / 100;
      partition.change(db, accounts, changedAccounts, historyEntries, changedHistory);
      partition.appendLog(journal, (long) changedAccounts * 60, accounts);
      long secondCheckpoint = partition.lastPosition();
      PersistedSnapshot second =
          partition.snapshot(snapshots, db, journal.getLastIndex(), secondCheckpoint - 1);
      System.out.printf(
          Locale.ROOT,
          "changed %d accounts and %d history values, snapshot %s (%d files, %d bytes) in %.1f s%n",
          changedAccounts,
          changedHistory,
          second.id(),
          second.files().size(),
          second.sizeBytes(),
          (CLOCK.nanos() - start) / 1e9);
      Timed incremental = backup(keptStore, snapshots, journal, 2, secondCheckpoint);
      BackupSaveResult result = incremental.result;
      System.out.printf(
          Locale.ROOT,
          "incremental backup %.2f s: %d files / %d bytes copied, %d files / %d bytes reused;"
              + " copied / full = %.2f%%%n",
          incremental.seconds,
          result.copiedFileCount(),
          result.copiedBytes(),
          result.reusedFileCount(),
          result.reusedBytes(),
          100.0 * result.copiedBytes() / fullBytes);
    } finally {
      deleteRecursively(directory);
    }
  }

  // ---- backups ---------------------------------------------------------------------------------

  private record Timed(double seconds, BackupSaveResult result) {}

  /** An unthrottled backup of checkpoint {@code id} at {@code position} into {@code storeDir}. */
  private Timed backup(
      Path storeDir, SnapshotStore snapshots, SegmentedJournal journal, long id, long position)
      throws IOException {
    return backup(storeDir, snapshots, journal, id, position, 0);
  }

  /** The same into a store limited to {@code maxBytesPerSecond} (0: none). */
  private Timed backup(
      Path storeDir,
      SnapshotStore snapshots,
      SegmentedJournal journal,
      long id,
      long position,
      long maxBytesPerSecond)
      throws IOException {
    Files.createDirectories(storeDir);
    try (FilesystemBackupStore store =
        FilesystemBackupStore.open(
            FilesystemBackupStoreConfig.of(storeDir)
                .withMaxConcurrentFileCopies(Integer.parseInt(settings.get("fileCopies")))
                .withMaxBytesPerSecond(maxBytesPerSecond),
            CLOCK,
            storeExecutor,
            storeExecutor,
            new SimpleMeterRegistry())) {
      BackupManager manager =
          BackupManager.builder()
              .partitionId(1)
              .nodeId(0)
              .partitionCount(1)
              .brokerVersion("0.1.0")
              .store(store)
              .snapshots(snapshots)
              .journal(journal)
              .writer(NO_LOG)
              .uploadExecutor(uploadExecutor)
              .config(BackupConfig.defaults())
              .metrics(new BackupMetrics(new SimpleMeterRegistry(), 1, CLOCK))
              .build();
      scheduler.start(manager).join();
      manager.ready().join();
      long start = CLOCK.nanos();
      BackupOutcome outcome =
          manager
              .takeBackup(new Checkpoint(id, position, CLOCK.millis(), new Digest128(id, position)))
              .join();
      double seconds = (CLOCK.nanos() - start) / 1e9;
      manager.closeAsync().join();
      if (outcome.kind() != BackupOutcome.Kind.COMPLETED) {
        throw new IllegalStateException("Expected the backup to complete, but " + outcome);
      }
      return new Timed(seconds, outcome.saveResult().orElseThrow());
    }
  }

  /** {@code cp -r snapshot journal target && sync}; seconds. */
  private static double copyAndSync(Path snapshot, Path journal, Path target)
      throws IOException, InterruptedException {
    Files.createDirectories(target);
    long start = CLOCK.nanos();
    Process process =
        new ProcessBuilder(
                "sh",
                "-c",
                "cp -r \"$1\" \"$2\" \"$3\" && sync",
                "copy",
                snapshot.toString(),
                journal.toString(),
                target.toString())
            .inheritIO()
            .start();
    if (process.waitFor() != 0) {
      throw new IllegalStateException(
          "Expected cp and sync to succeed, but exit " + process.exitValue());
    }
    return (CLOCK.nanos() - start) / 1e9;
  }

  // ---- throughput
  // --------------------------------------------------------------------------------

  private void throughput(SnapshotStore snapshots, SegmentedJournal journal, long checkpoint)
      throws Exception {
    Path home = directory.resolve("ledger");
    int window = Integer.parseInt(settings.get("window"));
    long offNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(settings.get("offSeconds")));
    try (LedgerBenchmarkPartition partition =
        new LedgerBenchmarkPartition(home, 1, true, 2, CLOCK)) {
      partition.start(
          (streamId, requestId, response) -> {
            answered.incrementAndGet();
            inFlight.decrementAndGet();
          });
      LogStreamWriter writer = partition.leaderStream().writer();
      for (int i = 0; i < 1_000; i++) {
        send(writer, window, AccountIntent.CREATE, new AccountValue(account(i), 0));
        send(writer, window, DepositIntent.DEPOSIT, new DepositValue(account(i), 1_000_000_000L));
      }
      Client client = new Client(writer, window);
      Thread thread = new Thread(client, "bench-client");
      thread.start();
      try {
        LockSupport.parkNanos(offNanos); // warm-up
        List<Double> ratios = new ArrayList<>();
        int rounds = Integer.parseInt(settings.get("throughputRounds"));
        for (int round = 1; round <= rounds; round++) {
          double before = rate(offNanos);
          long startCount = answered.get();
          long start = CLOCK.nanos();
          Path store = directory.resolve("store-" + (++storeCount));
          Timed backup =
              backup(
                  store,
                  snapshots,
                  journal,
                  1,
                  checkpoint,
                  Long.parseLong(settings.get("maxBytesPerSecond")));
          double during = (answered.get() - startCount) / ((CLOCK.nanos() - start) / 1e9);
          double after = rate(offNanos);
          double ratio = during / ((before + after) / 2);
          ratios.add(ratio);
          System.out.printf(
              Locale.ROOT,
              "throughput round %d: %.0f transfers/s before, %.0f during a %.2f s backup of %d"
                  + " bytes, %.0f after; during / around %.2f%n",
              round,
              before,
              during,
              backup.seconds,
              backup.result.copiedBytes(),
              after,
              ratio);
          deleteRecursively(store);
        }
        System.out.printf(
            Locale.ROOT, "throughput during / around: median %.2f of %s%n", median(ratios), ratios);
      } finally {
        client.stop = true;
        thread.join();
      }
    }
  }

  private double rate(long nanos) {
    long count = answered.get();
    long start = CLOCK.nanos();
    LockSupport.parkNanos(nanos);
    return (answered.get() - count) / ((CLOCK.nanos() - start) / 1e9);
  }

  /** Keeps {@code window} same-partition transfers in flight. */
  private final class Client implements Runnable {
    private final LogStreamWriter writer;
    private final int window;
    private final SplittableRandom clientRandom = new SplittableRandom(11);
    private volatile boolean stop;

    Client(LogStreamWriter writer, int window) {
      this.writer = writer;
      this.window = window;
    }

    @Override
    public void run() {
      while (!stop) {
        int from = clientRandom.nextInt(1_000);
        int to = (from + 1 + clientRandom.nextInt(999)) % 1_000;
        send(
            writer,
            window,
            TransferIntent.CREATE,
            new TransferValue(
                account(from),
                account(to),
                1 + clientRandom.nextInt(100),
                ValueDescriptor.NO_PARTITION_ID,
                ValueDescriptor.NO_PARTITION_ID));
      }
    }
  }

  private void send(LogStreamWriter writer, int window, Intent intent, RecordValue value) {
    while (inFlight.get() >= window) {
      LockSupport.parkNanos(20_000);
    }
    long requestId = nextRequestId++ & (RING - 1);
    Record command =
        new Record(
            RecordMetadata.builder()
                .command(intent)
                .requestId(requestId)
                .requestStreamId(1)
                .build(),
            value);
    inFlight.incrementAndGet();
    while (true) {
      WriteResult result = writer.tryWrite(command);
      if (result.isWritten()) {
        return;
      }
      if (!(result instanceof WriteResult.Backpressure)) {
        throw new IllegalStateException("Expected the leader to take the command, but " + result);
      }
      LockSupport.parkNanos(50_000);
    }
  }

  // ---- helpers
  // -----------------------------------------------------------------------------------

  private static long diskBytes(Path path) throws IOException {
    try (Stream<Path> files = Files.walk(path)) {
      return files
          .filter(Files::isRegularFile)
          .mapToLong(
              p -> {
                try {
                  return (Long) Files.getAttribute(p, "unix:blocks") * 512L;
                } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
                  try {
                    return Files.size(p);
                  } catch (IOException inner) {
                    throw new UncheckedIOException(inner);
                  }
                }
              })
          .sum();
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private void close() {
    scheduler.close();
    storeExecutor.shutdownNow();
    uploadExecutor.shutdownNow();
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

  private static void deleteRecursively(Path path) {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(path)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
