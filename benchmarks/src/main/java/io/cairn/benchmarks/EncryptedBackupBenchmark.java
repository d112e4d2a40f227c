package io.cairn.benchmarks;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupapi.content.MasterKeyRing;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.backups3.S3BackupStore;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Encrypted against plain backups: the same files ({@link S3BenchmarkFiles}: about 1 GB shaped like
 * a partition, incompressible) saved to and restored from two stores of one kind, one with
 * client-side encryption ({@code backup.encryption.*}: AES-256-GCM in 64 KiB segments) and one
 * without, no compression. {@code store=fs} (the default): two filesystem stores, where a plain
 * object is a kernel-side copy and an encrypted one streams through the cipher, so the ratio is the
 * encryption's whole cost against the cheapest copy there is. {@code store=s3}: two base paths of
 * one bucket on an S3Proxy child process on 127.0.0.1, where both sides stream over HTTP. Each
 * round saves and restores with both stores, alternating which goes first; a warm-up round is not
 * counted. Prints each round and the medians of encrypted / plain for save and restore (goal ≤ 1.1
 * each).
 */
public final class EncryptedBackupBenchmark {

  private static final Clock CLOCK = Clock.system();
  private static final long MIB = 1024 * 1024;

  private final Map<String, String> settings;
  private final Path directory;
  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private S3ProxyProcess server;
  private S3BenchmarkClients clients;

  private EncryptedBackupBenchmark(Map<String, String> settings) {
    this.settings = settings;
    this.directory = Path.of(settings.get("directory")).toAbsolutePath();
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("rounds", "5");
    settings.put("fullSegments", "6");
    settings.put("segmentMebibytes", "128");
    settings.put("sstFiles", "40");
    settings.put("directory", "target/encrypted-backup-benchmark");
    settings.put("store", "fs");
    settings.put("s3proxyJar", "target/s3-servers/s3proxy.jar");
    settings.put("serverJvmOptions", "-Xmx1g");
    BenchmarkSettings.apply(settings, args);
    if (!List.of("fs", "s3").contains(settings.get("store"))) {
      throw new IllegalArgumentException(
          "Expected store to be fs or s3, but was '" + settings.get("store") + "'");
    }
    var benchmark = new EncryptedBackupBenchmark(settings);
    try {
      benchmark.run();
    } finally {
      benchmark.executor.shutdownNow();
      if (benchmark.clients != null) {
        benchmark.clients.close();
      }
      if (benchmark.server != null) {
        benchmark.server.close();
      }
    }
  }

  /** One store's save and restore, seconds. */
  private record Timing(double saveSeconds, double restoreSeconds) {}

  private void run() throws Exception {
    BenchmarkFiles.deleteRecursively(directory);
    S3BenchmarkFiles files =
        S3BenchmarkFiles.generate(
            directory.resolve("source"),
            new S3BenchmarkFiles.Shape(
                Integer.parseInt(settings.get("fullSegments")),
                Long.parseLong(settings.get("segmentMebibytes")) * MIB,
                64 * MIB,
                Integer.parseInt(settings.get("sstFiles")),
                4 * MIB,
                12 * MIB,
                7));
    System.out.printf(
        Locale.ROOT, "source: %d files, %,d bytes%n", files.fileCount(), files.totalBytes());
    BenchmarkFiles.sync();
    byte[] master = new byte[MasterKeyRing.KEY_BYTES];
    new SecureRandom().nextBytes(master);
    if (settings.get("store").equals("s3")) {
      startS3Proxy();
    }
    BackupEncryption encryption =
        BackupEncryption.with(
            MasterKeyRing.parse(
                "bench=" + Base64.getEncoder().encodeToString(master), "benchmark keys"),
            "bench");
    try (BackupStore plain = open("plain-store", BackupEncryption.off());
        BackupStore encrypted = open("encrypted-store", encryption)) {
      long checkpoint = 1;
      once(plain, files, checkpoint, "warm-up plain");
      once(encrypted, files, checkpoint++, "warm-up encrypted");
      List<Double> saveRatios = new ArrayList<>();
      List<Double> restoreRatios = new ArrayList<>();
      int rounds = Integer.parseInt(settings.get("rounds"));
      for (int r = 1; r <= rounds; r++) {
        long id = ++checkpoint;
        Timing p;
        Timing e;
        if (r % 2 == 1) {
          p = once(plain, files, id, "round " + r + " plain");
          e = once(encrypted, files, id, "round " + r + " encrypted");
        } else {
          e = once(encrypted, files, id, "round " + r + " encrypted");
          p = once(plain, files, id, "round " + r + " plain");
        }
        saveRatios.add(e.saveSeconds() / p.saveSeconds());
        restoreRatios.add(e.restoreSeconds() / p.restoreSeconds());
      }
      System.out.printf(
          Locale.ROOT,
          "encrypted / plain, median of %d rounds: save %.2f, restore %.2f (goal <= 1.1 each)%n",
          rounds,
          median(saveRatios),
          median(restoreRatios));
    }
  }

  private void startS3Proxy() throws Exception {
    Path serverDir = Files.createDirectories(directory.resolve("s3proxy"));
    server =
        S3ProxyProcess.start(
            Path.of(settings.get("s3proxyJar")),
            serverDir,
            Arrays.asList(settings.get("serverJvmOptions").trim().split("\\s+")),
            CLOCK);
    clients = new S3BenchmarkClients(server.endpoint(), 8, 8 * MIB, CLOCK);
    clients.createBucket();
    System.out.println("server " + server.endpoint() + ", log " + server.logFile());
  }

  private BackupStore open(String name, BackupEncryption encryption) throws Exception {
    if (clients != null) {
      return S3BackupStore.open(
          clients.storeConfig(16).toBuilder().basePath(name).build(),
          encryption,
          CLOCK,
          executor,
          executor,
          new SimpleMeterRegistry());
    }
    Path base = Files.createDirectories(directory.resolve(name));
    return FilesystemBackupStore.open(
        FilesystemBackupStoreConfig.of(base).withMaxConcurrentFileCopies(2),
        encryption,
        CLOCK,
        executor,
        executor,
        new SimpleMeterRegistry());
  }

  /** Saves and restores backup {@code checkpoint} with {@code store}, then deletes both. */
  private Timing once(BackupStore store, S3BenchmarkFiles files, long checkpoint, String label)
      throws Exception {
    BackupIdentifier id = new BackupIdentifier(0, 1, checkpoint);
    Backup backup =
        Backup.builder(id)
            .checkpointPosition(1000 * checkpoint)
            .numberOfPartitions(1)
            .brokerVersion("0.1.0")
            .stateDigest("00c0ffee")
            .snapshot("snapshot-" + checkpoint, files.snapshot())
            .segments(files.segments())
            .build();
    long start = CLOCK.nanos();
    BackupSaveResult saved = store.save(backup, Optional.empty()).get(10, TimeUnit.MINUTES);
    double saveSeconds = (CLOCK.nanos() - start) / 1e9;
    if (saved.copiedBytes() != files.totalBytes()) {
      throw new IllegalStateException(
          "Expected a full backup of " + files.totalBytes() + " bytes, but " + saved);
    }
    Path target = directory.resolve("restore-" + label.replace(' ', '-'));
    start = CLOCK.nanos();
    store.restore(id, target, RestoreProgressListener.NOOP).get(10, TimeUnit.MINUTES);
    double restoreSeconds = (CLOCK.nanos() - start) / 1e9;
    System.out.printf(
        Locale.ROOT, "%-22s save %6.2f s  restore %6.2f s%n", label, saveSeconds, restoreSeconds);
    store.delete(id).get(10, TimeUnit.MINUTES);
    BenchmarkFiles.deleteRecursively(target);
    return new Timing(saveSeconds, restoreSeconds);
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
