package io.cairn.backups3.client;

import io.cairn.backups3.S3BackupStoreConfig;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.DefaultRetryStrategy;
import software.amazon.awssdk.services.s3.LegacyMd5Plugin;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;

/**
 * Builds the asynchronous S3 client (netty) from a configuration:
 *
 * <ul>
 *   <li>a connection pool of {@code maxConnections} with {@code connectionAcquisitionTimeout};
 *   <li>{@code apiCallTimeout} for each call (the SDK's retries are off: {@link S3Calls} retries);
 *   <li>static keys or the SDK's default credentials chain;
 *   <li>{@code legacyMd5}: checksums only where S3 requires them, as {@code Content-MD5} (the store
 *       adds {@code Content-MD5} to every upload itself); otherwise the SDK's defaults (CRC32 on
 *       every upload);
 *   <li>{@code endpoint} and {@code pathStyleAccess} for S3-compatible servers.
 * </ul>
 */
public final class S3ClientFactory {

  private static final Duration CONNECT_TIMEOUT_MAX = Duration.ofSeconds(10);

  private S3ClientFactory() {}

  /**
   * @param scheduler runs the SDK's timeouts; owned by the caller
   */
  public static S3AsyncClient create(
      S3BackupStoreConfig config,
      AwsCredentialsProvider credentials,
      ScheduledExecutorService scheduler) {
    Duration timeout = config.apiCallTimeout();
    NettyNioAsyncHttpClient.Builder http =
        NettyNioAsyncHttpClient.builder()
            .maxConcurrency(config.maxConnections())
            .connectionAcquisitionTimeout(config.connectionAcquisitionTimeout())
            .connectionTimeout(
                timeout.compareTo(CONNECT_TIMEOUT_MAX) < 0 ? timeout : CONNECT_TIMEOUT_MAX)
            .readTimeout(timeout)
            .writeTimeout(timeout)
            .tcpKeepAlive(true);
    S3AsyncClientBuilder builder =
        S3AsyncClient.builder()
            .httpClientBuilder(http)
            .region(Region.of(config.region()))
            .credentialsProvider(credentials)
            .forcePathStyle(config.pathStyleAccess())
            .overrideConfiguration(
                o ->
                    o.apiCallTimeout(timeout)
                        .apiCallAttemptTimeout(timeout)
                        .retryStrategy(DefaultRetryStrategy.doNotRetry())
                        .scheduledExecutorService(scheduler));
    config.endpoint().ifPresent(builder::endpointOverride);
    if (config.legacyMd5()) {
      builder
          .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
          .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
          .addPlugin(LegacyMd5Plugin.create());
    } else {
      builder
          .requestChecksumCalculation(RequestChecksumCalculation.WHEN_SUPPORTED)
          .responseChecksumValidation(ResponseChecksumValidation.WHEN_SUPPORTED);
    }
    return builder.build();
  }

  /** Static keys when configured, else the SDK's default chain. */
  public static AwsCredentialsProvider credentials(S3BackupStoreConfig config) {
    if (config.hasStaticCredentials()) {
      return StaticCredentialsProvider.create(
          AwsBasicCredentials.create(
              config.accessKeyId().orElseThrow(), config.secretAccessKey().orElseThrow()));
    }
    return DefaultCredentialsProvider.builder().build();
  }
}
