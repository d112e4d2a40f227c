package io.cairn.benchmarks;

import static io.cairn.benchmarks.S3BenchmarkClients.BUCKET;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backups3.S3BackupStore;
import io.cairn.backups3.S3BackupStoreMetrics;
import io.cairn.benchmarks.S3BenchmarkReport.Incremental;
import io.cairn.benchmarks.S3BenchmarkReport.Round;
import io.cairn.benchmarks.S3BenchmarkReport.Sample;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleSupplier;
import java.util.stream.Stream;
import software.amazon.awssdk.transfer.s3.S3TransferManager;
import software.amazon.awssdk.transfer.s3.model.CompletedDirectoryDownload;
import software.amazon.awssdk.transfer.s3.model.CompletedDirectoryUpload;

/**
 * The S3 backup store against a plain {@link S3TransferManager} moving the same bytes to the same
 * S3Proxy server in the same run.
 *
 * <p>About 1 GB of files shaped like a partition backup ({@link S3BenchmarkFiles}: closed 128 MiB
 * segments, an active segment, ~50 table files and RocksDB's small files, all random bytes from a
 * seed) is generated under {@code directory/source}. S3Proxy ({@link S3ProxyProcess}, {@code
 * filesystem-nio2} under {@code directory/s3proxy}) runs as a child JVM on 127.0.0.1. Then:
 *
 * <ol>
 *   <li><b>Upload</b>: {@link S3BackupStore#save} of a full backup (compression off, nothing to
 *       reuse) against {@link S3TransferManager#uploadDirectory} of the source directory;
 *   <li><b>Download</b>: {@link S3BackupStore#restore} of that backup into an empty directory
 *       against {@link S3TransferManager#downloadDirectory} of the same objects (the backup's
 *       contents prefix), one plain GET per object (see {@link S3BenchmarkClients});
 * </ol>
 *
 * <p>{@code rounds} rounds, alternating which of the two goes first, each step after an untimed
 * {@code sync}. Both sides use the same client settings ({@link S3BenchmarkClients}): netty,
 * path-style, same endpoint, region, credentials, checksum settings (the SDK's defaults) and part
 * size ({@code partSizeMebibytes}, also the multipart threshold); the same concurrency: the store
 * moves at most {@code concurrency} content requests at once ({@code maxConcurrentTransfers}, in a
 * pool of {@code maxConnections}), the transfer manager gets a pool of {@code concurrency}
 * connections and {@code concurrency} files at once. Client and server CPU time of every step is
 * printed beside its wall time.
 *
 * <ol start="3">
 *   <li><b>Incremental</b>: {@code incrementalRounds} times, {@code churnPercent}% of the bytes
 *       change ({@link S3BenchmarkFiles#churn}) and a backup with the previous one as {@code
 *       previous} is saved: bytes uploaded and copied server-side (the store's counters and its
 *       {@link BackupSaveResult}) and time.
 * </ol>
 *
 * <p>Usage: {@code S3BackupBenchmark [key=value ...]}; keys and defaults in {@link #main}.
 * Everything under {@code directory} is deleted at the end (up to ~6 GB while it runs).
 */
public final class S3BackupBenchmark {

  private static final Clock CLOCK = Clock.system();
  private static final long MIB = 1024 * 1024;
  static final Duration TIMEOUT = Duration.ofMinutes(10);
  private long totalBytes;

  private final Map<String, String> settings;
  private final Path directory;
  private final int concurrency;
  private final long partSizeBytes;
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final ExecutorService storeExecutor = pool("s3-benchmark-store", 2);
  private S3ProxyProcess server;
  private S3BackupStore store;
  private S3BenchmarkClients clients;

  private S3BackupBenchmark(final Map<String, String> settings) {
    this.settings = settings;
    this.directory = Path.of(settings.get("directory")).toAbsolutePath();
    this.concurrency = Integer.parseInt(settings.get("concurrency"));
    this.partSizeBytes = Long.parseLong(settings.get("partSizeMebibytes")) * MIB;
  }

  public static void main(final String[] args) throws Exception {
    final Map<String, String> settings = new LinkedHashMap<>();
    settings.put("fullSegments", "5");
    settings.put("segmentMebibytes", "128");
    settings.put("activeSegmentMebibytes", "64");
    settings.put("sstFiles", "50");
    settings.put("sstMebibytesMin", "4");
    settings.put("sstMebibytesMax", "8");
    settings.put("seed", "42");
    settings.put("rounds", "3");
    settings.put("incrementalRounds", "3");
    settings.put("churnPercent", "1");
    settings.put("concurrency", "8");
    settings.put("maxConnections", "16");
    settings.put("partSizeMebibytes", "8");
    settings.put("warmup", "true");
    settings.put("serverJvmOptions", "-Xmx1g");
    settings.put("directory", "target/s3-backup-benchmark");
    settings.put("s3proxyJar", "target/s3-servers/s3proxy.jar");
    for (final String arg : args) {
      final int eq = arg.indexOf('=');
      if (eq < 1 || !settings.containsKey(arg.substring(0, eq))) {
        throw new IllegalArgumentException(
            "Expected key=value with a key of " + settings.keySet() + ", but was '" + arg + "'");
      }
      settings.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    System.out.println("settings " + settings);
    final S3BackupBenchmark benchmark = new S3BackupBenchmark(settings);
    try {
      benchmark.run();
    } finally {
      benchmark.close();
    }
  }

  // ---- the run
  // -------------------------------------------------------------------------------------

  private void run() throws Exception {
    final Path source = directory.resolve("source");
    final long segmentBytes = Long.parseLong(settings.get("segmentMebibytes")) * MIB;
    final S3BenchmarkFiles files =
        S3BenchmarkFiles.generate(
            source,
            new S3BenchmarkFiles.Shape(
                Integer.parseInt(settings.get("fullSegments")),
                segmentBytes,
                Long.parseLong(settings.get("activeSegmentMebibytes")) * MIB,
                Integer.parseInt(settings.get("sstFiles")),
                Long.parseLong(settings.get("sstMebibytesMin")) * MIB,
                Long.parseLong(settings.get("sstMebibytesMax")) * MIB,
                Long.parseLong(settings.get("seed"))));
    totalBytes = files.totalBytes();
    System.out.printf(
        Locale.ROOT,
        "source: %d files, %,d bytes (snapshot %d files, %,d bytes; segments %d files, %,d bytes)%n",
        files.fileCount(),
        files.totalBytes(),
        files.snapshot().size(),
        files.snapshot().totalBytes(),
        files.segments().size(),
        files.segments().totalBytes());
    sync();
    final Path serverDir = directory.resolve("s3proxy");
    Files.createDirectories(serverDir);
    server =
        S3ProxyProcess.start(
            Path.of(settings.get("s3proxyJar")),
            serverDir,
            Arrays.asList(settings.get("serverJvmOptions").trim().split("\\s+")),
            CLOCK);
    clients = new S3BenchmarkClients(server.endpoint(), concurrency, partSizeBytes, CLOCK);
    clients.createBucket();
    store =
        S3BackupStore.open(
            clients.storeConfig(Integer.parseInt(settings.get("maxConnections"))),
            CLOCK,
            storeExecutor,
            storeExecutor,
            registry);
    System.out.println("store " + store.config());
    System.out.println("server " + server.endpoint() + ", log " + server.logFile());

    long checkpoint = 1;
    if (Boolean.parseBoolean(settings.get("warmup"))) {
      warmUp(files, checkpoint++);
    }
    final List<Round> rounds = new ArrayList<>();
    BackupIdentifier last = null;
    final int roundCount = Integer.parseInt(settings.get("rounds"));
    for (int r = 0; r < roundCount; r++) {
      final BackupIdentifier id = new BackupIdentifier(0, 1, checkpoint++);
      final Round round = round(r, id, files, source);
      rounds.add(round);
      S3BenchmarkReport.printRound(r + 1, round);
      if (last != null) {
        store.delete(last).get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
      }
      last = id;
    }
    final List<Incremental> incrementals = new ArrayList<>();
    final int incrementalCount = Integer.parseInt(settings.get("incrementalRounds"));
    for (int k = 0; k < incrementalCount; k++) {
      final BackupIdentifier id = new BackupIdentifier(0, 1, checkpoint++);
      final Incremental incremental =
          incremental(files, id, last, Double.parseDouble(settings.get("churnPercent")));
      incrementals.add(incremental);
      store.delete(last).get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
      last = id;
    }
    S3BenchmarkReport.summarize(files.totalBytes(), rounds, incrementals, registry);
  }

  /**
   * Untimed: a few table files and one segment (single and multipart uploads) through both paths,
   * so both JVMs have compiled the hot code.
   */
  private void warmUp(final S3BenchmarkFiles files, final long checkpoint) throws Exception {
    final NamedFileSet subset =
        new NamedFileSet(files.snapshot().files().subList(0, Math.min(8, files.snapshot().size())));
    final NamedFileSet segment = new NamedFileSet(files.segments().files().subList(0, 1));
    final BackupIdentifier id = new BackupIdentifier(0, 1, checkpoint);
    final Backup backup = backup(id, subset, segment);
    final long start = CLOCK.nanos();
    store.save(backup, Optional.empty()).get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
    final Path restored = directory.resolve("warmup-restore");
    store
        .restore(id, restored, RestoreProgressListener.NOOP)
        .get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
    final Path downloaded = directory.resolve("warmup-download");
    clients
        .downloads()
        .downloadDirectory(
            b ->
                b.bucket(BUCKET)
                    .destination(downloaded)
                    .listObjectsV2RequestTransformer(
                        l -> l.prefix(store.layout().contentsPrefix(id))))
        .completionFuture()
        .get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
    final String prefix = "warmup";
    final List<CompletableFuture<?>> uploads = new ArrayList<>();
    Stream.concat(subset.files().stream(), segment.files().stream())
        .forEach(
            f ->
                uploads.add(
                    clients
                        .uploads()
                        .uploadFile(
                            b ->
                                b.source(f.path())
                                    .putObjectRequest(
                                        p -> p.bucket(BUCKET).key(prefix + "/" + f.name())))
                        .completionFuture()));
    for (final CompletableFuture<?> upload : uploads) {
      upload.get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
    }
    clients.deleteObjects(prefix + "/");
    store.delete(id).get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
    S3BenchmarkFiles.deleteRecursively(restored);
    S3BenchmarkFiles.deleteRecursively(downloaded);
    System.out.printf(
        Locale.ROOT,
        "warm-up (%d files, %,d bytes): %.1f s%n",
        backup.descriptor().fileCount(),
        backup.descriptor().sizeBytes(),
        (CLOCK.nanos() - start) / 1e9);
  }

  private Round round(
      final int r, final BackupIdentifier id, final S3BenchmarkFiles files, final Path source)
      throws Exception {
    final boolean storeFirst = r % 2 == 0;
    final Backup backup = backup(id, files.snapshot(), files.segments());
    final String plainPrefix = "plain/round-" + (r + 1);
    final TransferTimeline.ProgressListener uploadProgress =
        new TransferTimeline.ProgressListener();
    final TransferTimeline.ProgressListener downloadProgress =
        new TransferTimeline.ProgressListener();
    final double[] wireSeconds = new double[4];
    final Step save =
        () -> {
          final double before = requestSeconds("PutObject", "UploadPart");
          final BackupSaveResult result =
              store.save(backup, Optional.empty()).get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
          wireSeconds[0] = requestSeconds("PutObject", "UploadPart") - before;
          check(
              result.copiedBytes() == files.totalBytes() && result.reusedFileCount() == 0,
              "a full backup of " + files.totalBytes() + " bytes",
              result);
        };
    final Step plainUpload =
        () -> {
          final double before = clients.uploadWireSeconds();
          final CompletedDirectoryUpload done =
              clients
                  .uploads()
                  .uploadDirectory(
                      b ->
                          b.source(source)
                              .bucket(BUCKET)
                              .s3Prefix(plainPrefix)
                              .uploadFileRequestTransformer(
                                  f -> f.addTransferListener(uploadProgress)))
                  .completionFuture()
                  .get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
          wireSeconds[1] = clients.uploadWireSeconds() - before;
          check(done.failedTransfers().isEmpty(), "every file uploaded", done.failedTransfers());
        };
    final Sample[] uploads =
        pair(
            storeFirst,
            save,
            plainUpload,
            () -> counter(S3BackupStoreMetrics.UPLOADED),
            uploadProgress::bytes);
    final Path restoreDir = directory.resolve("restore");
    final Path downloadDir = directory.resolve("download");
    final Step restore =
        () -> {
          final double before = requestSeconds("GetObject");
          final Backup restored =
              store
                  .restore(id, restoreDir, RestoreProgressListener.NOOP)
                  .get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
          wireSeconds[2] = requestSeconds("GetObject") - before;
          check(
              restored.descriptor().sizeBytes() == files.totalBytes(),
              files.totalBytes() + " bytes restored",
              restored.descriptor());
        };
    final Step plainDownload =
        () -> {
          final CompletedDirectoryDownload done =
              clients
                  .downloads()
                  .downloadDirectory(
                      b ->
                          b.bucket(BUCKET)
                              .destination(downloadDir)
                              .listObjectsV2RequestTransformer(
                                  l -> l.prefix(store.layout().contentsPrefix(id)))
                              .downloadFileRequestTransformer(
                                  f -> f.addTransferListener(downloadProgress)))
                  .completionFuture()
                  .get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
          check(
              done.failedTransfers().isEmpty(), "every object downloaded", done.failedTransfers());
        };
    final Sample[] downloads =
        pair(
            storeFirst,
            restore,
            plainDownload,
            () -> counter(S3BackupStoreMetrics.DOWNLOADED),
            downloadProgress::bytes);
    final long downloaded = sizeBytes(downloadDir);
    check(downloaded == files.totalBytes(), files.totalBytes() + " bytes downloaded", downloaded);
    S3BenchmarkFiles.deleteRecursively(restoreDir);
    S3BenchmarkFiles.deleteRecursively(downloadDir);
    clients.deleteObjects(plainPrefix + "/");
    return new Round(
        storeFirst,
        uploads[0],
        uploads[1],
        downloads[0],
        downloads[1],
        wireSeconds[0] / uploads[0].seconds(),
        wireSeconds[1] / uploads[1].seconds(),
        wireSeconds[2] / downloads[0].seconds());
  }

  private Incremental incremental(
      final S3BenchmarkFiles files,
      final BackupIdentifier id,
      final BackupIdentifier previous,
      final double churnPercent)
      throws Exception {
    final S3BenchmarkFiles.Churn churn = files.churn(churnPercent);
    final Backup backup = backup(id, files.snapshot(), files.segments());
    final double uploadedBefore = counter(S3BackupStoreMetrics.UPLOADED);
    final double copiedBefore = counter(S3BackupStoreMetrics.COPIED);
    final BackupSaveResult[] result = new BackupSaveResult[1];
    final Sample sample =
        timed(
            () ->
                result[0] =
                    store
                        .save(backup, Optional.of(previous))
                        .get(TIMEOUT.toMinutes(), TimeUnit.MINUTES),
            () -> 0);
    final Incremental incremental =
        new Incremental(
            churn,
            result[0],
            (long) (counter(S3BackupStoreMetrics.UPLOADED) - uploadedBefore),
            (long) (counter(S3BackupStoreMetrics.COPIED) - copiedBefore),
            sample);
    System.out.printf(
        Locale.ROOT,
        "incremental %d: changed %,d bytes (table file %s rewritten, %,d bytes appended to the"
            + " active segment); uploaded %d files, %,d bytes; copied server-side %d files,"
            + " %,d bytes; %s%n",
        id.checkpointId(),
        churn.changedBytes(),
        churn.rewrittenTableFile(),
        churn.appendedBytes(),
        result[0].copiedFileCount(),
        incremental.uploadedBytes(),
        result[0].reusedFileCount(),
        incremental.copiedBytes(),
        sample.format());
    return incremental;
  }

  // ---- helpers ---------------------------------------------------------------------------------

  @FunctionalInterface
  private interface Step {
    void run() throws Exception;
  }

  /** Times the store's step and the plain one, in that order if {@code storeFirst}. */
  private Sample[] pair(
      final boolean storeFirst,
      final Step storeStep,
      final Step plainStep,
      final DoubleSupplier storeBytes,
      final DoubleSupplier plainBytes)
      throws Exception {
    if (storeFirst) {
      final Sample store = timed(storeStep, storeBytes);
      return new Sample[] {store, timed(plainStep, plainBytes)};
    }
    final Sample plain = timed(plainStep, plainBytes);
    return new Sample[] {timed(storeStep, storeBytes), plain};
  }

  /**
   * Runs {@code step} after an untimed {@code sync}: wall and CPU time of the step alone, when
   * {@code bytes} (a counter of bytes moved) passed {@link S3BenchmarkReport#HEAD_SHARE} of the
   * backup's bytes, and the time of a {@code sync} right after the step.
   */
  private Sample timed(final Step step, final DoubleSupplier bytes) throws Exception {
    sync();
    final double clientCpu = cpuSeconds(ProcessHandle.current());
    final double serverCpu = cpuSeconds(server.handle());
    final long start = CLOCK.nanos();
    final double seconds;
    final double headSeconds;
    try (TransferTimeline timeline = new TransferTimeline(bytes, CLOCK)) {
      step.run();
      seconds = (CLOCK.nanos() - start) / 1e9;
      timeline.close();
      headSeconds = timeline.secondsTo(S3BenchmarkReport.HEAD_SHARE * totalBytes);
    }
    final double clientCpuUsed = cpuSeconds(ProcessHandle.current()) - clientCpu;
    final double serverCpuUsed = cpuSeconds(server.handle()) - serverCpu;
    final long syncStart = CLOCK.nanos();
    sync();
    return new Sample(
        totalBytes,
        seconds,
        clientCpuUsed,
        serverCpuUsed,
        headSeconds,
        (CLOCK.nanos() - syncStart) / 1e9);
  }

  private static double cpuSeconds(final ProcessHandle process) {
    return process.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
  }

  private static Backup backup(
      final BackupIdentifier id, final NamedFileSet snapshot, final NamedFileSet segments) {
    return Backup.builder(id)
        .checkpointPosition(1000 * id.checkpointId())
        .numberOfPartitions(1)
        .brokerVersion("0.1.0")
        .stateDigest("00c0ffee")
        .snapshot("snapshot-" + id.checkpointId(), snapshot)
        .segments(segments)
        .build();
  }

  /** The summed duration of the store's requests of these S3 operations so far. */
  private double requestSeconds(final String... operations) {
    double seconds = 0;
    for (final String operation : operations) {
      for (final Timer timer :
          registry.find(S3BackupStoreMetrics.REQUESTS).tag("operation", operation).timers()) {
        seconds += timer.totalTime(TimeUnit.SECONDS);
      }
    }
    return seconds;
  }

  private double counter(final String name) {
    final Counter counter = registry.find(name).counter();
    return counter == null ? 0 : counter.count();
  }

  private static void check(final boolean condition, final String expected, final Object actual) {
    if (!condition) {
      throw new IllegalStateException("Expected " + expected + ", but got " + actual);
    }
  }

  private static long sizeBytes(final Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      long total = 0;
      for (final Path p : paths.filter(Files::isRegularFile).toList()) {
        total += Files.size(p);
      }
      return total;
    }
  }

  private static void sync() throws IOException, InterruptedException {
    final Process process = new ProcessBuilder("sync").inheritIO().start();
    if (process.waitFor() != 0) {
      throw new IllegalStateException("Expected sync to succeed, but exit " + process.exitValue());
    }
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

  private void close() {
    if (store != null) {
      store.close();
    }
    if (clients != null) {
      clients.close();
    }
    if (server != null) {
      server.close();
    }
    storeExecutor.shutdownNow();
    S3BenchmarkFiles.deleteRecursively(directory);
  }
}
