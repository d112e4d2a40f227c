package io.cairn.backups3.testserver;

import io.cairn.backups3.S3BackupStoreConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CreateBucketRequest;

/**
 * The S3-compatible servers of this module's tests, each started once per test JVM on first use and
 * shared by every test class ({@code @ExtendWith(LocalS3Servers.class)}); they are stopped when the
 * test run ends (the root extension store closes them) or, failing that, by each child's shutdown
 * hook. The jars come from Maven Central through the dependency plugin ({@code target/s3-servers},
 * property {@code cairn.s3.servers.dir}).
 */
public final class LocalS3Servers implements BeforeAllCallback {

  /** The servers the store is tested against. */
  public enum Kind {
    S3PROXY,
    S3MOCK
  }

  public static final String REGION = "us-east-1";
  private static final Map<Kind, Running> RUNNING = new EnumMap<>(Kind.class);

  /** A started server and a plain SDK client for test setup and inspection. */
  public record Running(Kind kind, S3ServerProcess process, S3AsyncClient client) {

    /** A store configuration for this server with test-friendly limits. */
    public S3BackupStoreConfig.Builder config(String bucket, String basePath) {
      return S3BackupStoreConfig.builder(bucket)
          .basePath(basePath)
          .region(REGION)
          .endpoint(process.endpoint())
          .pathStyleAccess(true)
          .credentials(S3ServerProcess.ACCESS_KEY, S3ServerProcess.SECRET_KEY)
          .partSizeBytes(S3BackupStoreConfig.PART_SIZE_BYTES_MIN)
          .apiCallTimeout(Duration.ofSeconds(30))
          .connectionAcquisitionTimeout(Duration.ofSeconds(30))
          .maxAttempts(4)
          .retryBackoff(Duration.ofMillis(20))
          .retryBackoffMax(Duration.ofMillis(500));
    }

    /**
     * Creates {@code bucket} with S3 Object Lock, and turns versioning on if asked (S3Mock leaves
     * it off; S3 turns it on with the lock). Only S3Mock has object lock here.
     */
    public void createLockedBucket(String bucket, boolean versioning) {
      try {
        client
            .createBucket(r -> r.bucket(bucket).objectLockEnabledForBucket(true))
            .get(30, TimeUnit.SECONDS);
        if (versioning) {
          client
              .putBucketVersioning(
                  r ->
                      r.bucket(bucket)
                          .versioningConfiguration(
                              v ->
                                  v.status(
                                      software.amazon.awssdk.services.s3.model
                                          .BucketVersioningStatus.ENABLED)))
              .get(30, TimeUnit.SECONDS);
        }
      } catch (ExecutionException | TimeoutException e) {
        throw new IllegalStateException(
            "Expected to create bucket " + bucket + " with object lock on " + kind, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    /**
     * A client with the same credentials that talks to {@code endpoint} (a proxy in front of this
     * server); the caller closes it.
     */
    public S3AsyncClient clientThrough(URI endpoint) {
      return LocalS3Servers.client(endpoint);
    }

    /** Creates {@code bucket} unless it exists. */
    public void createBucket(String bucket) {
      try {
        client
            .createBucket(CreateBucketRequest.builder().bucket(bucket).build())
            .get(30, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        String message = String.valueOf(e.getCause());
        if (!message.contains("BucketAlreadyOwnedByYou")
            && !message.contains("BucketAlreadyExists")) {
          throw new IllegalStateException(
              "Expected to create bucket " + bucket + " on " + kind, e.getCause());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      } catch (TimeoutException e) {
        throw new IllegalStateException(
            "Expected to create bucket " + bucket + " on " + kind + " within 30 s", e);
      }
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    // Registered once in the root store: closed when the whole run ends.
    context
        .getRoot()
        .getStore(ExtensionContext.Namespace.GLOBAL)
        .computeIfAbsent(LocalS3Servers.class, key -> new StopAll(), StopAll.class);
  }

  /** The running server of that kind, started on first use. */
  public static synchronized Running get(Kind kind) {
    Running running = RUNNING.get(kind);
    if (running != null) {
      return running;
    }
    Path dir = serversDir();
    Path workDir = dir.resolve("run");
    S3ServerProcess process =
        switch (kind) {
          case S3PROXY -> new S3ProxyServer(dir.resolve("s3proxy.jar"), workDir);
          case S3MOCK -> new S3MockServer(dir.resolve("s3mock.jar"), workDir);
        };
    try {
      process.start();
    } catch (IOException e) {
      process.close();
      throw new UncheckedIOException("Expected to start " + kind, e);
    }
    running = new Running(kind, process, client(process.endpoint()));
    RUNNING.put(kind, running);
    return running;
  }

  /** A plain SDK client of {@code endpoint} with the servers' credentials; the caller closes it. */
  private static S3AsyncClient client(URI endpoint) {
    return S3AsyncClient.builder()
        .httpClientBuilder(NettyNioAsyncHttpClient.builder().maxConcurrency(16))
        .region(Region.of(REGION))
        .endpointOverride(endpoint)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(S3ServerProcess.ACCESS_KEY, S3ServerProcess.SECRET_KEY)))
        .build();
  }

  private static Path serversDir() {
    Path dir = Path.of(System.getProperty("cairn.s3.servers.dir", "target/s3-servers"));
    if (!Files.isRegularFile(dir.resolve("s3proxy.jar"))
        || !Files.isRegularFile(dir.resolve("s3mock.jar"))) {
      throw new IllegalStateException(
          "Expected s3proxy.jar and s3mock.jar in "
              + dir
              + ", but they are missing; run the build through Maven (process-test-resources copies "
              + "them there)");
    }
    return dir;
  }

  /** Stops every started server. */
  static synchronized void stopAll() {
    for (Running running : RUNNING.values()) {
      running.client().close();
      running.process().close();
    }
    RUNNING.clear();
  }

  private static final class StopAll implements AutoCloseable {
    @Override
    public void close() {
      stopAll();
    }
  }
}
