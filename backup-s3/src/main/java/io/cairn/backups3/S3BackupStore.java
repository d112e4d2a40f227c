package io.cairn.backups3;

import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.manifest.ManifestCodec;
import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.layout.S3ObjectLayout;
import io.cairn.backups3.manifest.ManifestObjects;
import io.cairn.backups3.transfer.ObjectChecker;
import io.cairn.backups3.transfer.ObjectCopier;
import io.cairn.backups3.transfer.ObjectUploader;
import io.cairn.backups3.transfer.Transfers;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.backupstore.BackupStoreSkeleton;
import io.cairn.backupstore.StoreOperations;
import io.cairn.pacing.RateLimiter;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link BackupStore} in an S3 bucket or an S3-compatible server, on the asynchronous AWS SDK v2
 * client (netty). Key layout in {@link S3ObjectLayout}; settings in {@link S3BackupStoreConfig};
 * meters in {@link S3BackupStoreMetrics}.
 *
 * <ul>
 *   <li><b>Start</b> ({@link #open}): the bucket must exist and the credentials must be allowed to
 *       use it; whether the server honours conditional writes is probed once. Failures name the key
 *       to fix ({@link S3BackupStoreStartException}).
 *   <li><b>Manifests</b> change conditionally ({@link ManifestObjects}): created with {@code
 *       If-None-Match: *}, completed or failed with {@code If-Match}, so a backup marked FAILED by
 *       another process during its save never ends COMPLETED. Without server support:
 *       read-check-write, atomic within this process.
 *   <li><b>Contents</b> are streamed with the lengths fixed when the backup was planned, in parts
 *       above {@code partSizeBytes}; unchanged files of the previous backup are copied server-side;
 *       every object's size is confirmed before the manifest says COMPLETED.
 *   <li><b>Restore and verify</b> use plain and ranged GETs only, each range checked.
 *   <li><b>Requests</b> retry transient errors (5xx, throttling, timeouts, resets) with backoff;
 *       content requests in flight are bounded to half the connection pool; a bytes/s limit applies
 *       to uploads and to verify's downloads.
 * </ul>
 *
 * <p><b>Threads.</b> Saves, restores and verifies run on the injected transfer executor (its size
 * bounds how many run at once); their per-file work, and every wait for the bytes/s limit, runs on
 * the store's own {@code cairn-backup-s3-transfer-*} threads ({@code maxConcurrentTransfers} of
 * them). Status, list, markFailed and delete run on the injected query executor, so they never
 * queue behind a transfer, throttled or not. Retries are scheduled on one {@code
 * cairn-backup-s3-scheduler} thread. {@link #close()} stops the store's threads and the client.
 */
public final class S3BackupStore extends BackupStoreSkeleton {

  private static final Logger LOG = LoggerFactory.getLogger(S3BackupStore.class);

  /** Failure marking tries harder than other requests: a FAILED manifest is what operators see. */
  private static final int FAILURE_MARKING_ATTEMPTS_MIN = 10;

  private final S3BackupStoreConfig config;
  private final S3Connection connection;
  private final ExecutorService transferExecutor;
  private final S3Access s3;
  private final ManifestObjects manifests;

  private S3BackupStore(
      S3BackupStoreConfig config,
      Clock clock,
      Executor executor,
      Executor queryExecutor,
      S3BackupStoreMetrics metrics,
      S3Connection connection,
      ManifestObjects manifests,
      ExecutorService transferExecutor,
      BackupEncryption encryption,
      RateLimiter.Pause pause) {
    super(
        new StoreOperations(config.location(), metrics.registry(), S3BackupStoreMetrics.OPERATIONS),
        executor,
        queryExecutor,
        objects(config, connection.s3(), manifests, transferExecutor, metrics, pause),
        encryption,
        clock);
    this.config = config;
    this.connection = connection;
    this.s3 = connection.s3();
    this.manifests = manifests;
    this.transferExecutor = transferExecutor;
  }

  private static S3Objects objects(
      S3BackupStoreConfig config,
      S3Access s3,
      ManifestObjects manifests,
      ExecutorService transferExecutor,
      S3BackupStoreMetrics metrics,
      RateLimiter.Pause pause) {
    var transfers =
        new Transfers(
            s3,
            config.partSizeBytes(),
            new RateLimiter(
                // One second's worth may pass at once: a part is sent whole.
                config.maxBytesPerSecond(),
                config.maxBytesPerSecond(),
                metrics.limiterClock(),
                pause),
            config.maxConcurrentTransfers());
    return new S3Objects(
        s3,
        manifests,
        s3.calls().withMaxAttempts(Math.max(config.maxAttempts(), FAILURE_MARKING_ATTEMPTS_MIN)),
        config.compressionPolicy(),
        new ObjectUploader(transfers),
        new ObjectCopier(transfers),
        new ObjectChecker(transfers),
        transferExecutor);
  }

  /**
   * Connects, checks the bucket and credentials, probes conditional writes, and opens the store.
   *
   * @param clock the source of manifest timestamps
   * @param executor runs saves, restores and verifies (blocking); its size bounds how many run at
   *     once
   * @param queryExecutor runs status, list, markFailed and delete (manifest requests); a pool of
   *     its own, so that they answer while transfers hold every thread of {@code executor}
   * @throws S3BackupStoreStartException naming the configuration key to fix when the bucket is
   *     missing, the credentials are refused or the endpoint does not answer
   */
  public static S3BackupStore open(
      S3BackupStoreConfig config,
      Clock clock,
      Executor executor,
      Executor queryExecutor,
      MeterRegistry registry) {
    return open(
        config,
        BackupEncryption.off(),
        clock,
        executor,
        queryExecutor,
        registry,
        RateLimiter.SLEEP);
  }

  /**
   * {@link #open(S3BackupStoreConfig, Clock, Executor, Executor, MeterRegistry)} with client-side
   * encryption: new backups are encrypted as {@code encryption} says.
   */
  public static S3BackupStore open(
      S3BackupStoreConfig config,
      BackupEncryption encryption,
      Clock clock,
      Executor executor,
      Executor queryExecutor,
      MeterRegistry registry) {
    return open(config, encryption, clock, executor, queryExecutor, registry, RateLimiter.SLEEP);
  }

  /**
   * {@link #open(S3BackupStoreConfig, Clock, Executor, Executor, MeterRegistry)} whose bytes/s
   * waits go through {@code pause} (tests hold a transfer there).
   */
  static S3BackupStore open(
      S3BackupStoreConfig config,
      BackupEncryption encryption,
      Clock clock,
      Executor executor,
      Executor queryExecutor,
      MeterRegistry registry,
      RateLimiter.Pause pause) {
    var metrics = new S3BackupStoreMetrics(registry);
    S3Connection connection = S3Connection.open(config, clock, metrics);
    try {
      S3Access s3 = connection.s3();
      // Unique per store instance: prefixes manifest write ids and names the probe object.
      String writerId = UUID.randomUUID().toString();
      boolean conditional = new StartupCheck(config, s3).run(writerId);
      var store =
          new S3BackupStore(
              config,
              clock,
              executor,
              queryExecutor,
              metrics,
              connection,
              new ManifestObjects(s3, new ManifestCodec(), conditional, writerId),
              new ThreadPoolExecutor(
                  config.maxConcurrentTransfers(),
                  config.maxConcurrentTransfers(),
                  0,
                  TimeUnit.MILLISECONDS,
                  new LinkedBlockingQueue<>(),
                  S3Connection.threads("cairn-backup-s3-transfer-")),
              encryption,
              pause);
      LOG.info(
          "Opened S3 backup store {} ({}; conditional writes {}, compression {}, part size "
              + "{} bytes, {} concurrent transfers, encryption {})",
          config.location(),
          config,
          conditional,
          config.compression().manifestName(),
          config.partSizeBytes(),
          config.maxConcurrentTransfers(),
          encryption);
      return store;
    } catch (RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  public S3BackupStoreConfig config() {
    return config;
  }

  /** Where objects are (tests and tools inspect stored objects through it). */
  public S3ObjectLayout layout() {
    return s3.layout();
  }

  /** True when manifest changes are conditional writes (the server honours them). */
  public boolean usesConditionalWrites() {
    return manifests.conditional();
  }

  @Override
  protected void released() {
    transferExecutor.shutdownNow();
    connection.close();
    LOG.info("Closed S3 backup store {}", config.location());
  }
}
