package io.cairn.benchmarks;

import static io.cairn.benchmarks.S3BackupBenchmark.TIMEOUT;

import io.cairn.backupapi.Compression;
import io.cairn.backups3.S3BackupStoreConfig;
import io.cairn.scheduler.Clock;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.multipart.MultipartConfiguration;
import software.amazon.awssdk.transfer.s3.S3TransferManager;

/**
 * The two sides of {@link S3BackupBenchmark}, set up alike: the S3 store's configuration and the
 * plain side's AWS SDK clients get the same endpoint, region, credentials, path style, timeouts,
 * checksums, part size and concurrency. Owns the plain side: a client with multipart for uploads
 * and one without for downloads (see {@link #transferClient}), their transfer managers, the time
 * their upload requests took, the bucket, and the deletion of its objects.
 */
final class S3BenchmarkClients implements AutoCloseable {

  static final String BUCKET = "cairn-benchmark";
  private static final String REGION = "us-east-1";

  private final URI endpoint;
  private final int concurrency;
  private final long partSizeBytes;
  private final TransferTimeline.UploadWireTime uploadWireTime;
  private final S3AsyncClient client;
  private final S3AsyncClient downloadClient;
  private final S3TransferManager transferManager;
  private final S3TransferManager downloadManager;

  /**
   * @param concurrency content requests in flight at once, on both sides
   * @param partSizeBytes the part size, on both sides (and the plain side's multipart threshold)
   */
  S3BenchmarkClients(URI endpoint, int concurrency, long partSizeBytes, Clock clock) {
    this.endpoint = endpoint;
    this.concurrency = concurrency;
    this.partSizeBytes = partSizeBytes;
    this.uploadWireTime = new TransferTimeline.UploadWireTime(clock);
    this.client = transferClient(true);
    this.downloadClient = transferClient(false);
    this.transferManager =
        S3TransferManager.builder()
            .s3Client(client)
            .transferDirectoryMaxConcurrency(concurrency)
            .build();
    this.downloadManager =
        S3TransferManager.builder()
            .s3Client(downloadClient)
            .transferDirectoryMaxConcurrency(concurrency)
            .build();
  }

  void createBucket() throws Exception {
    client.createBucket(b -> b.bucket(BUCKET)).get(1, TimeUnit.MINUTES);
  }

  /** The plain side's uploads (multipart above one part). */
  S3TransferManager uploads() {
    return transferManager;
  }

  /** The plain side's downloads (one plain GET per object). */
  S3TransferManager downloads() {
    return downloadManager;
  }

  /** The summed time of the plain side's upload requests so far. */
  double uploadWireSeconds() {
    return uploadWireTime.seconds();
  }

  /** The store's side: the same server and settings, at most {@code maxConnections} pooled. */
  S3BackupStoreConfig storeConfig(int maxConnections) {
    return S3BackupStoreConfig.builder(BUCKET)
        .basePath("store")
        .region(REGION)
        .endpoint(endpoint)
        .pathStyleAccess(true)
        .credentials(S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY)
        .maxConnections(maxConnections)
        .maxConcurrentTransfers(concurrency)
        .partSizeBytes(partSizeBytes)
        .compression(Compression.NONE, S3BackupStoreConfig.COMPRESSION_THRESHOLD_BYTES_DEFAULT)
        .apiCallTimeout(TIMEOUT)
        .connectionAcquisitionTimeout(TIMEOUT)
        .build();
  }

  /**
   * A transfer manager's client: the settings {@code S3ClientFactory} gives the store's client
   * (netty, timeouts, path style, endpoint, credentials, the SDK's default checksums) and a pool of
   * {@code concurrency} connections. With {@code multipart} (uploads): multipart above one part of
   * the store's part size. Without (downloads): one plain GET per object, because the SDK's
   * multipart download reads {@code partNumber} parts, which S3Proxy refuses for multipart objects
   * (501).
   */
  private S3AsyncClient transferClient(boolean multipart) {
    return S3AsyncClient.builder()
        .httpClientBuilder(
            NettyNioAsyncHttpClient.builder()
                .maxConcurrency(concurrency)
                .connectionAcquisitionTimeout(TIMEOUT)
                .connectionTimeout(Duration.ofSeconds(10))
                .readTimeout(TIMEOUT)
                .writeTimeout(TIMEOUT)
                .tcpKeepAlive(true))
        .region(Region.of(REGION))
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY)))
        .forcePathStyle(true)
        .endpointOverride(endpoint)
        .overrideConfiguration(
            o ->
                o.apiCallTimeout(TIMEOUT)
                    .apiCallAttemptTimeout(TIMEOUT)
                    .addExecutionInterceptor(uploadWireTime))
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_SUPPORTED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_SUPPORTED)
        .multipartEnabled(multipart)
        .multipartConfiguration(
            MultipartConfiguration.builder()
                .minimumPartSizeInBytes(partSizeBytes)
                .thresholdInBytes(partSizeBytes)
                .build())
        .build();
  }

  /** Deletes every object under {@code prefix} with the plain client. */
  void deleteObjects(String prefix) throws Exception {
    List<ObjectIdentifier> keys = new ArrayList<>();
    client
        .listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix(prefix))
        .contents()
        .subscribe((S3Object o) -> keys.add(ObjectIdentifier.builder().key(o.key()).build()))
        .get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
    for (int from = 0; from < keys.size(); from += 1000) {
      List<ObjectIdentifier> batch = keys.subList(from, Math.min(keys.size(), from + 1000));
      client
          .deleteObjects(b -> b.bucket(BUCKET).delete(Delete.builder().objects(batch).build()))
          .get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
    }
  }

  /** Closes the transfer managers and clients; one that fails to close is printed, not thrown. */
  @Override
  public void close() {
    for (AutoCloseable closeable :
        Arrays.asList(transferManager, downloadManager, client, downloadClient)) {
      try {
        closeable.close();
      } catch (Exception e) {
        System.out.println("Could not close " + closeable + ": " + e);
      }
    }
  }
}
