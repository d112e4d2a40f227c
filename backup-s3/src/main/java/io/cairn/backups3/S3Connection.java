package io.cairn.backups3;

import io.cairn.backups3.client.ObjectLockHeaders;
import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3Calls;
import io.cairn.backups3.client.S3ClientFactory;
import io.cairn.backups3.client.SseCustomerKey;
import io.cairn.backups3.layout.S3ObjectLayout;
import io.cairn.pacing.Backoff;
import io.cairn.scheduler.Clock;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * A client of the configured bucket and what talks through it — credentials, the retry scheduler's
 * thread, the {@link S3Access} every request goes through — opened and closed together. The store
 * and the store check ({@link S3StoreCheck}) each hold one.
 */
final class S3Connection implements AutoCloseable {

  private final S3AsyncClient client;
  private final AwsCredentialsProvider credentials;
  private final ScheduledThreadPoolExecutor scheduler;
  private final S3Access s3;

  private S3Connection(
      S3AsyncClient client,
      AwsCredentialsProvider credentials,
      ScheduledThreadPoolExecutor scheduler,
      S3Access s3) {
    this.client = client;
    this.credentials = credentials;
    this.scheduler = scheduler;
    this.s3 = s3;
  }

  /** Builds the client; talks to nobody yet. */
  static S3Connection open(S3BackupStoreConfig config, Clock clock, S3BackupStoreMetrics metrics) {
    var scheduler = new ScheduledThreadPoolExecutor(1, threads("cairn-backup-s3-scheduler-"));
    scheduler.setRemoveOnCancelPolicy(true);
    AwsCredentialsProvider credentials = S3ClientFactory.credentials(config);
    try {
      S3AsyncClient client = S3ClientFactory.create(config, credentials, scheduler);
      var calls =
          new S3Calls(
              config.maxAttempts(),
              new Backoff(config.retryBackoff(), config.retryBackoffMax()),
              scheduler,
              metrics);
      var s3 =
          new S3Access(
              client,
              new S3ObjectLayout(config.bucket(), config.basePath()),
              calls,
              config.sseCustomerKey().map(SseCustomerKey::of),
              config.legacyMd5(),
              config.objectLock().map(lock -> new ObjectLockHeaders(lock, clock)),
              metrics);
      return new S3Connection(client, credentials, scheduler, s3);
    } catch (RuntimeException e) {
      closeQuietly(credentials);
      scheduler.shutdownNow();
      throw e;
    }
  }

  S3Access s3() {
    return s3;
  }

  @Override
  public void close() {
    client.close();
    closeQuietly(credentials);
    scheduler.shutdownNow();
  }

  static ThreadFactory threads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  private static void closeQuietly(AwsCredentialsProvider provider) {
    if (provider instanceof SdkAutoCloseable closeable) {
      closeable.close();
    }
  }
}
