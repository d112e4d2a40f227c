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

  private BackupBenchmark(final Map<String, String> settings) {
    this.settings = settings;
    directory = Path.of(settings.get("directory"));
    storeExecutor =
        pool("bench-backup-store", Math.max(2, Integer.parseInt(settings.get("fileCopies"))));
  }

  public static void main(final String[] args) throws Exception {
    final Map<String, String> settings = new LinkedHashMap<>();
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
    for (final String arg : args) {
      final int eq = arg.indexOf('=');
      if (eq < 1 || !settings.containsKey(arg.substring(0, eq))) {
        throw new IllegalArgumentException(
            "Expected key=value with a key of " + settings.keySet() + ", but was '" + arg + "'");
      }
      settings.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    System.out.println("settings " + settings);
    final BackupBenchmark benchmark = new BackupBenchmark(settings);
    try {
      benchmark.run();
    } finally {
      benchmark.close();
    }
  }

  private void run() throws Exception {
    deleteRecursively(directory);
    Files.createDirectories(directory);
    final List<ColumnFamilyDefinition> families = new ArrayList<>(LedgerColumnFamily.all());
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
      final int accounts = Integer.parseInt(settings.get("accounts"));
      final long historyEntries = Long.parseLong(settings.get("stateMegabytes")) * 1024;
      long start = CLOCK.nanos();
      partition.loadState(db, accounts, historyEntries);
      final PersistedSnapshot first = partition.snapshot(snapshots, db, 1, 0);
      partition.appendLog(journal, Long.parseLong(settings.get("logMegabytes")) << 20, accounts);
      final long firstCheckpoint = partition.lastPosition();
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
      final int rounds = Integer.parseInt(settings.get("rounds"));
      final List<Double> ratios = new ArrayList<>();
      Path keptStore = null;
      long fullBytes = 0;
      for (int round = 1; round <= rounds; round++) {
        final Path copy = directory.resolve("copy-" + round);
        final Path store = directory.resolve("store-" + (++storeCount));
        final double copySeconds;
        final Timed backup;
        if (round % 2 == 1) {
          copySeconds = copyAndSync(first.directory(), directory.resolve("journal"), copy);
          backup = backup(store, snapshots, journal, 1, firstCheckpoint);
        } else {
          backup = backup(store, snapshots, journal, 1, firstCheckpoint);
          copySeconds = copyAndSync(first.directory(), directory.resolve("journal"), copy);
        }
        final long copiedBytes = diskBytes(copy);
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
      final int changedAccounts = accounts / 100;
      final long changedHistory = historyEntries / 100;
      partition.change(db, accounts, changedAccounts, historyEntries, changedHistory);
      partition.appendLog(journal, (long) changedAccounts * 60, accounts);
      final long secondCheckpoint = partition.lastPosition();
      final PersistedSnapshot second =
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
      final Timed incremental = backup(keptStore, snapshots, journal, 2, secondCheckpoint);
      final BackupSaveResult result = incremental.result;
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
      final Path storeDir,
      final SnapshotStore snapshots,
      final SegmentedJournal journal,
      final long id,
      final long position)
      throws IOException {
    return backup(storeDir, snapshots, journal, id, position, 0);
  }

  /** The same into a store limited to {@code maxBytesPerSecond} (0: none). */
  private Timed backup(
      final Path storeDir,
      final SnapshotStore snapshots,
      final SegmentedJournal journal,
      final long id,
      final long position,
      final long maxBytesPerSecond)
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
      final BackupManager manager =
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
      final long start = CLOCK.nanos();
      final BackupOutcome outcome =
          manager
              .takeBackup(new Checkpoint(id, position, CLOCK.millis(), new Digest128(id, position)))
              .join();
      final double seconds = (CLOCK.nanos() - start) / 1e9;
      manager.closeAsync().join();
      if (outcome.kind() != BackupOutcome.Kind.COMPLETED) {
        throw new IllegalStateException("Expected the backup to complete, but " + outcome);
      }
      return new Timed(seconds, outcome.saveResult().orElseThrow());
    }
  }

  /** {@code cp -r snapshot journal target && sync}; seconds. */
  private static double copyAndSync(final Path snapshot, final Path journal, final Path target)
      throws IOException, InterruptedException {
    Files.createDirectories(target);
    final long start = CLOCK.nanos();
    final Process process =
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

  private void throughput(
      final SnapshotStore snapshots, final SegmentedJournal journal, final long checkpoint)
      throws Exception {
    final Path home = directory.resolve("ledger");
    final int window = Integer.parseInt(settings.get("window"));
    final long offNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(settings.get("offSeconds")));
    try (LedgerBenchmarkPartition partition =
        new LedgerBenchmarkPartition(home, 1, true, 2, CLOCK)) {
      partition.start(
          (streamId, requestId, response) -> {
            answered.incrementAndGet();
            inFlight.decrementAndGet();
          });
      final LogStreamWriter writer = partition.leaderStream().writer();
      for (int i = 0; i < 1_000; i++) {
        send(writer, window, AccountIntent.CREATE, new AccountValue(account(i), 0));
        send(writer, window, DepositIntent.DEPOSIT, new DepositValue(account(i), 1_000_000_000L));
      }
      final Client client = new Client(writer, window);
      final Thread thread = new Thread(client, "bench-client");
      thread.start();
      try {
        LockSupport.parkNanos(offNanos); // warm-up
        final List<Double> ratios = new ArrayList<>();
        final int rounds = Integer.parseInt(settings.get("throughputRounds"));
        for (int round = 1; round <= rounds; round++) {
          final double before = rate(offNanos);
          final long startCount = answered.get();
          final long start = CLOCK.nanos();
          final Path store = directory.resolve("store-" + (++storeCount));
          final Timed backup =
              backup(
                  store,
                  snapshots,
                  journal,
                  1,
                  checkpoint,
                  Long.parseLong(settings.get("maxBytesPerSecond")));
          final double during = (answered.get() - startCount) / ((CLOCK.nanos() - start) / 1e9);
          final double after = rate(offNanos);
          final double ratio = during / ((before + after) / 2);
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

  private double rate(final long nanos) {
    final long count = answered.get();
    final long start = CLOCK.nanos();
    LockSupport.parkNanos(nanos);
    return (answered.get() - count) / ((CLOCK.nanos() - start) / 1e9);
  }

  /** Keeps {@code window} same-partition transfers in flight. */
  private final class Client implements Runnable {
    private final LogStreamWriter writer;
    private final int window;
    private final SplittableRandom clientRandom = new SplittableRandom(11);
    private volatile boolean stop;

    Client(final LogStreamWriter writer, final int window) {
      this.writer = writer;
      this.window = window;
    }

    @Override
    public void run() {
      while (!stop) {
        final int from = clientRandom.nextInt(1_000);
        final int to = (from + 1 + clientRandom.nextInt(999)) % 1_000;
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

  private void send(
      final LogStreamWriter writer,
      final int window,
      final Intent intent,
      final RecordValue value) {
    while (inFlight.get() >= window) {
      LockSupport.parkNanos(20_000);
    }
    final long requestId = nextRequestId++ & (RING - 1);
    final Record command =
        new Record(
            RecordMetadata.builder()
                .command(intent)
                .requestId(requestId)
                .requestStreamId(1)
                .build(),
            value);
    inFlight.incrementAndGet();
    while (true) {
      final WriteResult result = writer.tryWrite(command);
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

  private static long diskBytes(final Path path) throws IOException {
    try (Stream<Path> files = Files.walk(path)) {
      return files
          .filter(Files::isRegularFile)
          .mapToLong(
              p -> {
                try {
                  return (Long) Files.getAttribute(p, "unix:blocks") * 512L;
                } catch (final IOException
                    | UnsupportedOperationException
                    | IllegalArgumentException e) {
                  try {
                    return Files.size(p);
                  } catch (final IOException inner) {
                    throw new UncheckedIOException(inner);
                  }
                }
              })
          .sum();
    }
  }

  private static double median(final List<Double> values) {
    final List<Double> sorted = values.stream().sorted().toList();
    final int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private void close() {
    scheduler.close();
    storeExecutor.shutdownNow();
    uploadExecutor.shutdownNow();
  }

  private static ExecutorService pool(final String name, final int threads) {
    final AtomicInteger count = new AtomicInteger();
    return Executors.newFixedThreadPool(
        threads,
        runnable -> {
          final Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }

  private static void deleteRecursively(final Path path) {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(path)) {
      for (final Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
