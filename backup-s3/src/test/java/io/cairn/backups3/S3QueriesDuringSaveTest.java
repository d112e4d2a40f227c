package io.cairn.backups3;

import static io.cairn.backups3.S3TestSupport.backup;
import static io.cairn.backups3.S3TestSupport.file;
import static io.cairn.backups3.S3TestSupport.randomFile;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.PageRequest;
import io.cairn.backups3.testserver.LocalS3Servers;
import io.cairn.backups3.testserver.LocalS3Servers.Kind;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * On S3Proxy: status and list answer while a save waits for the bytes/s limit and its operation
 * holds every transfer-executor thread (the broker's {@code backup.uploadConcurrency: 1}). The
 * upload is held in the limit's wait until the test releases it.
 */
@ExtendWith(LocalS3Servers.class)
class S3QueriesDuringSaveTest {

  private static final String BUCKET = "cairn-queries";
  private static final Clock CLOCK =
      new SimClock(Instant.parse("2025-03-01T10:00:00Z").toEpochMilli());

  /** Generous for a loaded CI machine; the latency goal itself is measured by a benchmark. */
  private static final long ANSWER_WITHIN_SECONDS = 2;

  private static final long AWAIT_SECONDS = 60;

  @TempDir Path dir;
  private final ExecutorService transfers = Executors.newFixedThreadPool(1);
  private final ExecutorService queries = Executors.newFixedThreadPool(2);
  private final CountDownLatch held = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private S3BackupStore store;

  @AfterEach
  void close() {
    release.countDown();
    if (store != null) {
      store.close();
    }
    transfers.shutdownNow();
    queries.shutdownNow();
  }

  /** The limit's waits block until the test releases them. */
  private void holdUntilReleased(long nanos) throws InterruptedException {
    held.countDown();
    if (!release.await(AWAIT_SECONDS, TimeUnit.SECONDS)) {
      throw new InterruptedException("the test never released the held upload");
    }
  }

  private static <T> T answered(String operation, CompletableFuture<T> answer) throws Exception {
    try {
      return answer.get(ANSWER_WITHIN_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError(
          "Expected "
              + operation
              + " to answer within "
              + ANSWER_WITHIN_SECONDS
              + " s while a save is held, but it did not",
          e);
    }
  }

  @Test
  void shouldAnswerStatusAndListWhileAThrottledSaveHoldsEveryTransferThread() throws Exception {
    // given a save whose upload is held in the bytes/s limit's wait (200 KB at 64 KiB/s)
    LocalS3Servers.Running server = LocalS3Servers.get(Kind.S3PROXY);
    server.createBucket(BUCKET);
    store =
        S3BackupStore.open(
            server
                .config(BUCKET, "queries")
                .maxBytesPerSecond(S3BackupStoreConfig.MAX_BYTES_PER_SECOND_MIN)
                .build(),
            CLOCK,
            transfers,
            queries,
            new SimpleMeterRegistry(),
            this::holdUntilReleased);
    var id = new BackupIdentifier(0, 1, 1);
    Backup backup =
        backup(
            id,
            NamedFileSet.empty(),
            NamedFileSet.of(file("1.log", randomFile(dir, "1.log", 200_000, 1))));
    var future = store.save(backup);
    assertThat(held.await(AWAIT_SECONDS, TimeUnit.SECONDS)).as("upload held in the limit").isTrue();

    // when status and list are asked meanwhile
    BackupStatus status = answered("status", store.getStatus(id));
    BackupPage page =
        answered("list", store.list(BackupIdentifierWildcard.all(), PageRequest.first(10)));

    // then both answer while the save is still held, and the save completes once released
    assertThat(status.statusCode()).isEqualTo(BackupStatusCode.IN_PROGRESS);
    assertThat(page.statuses())
        .extracting(BackupStatus::statusCode)
        .containsExactly(BackupStatusCode.IN_PROGRESS);
    assertThat(future).isNotDone();
    release.countDown();
    BackupSaveResult result = future.get(AWAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(result.copiedFileCount()).isEqualTo(1);
    assertThat(store.getStatus(id).get(AWAIT_SECONDS, TimeUnit.SECONDS).statusCode())
        .isEqualTo(BackupStatusCode.COMPLETED);
    assertThat(store.verify(id).get(AWAIT_SECONDS, TimeUnit.SECONDS).isClean()).isTrue();
  }
}
