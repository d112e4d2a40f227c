package io.cairn.restore;

import static org.awaitility.Awaitility.await;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.Compression;
import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.broker.BrokerVersion;
import io.cairn.files.DurableFiles;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Real backups of a real broker, taken once per test JVM: a single node hosting 3 partitions with
 * ledger load, a snapshot on every partition, more load after it, then backup {@value #CUT} taken
 * through the consistent cut — {@code CHECKPOINT CREATE} on partition 1 only; transfers from
 * partition 1 carry the checkpoint id to partitions 2 and 3, whose logs then hold {@code [CREATE,
 * credit]} batches — then load after the cut and backup {@value #LATER} of every partition.
 *
 * <p>{@link #balancesAtCut()} is the state every restore of backup {@value #CUT} must show: the
 * transfers that carried the checkpoint id happened after the cut on both sides.
 */
final class BackupFixture {

  static final int PARTITIONS = 3;
  static final long CUT = 5;
  static final long LATER = 6;

  private static final String IN_USE_FILE = "in-use.lock";

  private static BackupFixture instance;
  private static FileChannel inUseChannel;

  private final Path root;
  private final Path store;
  private final Map<String, Long> balancesAtCut;
  private final Map<String, Long> balancesAtLater;
  private final Map<Integer, String> digestsAtCut = new TreeMap<>();

  private final BackupEncryption encryption;

  private BackupFixture(Path root, BackupEncryption encryption, Map<String, String> settings) {
    this.root = root;
    this.store = root.resolve("store");
    this.encryption = encryption;
    try {
      Files.createDirectories(store);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (LedgerBroker broker =
        new LedgerBroker(root.resolve("source"), store, PARTITIONS, settings)) {
      Map<Integer, String> a = new TreeMap<>();
      Map<Integer, String> b = new TreeMap<>();
      Map<String, Long> expected = new LinkedHashMap<>();
      for (int p = 1; p <= PARTITIONS; p++) {
        var ids = broker.accountsOn(p, "acct", 2);
        a.put(p, ids.get(0));
        b.put(p, ids.get(1));
        for (String id : ids) {
          broker.createAccount(id);
          expected.put(id, 0L);
        }
      }
      broker.awaitBalances(new TreeMap<>(expected));
      for (int p = 1; p <= PARTITIONS; p++) {
        broker.deposit(a.get(p), 1000);
        broker.transfer(a.get(p), b.get(p), 100);
        expected.merge(a.get(p), 900L, Long::sum);
        expected.merge(b.get(p), 100L, Long::sum);
      }
      broker.transfer(a.get(1), a.get(2), 50);
      expected.merge(a.get(1), -50L, Long::sum);
      expected.merge(a.get(2), 50L, Long::sum);
      broker.awaitBalances(new TreeMap<>(expected));

      // a snapshot on every partition, then more log after it
      for (int p = 1; p <= PARTITIONS; p++) {
        broker.takeSnapshot(p);
      }
      for (int p = 1; p <= PARTITIONS; p++) {
        broker.deposit(b.get(p), 10);
        expected.merge(b.get(p), 10L, Long::sum);
      }
      broker.transfer(a.get(3), a.get(1), 30);
      expected.merge(a.get(3), -30L, Long::sum);
      expected.merge(a.get(1), 30L, Long::sum);
      broker.awaitBalances(new TreeMap<>(expected));

      // the cut: partition 1 first; the others take it when its credits arrive
      broker.checkpoint(1, CUT);
      broker.awaitCheckpoint(1, CUT);
      balancesAtCut = new TreeMap<>(expected);
      broker.transfer(a.get(1), a.get(2), 7);
      broker.transfer(a.get(1), a.get(3), 11);
      expected.merge(a.get(1), -18L, Long::sum);
      expected.merge(a.get(2), 7L, Long::sum);
      expected.merge(a.get(3), 11L, Long::sum);
      broker.awaitBalances(new TreeMap<>(expected));
      broker.awaitCheckpoint(2, CUT);
      broker.awaitCheckpoint(3, CUT);
      // after the cut everywhere
      for (int p = 1; p <= PARTITIONS; p++) {
        broker.deposit(b.get(p), 1);
        expected.merge(b.get(p), 1L, Long::sum);
      }
      broker.awaitBalances(new TreeMap<>(expected));
      awaitCompleted(CUT);

      for (int p = 1; p <= PARTITIONS; p++) {
        broker.checkpoint(p, LATER);
      }
      for (int p = 1; p <= PARTITIONS; p++) {
        broker.awaitCheckpoint(p, LATER);
      }
      balancesAtLater = new TreeMap<>(expected);
      awaitCompleted(LATER);
    }
  }

  static synchronized BackupFixture get() {
    if (instance == null) {
      try {
        Path target = Path.of("target").toAbsolutePath();
        Files.createDirectories(target);
        Path root;
        // another build of this module may run in the same tree at once: the guard makes the
        // clean-up and the creation of a locked fixture one step for every JVM
        try (FileChannel guard =
                FileChannel.open(
                    target.resolve("restore-fixture.lock"),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            FileLock ignored = guard.lock()) {
          // an earlier run's fixture is of no use now; keep the build directory from growing
          try (Stream<Path> old = Files.list(target)) {
            for (Path dir :
                old.filter(p -> p.getFileName().toString().startsWith("restore-fixture-"))
                    .filter(Files::isDirectory)
                    .toList()) {
              if (!inUse(dir)) {
                DurableFiles.deleteRecursively(dir);
              }
            }
          }
          root = Files.createTempDirectory(target, "restore-fixture-");
          inUseChannel =
              FileChannel.open(
                  root.resolve(IN_USE_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          inUseChannel.lock(); // held until this JVM exits
        }
        instance = new BackupFixture(root, BackupEncryption.off(), Map.of());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return instance;
  }

  /**
   * A fixture of its own in {@code root} whose broker encrypts its backups: {@code settings} holds
   * its {@code backup.encryption.*} keys, {@code encryption} the same keys for reading the store.
   * Not shared: the golden backups' writer takes one when it writes an encrypted golden.
   */
  static BackupFixture encrypted(
      Path root, BackupEncryption encryption, Map<String, String> settings) {
    return new BackupFixture(root, encryption, settings);
  }

  /** True if a running JVM still holds the lock of the fixture in {@code dir}. */
  private static boolean inUse(Path dir) throws IOException {
    Path lockFile = dir.resolve(IN_USE_FILE);
    if (!Files.exists(lockFile)) {
      return false;
    }
    try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE);
        FileLock lock = channel.tryLock()) {
      return lock == null;
    }
  }

  private void awaitCompleted(long backupId) {
    try (Stores stores = new Stores()) {
      FilesystemBackupStore fs = stores.open(store, encryption);
      await("backup " + backupId + " COMPLETED on every partition")
          .atMost(LedgerBroker.TIMEOUT)
          .pollInterval(Duration.ofMillis(50))
          .until(
              () -> {
                for (int p = 1; p <= PARTITIONS; p++) {
                  BackupStatus status = fs.getStatus(new BackupIdentifier(0, p, backupId)).join();
                  if (status.statusCode() != BackupStatusCode.COMPLETED) {
                    return false;
                  }
                  if (backupId == CUT) {
                    digestsAtCut.put(p, status.descriptor().orElseThrow().stateDigest());
                  }
                }
                return true;
              });
    }
  }

  Path root() {
    return root;
  }

  Path store() {
    return store;
  }

  Map<String, Long> balancesAtCut() {
    return balancesAtCut;
  }

  Map<String, Long> balancesAtLater() {
    return balancesAtLater;
  }

  Map<Integer, String> digestsAtCut() {
    return digestsAtCut;
  }

  /** A new, empty directory under the fixture's root. */
  Path newDirectory(String prefix) {
    try {
      return Files.createTempDirectory(root, prefix);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An independent copy of the backup store (files copied, not linked), to damage. */
  Path copyOfStore() {
    Path copy = newDirectory("store-copy-");
    try {
      return copyTree(store, copy);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Copies every file and directory under {@code from} to {@code to}; returns {@code to}. */
  static Path copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path source : paths.sorted(Comparator.naturalOrder()).toList()) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target);
        }
      }
    }
    return to;
  }

  static RestoreTarget target(Path dataDirectory) {
    return new RestoreTarget(
        dataDirectory,
        LedgerBroker.CLUSTER_ID,
        0,
        new ClusterShape(1, PARTITIONS, 1),
        BrokerVersion.current());
  }

  /** Filesystem stores opened on directories, with one executor, closed together. */
  static final class Stores implements AutoCloseable {
    private final ExecutorService executor = Executors.newFixedThreadPool(4);
    private final List<FilesystemBackupStore> opened = new ArrayList<>();

    FilesystemBackupStore open(Path basePath) {
      return open(basePath, BackupEncryption.off());
    }

    /** A store that reads (and writes) backups encrypted under {@code encryption}'s keys. */
    FilesystemBackupStore open(Path basePath, BackupEncryption encryption) {
      FilesystemBackupStore fs =
          FilesystemBackupStore.open(
              new FilesystemBackupStoreConfig(
                  basePath,
                  Compression.NONE,
                  CompressionPolicy.THRESHOLD_BYTES_DEFAULT,
                  CompressionPolicy.ZSTD_LEVEL_DEFAULT),
              encryption,
              Clock.system(),
              executor,
              executor,
              new SimpleMeterRegistry());
      opened.add(fs);
      return fs;
    }

    @Override
    public void close() {
      opened.forEach(FilesystemBackupStore::close);
      executor.shutdownNow();
      try {
        executor.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
