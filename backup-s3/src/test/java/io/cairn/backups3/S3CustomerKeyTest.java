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
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backups3.testserver.FaultInjectingProxy;
import io.cairn.backups3.testserver.LocalS3Servers;
import io.cairn.backups3.testserver.LocalS3Servers.Kind;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * SSE-C: every request that writes or reads object content carries the customer key (checked on the
 * wire by a recording proxy), a backup round-trips on S3Mock, and S3Proxy — which has no
 * server-side encryption — is refused at start naming {@code sseCustomerKey}.
 */
@ExtendWith(LocalS3Servers.class)
class S3CustomerKeyTest {

  private static final String BUCKET = "cairn-sse";
  private static final String KEY_HEADER = "x-amz-server-side-encryption-customer-key";
  private static final String COPY_KEY_HEADER =
      "x-amz-copy-source-server-side-encryption-customer-key";
  private static final Clock CLOCK =
      new SimClock(Instant.parse("2025-03-01T10:00:00Z").toEpochMilli());

  @TempDir Path dir;
  private final ExecutorService executor = Executors.newFixedThreadPool(4);

  @AfterEach
  void stopExecutor() {
    executor.shutdownNow();
  }

  private static String customerKey() {
    byte[] key = new byte[32];
    new Random(32).nextBytes(key);
    return Base64.getEncoder().encodeToString(key);
  }

  @Test
  void shouldSendTheCustomerKeyWithEveryContentRequest() throws Exception {
    LocalS3Servers.Running server = LocalS3Servers.get(Kind.S3MOCK);
    server.createBucket(BUCKET);
    try (var proxy = new FaultInjectingProxy(server.process().endpoint());
        S3BackupStore store =
            S3BackupStore.open(
                server
                    .config(BUCKET, "sse")
                    .endpoint(proxy.endpoint())
                    .sseCustomerKey(customerKey())
                    .build(),
                CLOCK,
                executor,
                executor,
                new SimpleMeterRegistry())) {
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

      await(store.save(first));
      BackupSaveResult reused = await(store.save(second, Optional.of(first.id())));
      assertThat(await(store.verify(second.id())).isClean()).isTrue();
      await(store.restore(second.id(), dir.resolve("restore"), RestoreProgressListener.NOOP));

      assertThat(reused.reusedFileCount()).isEqualTo(2);
      assertRestoredIdentical(second, dir.resolve("restore"));
      var objectRequests =
          proxy.requests().stream()
              .filter(
                  r ->
                      r.path().contains("/contents/")
                          || r.path().contains("/manifests/")
                          || r.path().contains("/.cairn/"))
              .filter(r -> !r.method().equals("DELETE") && !r.target().contains("list-type"))
              .toList();
      assertThat(objectRequests)
          .hasSizeGreaterThan(20)
          .allSatisfy(
              r ->
                  assertThat(r.headers()).as("%s %s", r.method(), r.target()).contains(KEY_HEADER));
      assertThat(objectRequests)
          .filteredOn(r -> r.headers().contains("x-amz-copy-source"))
          .hasSize(3)
          .allSatisfy(r -> assertThat(r.headers()).contains(COPY_KEY_HEADER));
    }
  }

  @Test
  void shouldRefuseToStartWhereTheServerHasNoServerSideEncryption() {
    LocalS3Servers.Running server = LocalS3Servers.get(Kind.S3PROXY);
    server.createBucket(BUCKET);
    var config = server.config(BUCKET, "sse").sseCustomerKey(customerKey()).build();

    assertThatThrownBy(
            () -> S3BackupStore.open(config, CLOCK, executor, executor, new SimpleMeterRegistry()))
        .isInstanceOfSatisfying(
            S3BackupStoreStartException.class,
            e -> assertThat(e.configKey()).isEqualTo("sseCustomerKey"))
        .hasMessageContaining("501")
        .hasMessageContaining("key sseCustomerKey")
        .hasMessageNotContaining(customerKey());
  }
}
