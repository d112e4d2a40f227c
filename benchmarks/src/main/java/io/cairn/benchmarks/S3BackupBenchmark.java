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

  private S3BackupBenchmark(Map<String, String> settings) {
    this.settings = settings;
    this.directory = Path.of(settings.get("directory")).toAbsolutePath();
    this.concurrency = Integer.parseInt(settings.get("concurrency"));
    this.partSizeBytes = Long.parseLong(settings.get("partSizeMebibytes")) * MIB;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> settings = new LinkedHashMap<>();
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
    BenchmarkSettings.apply(settings, args);
    S3BackupBenchmark benchmark = new S3BackupBenchmark(settings);
    try {
      benchmark.run();
    } finally {
      benchmark.close();
    }
  }

  // ---- the run
  // -------------------------------------------------------------------------------------

  private void run() throws Exception {
    Path source = directory.resolve("source");
    long segmentBytes = Long.parseLong(settings.get("segmentMebibytes")) * MIB;
    S3BenchmarkFiles files =
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
    Path serverDir = directory.resolve("s3proxy");
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
    List<Round> rounds = new ArrayList<>();
    BackupIdentifier last = null;
    int roundCount = Integer.parseInt(settings.get("rounds"));
    for (int r = 0; r < roundCount; r++) {
      BackupIdentifier id = new BackupIdentifier(0, 1, checkpoint++);
      Round round = round(r, id, files, source);
      rounds.add(round);
      S3BenchmarkReport.printRound(r + 1, round);
      if (last != null) {
        store.delete(last).get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
      }
      last = id;
    }
    List<Incremental> incrementals = new ArrayList<>();
    int incrementalCount = Integer.parseInt(settings.get("incrementalRounds"));
    for (int k = 0; k < incrementalCount; k++) {
      BackupIdentifier id = new BackupIdentifier(0, 1, checkpoint++);
      Incremental incremental =
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
  private void warmUp(S3BenchmarkFiles files, long checkpoint) throws Exception {
    NamedFileSet subset =
        new NamedFileSet(files.snapshot().files().subList(0, Math.min(8, files.snapshot().size())));
    NamedFileSet segment = new NamedFileSet(files.segments().files().subList(0, 1));
    BackupIdentifier id = new BackupIdentifier(0, 1, checkpoint);
    Backup backup = backup(id, subset, segment);
    long start = CLOCK.nanos();
    store.save(backup, Optional.empty()).get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
    Path restored = directory.resolve("warmup-restore");
    store
        .restore(id, restored, RestoreProgressListener.NOOP)
        .get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
    Path downloaded = directory.resolve("warmup-download");
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
    String prefix = "warmup";
    List<CompletableFuture<?>> uploads = new ArrayList<>();
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
    for (CompletableFuture<?> upload : uploads) {
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

  private Round round(int r, BackupIdentifier id, S3BenchmarkFiles files, Path source)
      throws Exception {
    boolean storeFirst = r % 2 == 0;
    Backup backup = backup(id, files.snapshot(), files.segments());
    String plainPrefix = "plain/round-" + (r + 1);
    TransferTimeline.ProgressListener uploadProgress = new TransferTimeline.ProgressListener();
    TransferTimeline.ProgressListener downloadProgress = new TransferTimeline.ProgressListener();
    double[] wireSeconds = new double[4];
    Step save =
        () -> {
          double before = requestSeconds("PutObject", "UploadPart");
          BackupSaveResult result =
              store.save(backup, Optional.empty()).get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
          wireSeconds[0] = requestSeconds("PutObject", "UploadPart") - before;
          check(
              result.copiedBytes() == files.totalBytes() && result.reusedFileCount() == 0,
              "a full backup of " + files.totalBytes() + " bytes",
              result);
        };
    Step plainUpload =
        () -> {
          double before = clients.uploadWireSeconds();
          CompletedDirectoryUpload done =
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
    Sample[] uploads =
        pair(
            storeFirst,
            save,
            plainUpload,
            () -> counter(S3BackupStoreMetrics.UPLOADED),
            uploadProgress::bytes);
    Path restoreDir = directory.resolve("restore");
    Path downloadDir = directory.resolve("download");
    Step restore =
        () -> {
          double before = requestSeconds("GetObject");
          Backup restored =
              store
                  .restore(id, restoreDir, RestoreProgressListener.NOOP)
                  .get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
          wireSeconds[2] = requestSeconds("GetObject") - before;
          check(
              restored.descriptor().sizeBytes() == files.totalBytes(),
              files.totalBytes() + " bytes restored",
              restored.descriptor());
        };
    Step plainDownload =
        () -> {
          CompletedDirectoryDownload done =
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
    Sample[] downloads =
        pair(
            storeFirst,
            restore,
            plainDownload,
            () -> counter(S3BackupStoreMetrics.DOWNLOADED),
            downloadProgress::bytes);
    long downloaded = sizeBytes(downloadDir);
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
      S3BenchmarkFiles files, BackupIdentifier id, BackupIdentifier previous, double churnPercent)
      throws Exception {
    S3BenchmarkFiles.Churn churn = files.churn(churnPercent);
    Backup backup = backup(id, files.snapshot(), files.segments());
    double uploadedBefore = counter(S3BackupStoreMetrics.UPLOADED);
    double copiedBefore = counter(S3BackupStoreMetrics.COPIED);
    BackupSaveResult[] result = new BackupSaveResult[1];
    Sample sample =
        timed(
            () ->
                result[0] =
                    store
                        .save(backup, Optional.of(previous))
                        .get(TIMEOUT.toMinutes(), TimeUnit.MINUTES),
            () -> 0);
    Incremental incremental =
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
      boolean storeFirst,
      Step storeStep,
      Step plainStep,
      DoubleSupplier storeBytes,
      DoubleSupplier plainBytes)
      throws Exception {
    if (storeFirst) {
      Sample store = timed(storeStep, storeBytes);
      return new Sample[] {store, timed(plainStep, plainBytes)};
    }
    Sample plain = timed(plainStep, plainBytes);
    return new Sample[] {timed(storeStep, storeBytes), plain};
  }

  /**
   * Runs {@code step} after an untimed {@code sync}: wall and CPU time of the step alone, when
   * {@code bytes} (a counter of bytes moved) passed {@link S3BenchmarkReport#HEAD_SHARE} of the
   * backup's bytes, and the time of a {@code sync} right after the step.
   */
  private Sample timed(Step step, DoubleSupplier bytes) throws Exception {
    sync();
    double clientCpu = cpuSeconds(ProcessHandle.current());
    double serverCpu = cpuSeconds(server.handle());
    long start = CLOCK.nanos();
    double seconds;
    double headSeconds;
    try (TransferTimeline timeline = new TransferTimeline(bytes, CLOCK)) {
      step.run();
      seconds = (CLOCK.nanos() - start) / 1e9;
      timeline.close();
      headSeconds = timeline.secondsTo(S3BenchmarkReport.HEAD_SHARE * totalBytes);
    }
    double clientCpuUsed = cpuSeconds(ProcessHandle.current()) - clientCpu;
    double serverCpuUsed = cpuSeconds(server.handle()) - serverCpu;
    long syncStart = CLOCK.nanos();
    sync();
    return new Sample(
        totalBytes,
        seconds,
        clientCpuUsed,
        serverCpuUsed,
        headSeconds,
        (CLOCK.nanos() - syncStart) / 1e9);
  }

  private static double cpuSeconds(ProcessHandle process) {
    return process.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
  }

  private static Backup backup(BackupIdentifier id, NamedFileSet snapshot, NamedFileSet segments) {
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
  private double requestSeconds(String... operations) {
    double seconds = 0;
    for (String operation : operations) {
      for (Timer timer :
          registry.find(S3BackupStoreMetrics.REQUESTS).tag("operation", operation).timers()) {
        seconds += timer.totalTime(TimeUnit.SECONDS);
      }
    }
    return seconds;
  }

  private double counter(String name) {
    Counter counter = registry.find(name).counter();
    return counter == null ? 0 : counter.count();
  }

  private static void check(boolean condition, String expected, Object actual) {
    if (!condition) {
      throw new IllegalStateException("Expected " + expected + ", but got " + actual);
    }
  }

  private static long sizeBytes(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      long total = 0;
      for (Path p : paths.filter(Files::isRegularFile).toList()) {
        total += Files.size(p);
      }
      return total;
    }
  }

  private static void sync() throws IOException, InterruptedException {
    Process process = new ProcessBuilder("sync").inheritIO().start();
    if (process.waitFor() != 0) {
      throw new IllegalStateException("Expected sync to succeed, but exit " + process.exitValue());
    }
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
