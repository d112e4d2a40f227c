package io.cairn.backups3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backupapi.Compression;
import java.net.URI;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class S3BackupStoreConfigTest {

  private static final String KEY_32 = Base64.getEncoder().encodeToString(new byte[32]);

  @Test
  void shouldApplyDefaults() {
    S3BackupStoreConfig config = S3BackupStoreConfig.builder("backups").build();

    assertThat(config.basePath()).isEmpty();
    assertThat(config.region()).isEqualTo("us-east-1");
    assertThat(config.endpoint()).isEmpty();
    assertThat(config.hasStaticCredentials()).isFalse();
    assertThat(config.maxConnections()).isEqualTo(16);
    assertThat(config.maxConcurrentTransfers()).isEqualTo(8);
    assertThat(config.compression()).isEqualTo(Compression.NONE);
    assertThat(config.partSizeBytes()).isEqualTo(8L * 1024 * 1024);
    assertThat(config.maxBytesPerSecond()).isZero();
    assertThat(config.conditionalWrites()).isEqualTo(ConditionalWrites.AUTO);
    assertThat(config.legacyMd5()).isFalse();
  }

  @Test
  void shouldDeriveTransfersFromConnectionsUnlessSet() {
    assertThat(
            S3BackupStoreConfig.builder("bkt").maxConnections(40).build().maxConcurrentTransfers())
        .isEqualTo(20);
    S3BackupStoreConfig set =
        S3BackupStoreConfig.builder("bkt").maxConnections(40).maxConcurrentTransfers(3).build();
    assertThat(set.maxConcurrentTransfers()).isEqualTo(3);
    assertThat(set.toBuilder().maxConnections(8).build().maxConcurrentTransfers()).isEqualTo(3);
    assertThat(
            S3BackupStoreConfig.builder("bkt").build().toBuilder()
                .maxConnections(64)
                .build()
                .maxConcurrentTransfers())
        .isEqualTo(32);
  }

  @Test
  void shouldNormalizeBasePathSlashes() {
    assertThat(
            S3BackupStoreConfig.builder("bkt").basePath("/cluster-a/backups/").build().basePath())
        .isEqualTo("cluster-a/backups");
  }

  static Stream<Arguments> invalidValues() {
    return Stream.of(
        bad("bucket", b -> S3BackupStoreConfig.builder("x")),
        bad("bucket", b -> S3BackupStoreConfig.builder("-bad-")),
        bad("bucket", b -> S3BackupStoreConfig.builder("has space")),
        bad("basePath", b -> b.basePath("a/../b")),
        bad("basePath", b -> b.basePath("a//b")),
        bad("basePath", b -> b.basePath("a\\b")),
        bad("region", b -> b.region("EU West")),
        bad("endpoint", b -> b.endpoint(URI.create("ftp://host"))),
        bad("endpoint", b -> b.endpoint(URI.create("http://host/bucket"))),
        bad("endpoint", b -> b.endpoint(URI.create("http://host?x=1"))),
        bad("secretAccessKey", b -> b.credentials("AKIA", null)),
        bad("accessKeyId", b -> b.credentials(null, "secret")),
        bad("accessKeyId", b -> b.credentials("has space", "secret")),
        bad("apiCallTimeout", b -> b.apiCallTimeout(Duration.ofMillis(10))),
        bad("apiCallTimeout", b -> b.apiCallTimeout(Duration.ofHours(2))),
        bad("maxConnections", b -> b.maxConnections(1)),
        bad("maxConnections", b -> b.maxConnections(5000)),
        bad("connectionAcquisitionTimeout", b -> b.connectionAcquisitionTimeout(Duration.ZERO)),
        bad("maxConcurrentTransfers", b -> b.maxConnections(8).maxConcurrentTransfers(5)),
        bad("maxConcurrentTransfers", b -> b.maxConcurrentTransfers(0)),
        bad("compressionThresholdBytes", b -> b.compression(Compression.ZSTD, -1)),
        bad("zstdLevel", b -> b.zstdLevel(0)),
        bad("zstdLevel", b -> b.zstdLevel(20)),
        bad("sseCustomerKey", b -> b.sseCustomerKey("not base64!")),
        bad(
            "sseCustomerKey",
            b -> b.sseCustomerKey(Base64.getEncoder().encodeToString(new byte[16]))),
        bad("partSizeBytes", b -> b.partSizeBytes(1024 * 1024)),
        bad("partSizeBytes", b -> b.partSizeBytes(6L * 1024 * 1024 * 1024)),
        bad("maxBytesPerSecond", b -> b.maxBytesPerSecond(1000)),
        bad("conditionalWrites", b -> b.conditionalWrites(null)),
        bad("maxAttempts", b -> b.maxAttempts(0)),
        bad("maxAttempts", b -> b.maxAttempts(21)),
        bad("retryBackoff", b -> b.retryBackoff(Duration.ZERO)),
        bad(
            "retryBackoffMax",
            b -> b.retryBackoff(Duration.ofSeconds(2)).retryBackoffMax(Duration.ofSeconds(1))));
  }

  private static Arguments bad(String key, UnaryOperator<S3BackupStoreConfig.Builder> change) {
    return Arguments.of(key, change);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidValues")
  void shouldRejectInvalidValueNamingItsKey(
      String key, UnaryOperator<S3BackupStoreConfig.Builder> change) {
    var builder = change.apply(S3BackupStoreConfig.builder("backups"));

    assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Expected " + key + " to be ")
        .hasMessageContaining("but")
        .hasMessageContaining("key " + key + ")");
  }

  @Test
  void shouldNeverShowSecretsInToString() {
    String secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    S3BackupStoreConfig config =
        S3BackupStoreConfig.builder("backups")
            .credentials("AKIAIOSFODNN7EXAMPLE", secret)
            .sseCustomerKey(KEY_32)
            .build();

    String text = config.toString();

    assertThat(text)
        .doesNotContain(secret)
        .doesNotContain(KEY_32)
        .doesNotContain("AKIAIOSFODNN7EXAMPLE")
        .contains("<redacted>")
        .contains("backups");
  }

  @Test
  void shouldReadEveryKeyFromProperties() {
    Map<String, String> p = new HashMap<>();
    p.put("bucket", "backups");
    p.put("basePath", "cluster-a");
    p.put("region", "eu-west-1");
    p.put("endpoint", "http://127.0.0.1:9000");
    p.put("accessKeyId", "minio");
    p.put("secretAccessKey", "minio-secret");
    p.put("pathStyleAccess", "true");
    p.put("apiCallTimeout", "45s");
    p.put("maxConnections", "32");
    p.put("connectionAcquisitionTimeout", "PT20S");
    p.put("maxConcurrentTransfers", "10");
    p.put("compression", "zstd");
    p.put("compressionThresholdBytes", "128KB");
    p.put("zstdLevel", "5");
    p.put("legacyMd5", "true");
    p.put("sseCustomerKey", KEY_32);
    p.put("partSizeBytes", "16MB");
    p.put("maxBytesPerSecond", "100MB");
    p.put("conditionalWrites", "required");
    p.put("maxAttempts", "8");
    p.put("retryBackoff", "250ms");
    p.put("retryBackoffMax", "1m");
    p.put("objectLockMode", "Compliance");
    p.put("objectLockPeriod", "30d");

    S3BackupStoreConfig config = S3BackupStoreConfig.fromProperties(p);

    assertThat(config.bucket()).isEqualTo("backups");
    assertThat(config.basePath()).isEqualTo("cluster-a");
    assertThat(config.region()).isEqualTo("eu-west-1");
    assertThat(config.endpoint()).contains(URI.create("http://127.0.0.1:9000"));
    assertThat(config.accessKeyId()).contains("minio");
    assertThat(config.secretAccessKey()).contains("minio-secret");
    assertThat(config.pathStyleAccess()).isTrue();
    assertThat(config.apiCallTimeout()).isEqualTo(Duration.ofSeconds(45));
    assertThat(config.maxConnections()).isEqualTo(32);
    assertThat(config.connectionAcquisitionTimeout()).isEqualTo(Duration.ofSeconds(20));
    assertThat(config.maxConcurrentTransfers()).isEqualTo(10);
    assertThat(config.compression()).isEqualTo(Compression.ZSTD);
    assertThat(config.compressionThresholdBytes()).isEqualTo(128 * 1024);
    assertThat(config.zstdLevel()).isEqualTo(5);
    assertThat(config.legacyMd5()).isTrue();
    assertThat(config.sseCustomerKey()).contains(KEY_32);
    assertThat(config.partSizeBytes()).isEqualTo(16L * 1024 * 1024);
    assertThat(config.maxBytesPerSecond()).isEqualTo(100L * 1024 * 1024);
    assertThat(config.conditionalWrites()).isEqualTo(ConditionalWrites.REQUIRED);
    assertThat(config.maxAttempts()).isEqualTo(8);
    assertThat(config.retryBackoff()).isEqualTo(Duration.ofMillis(250));
    assertThat(config.retryBackoffMax()).isEqualTo(Duration.ofMinutes(1));
    assertThat(config.objectLock())
        .contains(new ObjectLock(ObjectLock.Mode.COMPLIANCE, Duration.ofDays(30)));
    assertThat(config.toString()).contains("objectLock=compliance for PT720H");
  }

  @Test
  void shouldRefuseAnIncompleteOrBadObjectLockNamingTheKey() {
    assertThat(S3BackupStoreConfig.fromProperties(Map.of("bucket", "backups")).objectLock())
        .isEmpty();
    assertThatThrownBy(
            () ->
                S3BackupStoreConfig.fromProperties(
                    Map.of("bucket", "backups", "objectLockMode", "governance")))
        .hasMessageContaining("key objectLockPeriod)")
        .hasMessageContaining("it is not set")
        .hasMessageContaining("backup.retention.maxAge");
    assertThatThrownBy(
            () ->
                S3BackupStoreConfig.fromProperties(
                    Map.of("bucket", "backups", "objectLockPeriod", "30d")))
        .hasMessageContaining("key objectLockMode)")
        .hasMessageContaining("governance or compliance");
    assertThatThrownBy(
            () ->
                S3BackupStoreConfig.fromProperties(
                    Map.of(
                        "bucket",
                        "backups",
                        "objectLockMode",
                        "legal-hold",
                        "objectLockPeriod",
                        "1d")))
        .hasMessageContaining("key objectLockMode)")
        .hasMessageContaining("it is 'legal-hold'");
    assertThatThrownBy(
            () ->
                S3BackupStoreConfig.fromProperties(
                    Map.of(
                        "bucket",
                        "backups",
                        "objectLockMode",
                        "governance",
                        "objectLockPeriod",
                        "0s")))
        .hasMessageContaining("key objectLockPeriod)")
        .hasMessageContaining("at least 1s");
    assertThatThrownBy(
            () ->
                S3BackupStoreConfig.fromProperties(
                    Map.of(
                        "bucket",
                        "backups",
                        "objectLockMode",
                        "compliance",
                        "objectLockPeriod",
                        "30000000d")))
        .hasMessageContaining("key objectLockPeriod)")
        .hasMessageContaining("at most 36500d");
  }

  @Test
  void shouldRejectUnknownAndMalformedPropertiesNamingTheKey() {
    assertThatThrownBy(
            () -> S3BackupStoreConfig.fromProperties(Map.of("bucket", "b", "partSize", "8MB")))
        .hasMessageContaining("key partSize)")
        .hasMessageContaining("unknown");
    assertThatThrownBy(
            () ->
                S3BackupStoreConfig.fromProperties(Map.of("bucket", "b", "partSizeBytes", "eight")))
        .hasMessageContaining("key partSizeBytes)");
    assertThatThrownBy(
            () ->
                S3BackupStoreConfig.fromProperties(Map.of("bucket", "b", "apiCallTimeout", "soon")))
        .hasMessageContaining("key apiCallTimeout)");
    assertThatThrownBy(
            () ->
                S3BackupStoreConfig.fromProperties(Map.of("bucket", "b", "pathStyleAccess", "yes")))
        .hasMessageContaining("key pathStyleAccess)");
    assertThatThrownBy(
            () -> S3BackupStoreConfig.fromProperties(Map.of("bucket", "b", "compression", "lz4")))
        .hasMessageContaining("key compression)");
    assertThatThrownBy(
            () ->
                S3BackupStoreConfig.fromProperties(
                    Map.of("bucket", "b", "conditionalWrites", "maybe")))
        .hasMessageContaining("key conditionalWrites)");
    assertThatThrownBy(() -> S3BackupStoreConfig.fromProperties(Map.of("region", "x")))
        .hasMessageContaining("key bucket)");
  }
}
