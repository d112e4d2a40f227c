package io.cairn.backups3;

import static io.cairn.backups3.S3TestSupport.MIB;
import static io.cairn.backups3.S3TestSupport.assertRestoredIdentical;
import static io.cairn.backups3.S3TestSupport.await;
import static io.cairn.backups3.S3TestSupport.backup;
import static io.cairn.backups3.S3TestSupport.file;
import static io.cairn.backups3.S3TestSupport.randomFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backups3.testserver.FaultInjectingProxy;
import io.cairn.backups3.testserver.LocalS3Servers;
import io.cairn.backups3.testserver.LocalS3Servers.Kind;
import io.cairn.backups3.testserver.ObjectLockEmulation;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Immutable backups on a bucket with S3 Object Lock and versioning (S3Mock, with what it lacks of
 * object lock emulated by {@link ObjectLockEmulation} in a proxy): every request that creates an
 * object of a backup or of the log archive carries the configured retention, and nothing else does;
 * someone holding the store's credentials can hide a backup behind delete markers but not remove
 * its versions, and once the markers are removed the backup restores and verifies again. A bucket
 * without object lock or without versioning, and a server without object lock, are refused at start
 * naming {@code objectLockMode}.
 */
@ExtendWith(LocalS3Servers.class)
class S3ObjectLockTest {

  private static final Duration PERIOD = Duration.ofHours(1);
  private static final String MODE = "x-amz-object-lock-mode";
  private static final String UNTIL = "x-amz-object-lock-retain-until-date";

  @TempDir Path dir;
  private final ExecutorService executor = Executors.newFixedThreadPool(4);

  @AfterEach
  void stopExecutor() {
    executor.shutdownNow();
  }

  @Test
  void locksEveryObjectAndKeepsTheBackupThroughItsDeletion() throws Exception {
    LocalS3Servers.Running server = LocalS3Servers.get(Kind.S3MOCK);
    String bucket = "cairn-lock-" + System.nanoTime();
    server.createLockedBucket(bucket, true);
    ObjectLockEmulation lock = new ObjectLockEmulation(server.client(), bucket);
    try (var proxy = new FaultInjectingProxy(server.process().endpoint()).refuse(lock);
        S3BackupStore store = open(server, bucket, proxy)) {
      Path large = randomFile(dir, "1.log", 6 * MIB, 1);
      Path small = randomFile(dir, "2.log", 100, 2);
      Backup first =
          backup(
              new BackupIdentifier(0, 1, 1),
              NamedFileSet.empty(),
              NamedFileSet.of(file("1.log", large), file("2.log", small)));
      Backup second =
          backup(
              new BackupIdentifier(0, 1, 2),
              NamedFileSet.empty(),
              NamedFileSet.of(file("1.log", large), file("2.log", small)));
      Instant before = Instant.now();
      await(store.save(first));
      await(store.save(second, Optional.of(first.id())));
      await(store.archive().create("1/links/00000000000000000001", "link".getBytes()));
      Instant after = Instant.now();

      var creating =
          proxy.requests().stream()
              .filter(r -> r.path().startsWith("/" + bucket + "/locked/"))
              .filter(r -> !r.path().contains("/.cairn/"))
              .filter(
                  r ->
                      (r.method().equals("PUT") && !r.query().contains("partNumber="))
                          || (r.method().equals("POST") && r.query().contains("uploads")))
              .toList();
      assertThat(creating)
          .as("manifests, contents (put, multipart and copied) and the archive object")
          .hasSizeGreaterThan(8)
          .anySatisfy(r -> assertThat(r.query()).contains("uploads"))
          .anySatisfy(r -> assertThat(r.headers()).contains("x-amz-copy-source"))
          .anySatisfy(r -> assertThat(r.path()).contains("/archive/"))
          .allSatisfy(
              r -> {
                assertThat(r.header(MODE))
                    .as("%s %s", r.method(), r.target())
                    .isEqualTo("GOVERNANCE");
                assertThat(Instant.parse(r.header(UNTIL)))
                    .as("%s %s", r.method(), r.target())
                    .isBetween(
                        before.plus(PERIOD).minusSeconds(1), after.plus(PERIOD).plusSeconds(1));
              });
      assertThat(versions(server.client(), bucket, "locked/.cairn/").versions())
          .as("no version of a start-up probe left behind")
          .isEmpty();
      assertThat(versions(server.client(), bucket, "locked/.cairn/").deleteMarkers())
          .as("no delete marker of a start-up probe left behind")
          .isEmpty();
      assertThat(proxy.requests())
          .as("the start-up probes are not locked: they are deleted again")
          .filteredOn(r -> r.path().contains("/probe-"))
          .isNotEmpty()
          .allSatisfy(r -> assertThat(r.headers()).doesNotContain(MODE, UNTIL));

      // Whoever holds the credentials deletes backup 2 — the store's own delete, then every
      // version it can find: the delete leaves markers, the versions stay.
      await(store.delete(second.id()));
      assertThat(await(store.getStatus(second.id())).statusCode())
          .isEqualTo(BackupStatusCode.DOES_NOT_EXIST);
      assertThat(listed(store)).as("the listing shows current versions only").containsExactly(1L);
      S3AsyncClient attacker = server.clientThrough(proxy.endpoint());
      ListObjectVersionsResponse versions = versions(attacker, bucket, "locked/");
      List<String> refused =
          versions.versions().stream()
              .filter(v -> v.key().contains("/0000000000000000002/"))
              .map(
                  v -> {
                    try {
                      attacker
                          .deleteObject(r -> r.bucket(bucket).key(v.key()).versionId(v.versionId()))
                          .get(30, TimeUnit.SECONDS);
                      return "deleted " + v.key();
                    } catch (Exception e) {
                      return e.getCause() instanceof S3Exception s3
                          ? s3.awsErrorDetails().errorCode()
                          : e.toString();
                    }
                  })
              .toList();
      assertThat(refused).isNotEmpty().containsOnly("AccessDenied");

      // Recovery: remove the delete markers; the locked versions are current again.
      for (var marker : versions(attacker, bucket, "locked/").deleteMarkers()) {
        attacker
            .deleteObject(r -> r.bucket(bucket).key(marker.key()).versionId(marker.versionId()))
            .get(30, TimeUnit.SECONDS);
      }
      assertThat(await(store.getStatus(second.id())).statusCode())
          .isEqualTo(BackupStatusCode.COMPLETED);
      assertThat(listed(store)).containsExactly(1L, 2L);
      assertThat(await(store.verify(second.id())).isClean()).isTrue();
      await(store.restore(second.id(), dir.resolve("restore"), RestoreProgressListener.NOOP));
      assertRestoredIdentical(second, dir.resolve("restore"));
      attacker.close();
    }
  }

  @Test
  void refusesABucketWithoutObjectLockOrVersioning() throws Exception {
    LocalS3Servers.Running server = LocalS3Servers.get(Kind.S3MOCK);
    String plain = "cairn-unlocked";
    server.createBucket(plain);
    assertThatThrownBy(() -> open(server, plain, null))
        .isInstanceOfSatisfying(
            S3BackupStoreStartException.class,
            e -> assertThat(e.configKey()).isEqualTo("objectLockMode"))
        .hasMessageContaining("Expected bucket 'cairn-unlocked' to have S3 Object Lock enabled")
        .hasMessageContaining("create one with object lock, or remove objectLockMode");

    String unversioned = "cairn-lock-unversioned";
    server.createLockedBucket(unversioned, false);
    assertThatThrownBy(() -> open(server, unversioned, null))
        .isInstanceOfSatisfying(
            S3BackupStoreStartException.class,
            e -> assertThat(e.configKey()).isEqualTo("objectLockMode"))
        .hasMessageContaining("versioning is not enabled on it");
  }

  @Test
  void namesTheCredentialsWhenTheyMayNotReadTheLockConfiguration() throws Exception {
    LocalS3Servers.Running server = LocalS3Servers.get(Kind.S3MOCK);
    String bucket = "cairn-lock-denied";
    server.createLockedBucket(bucket, true);
    try (var proxy =
        new FaultInjectingProxy(server.process().endpoint())
            .refuse(
                r ->
                    r.query().contains("object-lock")
                        ? Optional.of(
                            new FaultInjectingProxy.Refusal(403, "AccessDenied", "Access Denied"))
                        : Optional.empty())) {
      assertThatThrownBy(() -> open(server, bucket, proxy))
          .isInstanceOfSatisfying(
              S3BackupStoreStartException.class,
              e -> assertThat(e.configKey()).isEqualTo("accessKeyId"))
          .hasMessageContaining("s3:GetBucketObjectLockConfiguration")
          .hasMessageContaining("403");
    }
  }

  @Test
  void refusesAServerWithoutObjectLock() {
    LocalS3Servers.Running server = LocalS3Servers.get(Kind.S3PROXY);
    server.createBucket("cairn-lock");
    assertThatThrownBy(() -> open(server, "cairn-lock", null))
        .isInstanceOfSatisfying(
            S3BackupStoreStartException.class,
            e -> assertThat(e.configKey()).isEqualTo("objectLockMode"))
        .hasMessageContaining("501")
        .hasMessageContaining("object lock configuration");
  }

  private S3BackupStore open(
      LocalS3Servers.Running server, String bucket, FaultInjectingProxy proxy) {
    var config =
        server
            .config(bucket, "locked")
            .objectLock(new ObjectLock(ObjectLock.Mode.GOVERNANCE, PERIOD));
    if (proxy != null) {
      config.endpoint(proxy.endpoint());
    }
    return S3BackupStore.open(
        config.build(), Clock.system(), executor, executor, new SimpleMeterRegistry());
  }

  private static List<Long> listed(S3BackupStore store) {
    return await(store.list(BackupIdentifierWildcard.all(), PageRequest.first()))
        .statuses()
        .stream()
        .map(status -> status.id().checkpointId())
        .sorted()
        .toList();
  }

  private static ListObjectVersionsResponse versions(
      S3AsyncClient client, String bucket, String prefix) throws Exception {
    return client
        .listObjectVersions(r -> r.bucket(bucket).prefix(prefix))
        .get(30, TimeUnit.SECONDS);
  }
}
