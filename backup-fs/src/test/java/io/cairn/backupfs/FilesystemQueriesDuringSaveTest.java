package io.cairn.backupfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.PageRequest;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Status and list answer while a save waits for the bytes/s limit with every transfer thread taken
 * (the broker's {@code backup.uploadConcurrency: 1}). The save is held in the limit's wait until
 * the test releases it, so nothing depends on timing but the bound on the answers.
 */
class FilesystemQueriesDuringSaveTest {

  /** Generous for a loaded CI machine; the latency goal itself is measured by a benchmark. */
  private static final long ANSWER_WITHIN_SECONDS = 2;

  private static final long AWAIT_SECONDS = 60;
  private static final long RATE_BYTES_PER_SECOND = 64 * 1024;

  @TempDir Path base;
  @TempDir Path sources;

  private final ExecutorService transfers = Executors.newFixedThreadPool(1);
  private final ExecutorService queries = Executors.newFixedThreadPool(2);
  private final CountDownLatch held = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private FilesystemBackupStore store;

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
      throw new InterruptedException("the test never released the held save");
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
    // given a save held in the bytes/s limit's wait on the only transfer thread
    store =
        FilesystemBackupStore.open(
            FilesystemBackupStoreConfig.of(base)
                .withMaxConcurrentFileCopies(1)
                .withMaxBytesPerSecond(RATE_BYTES_PER_SECOND),
            new SimClock(Instant.parse("2025-03-01T10:00:00Z").toEpochMilli()),
            transfers,
            queries,
            new SimpleMeterRegistry(),
            this::holdUntilReleased);
    var id = new BackupIdentifier(0, 1, 1);
    var future = store.save(backup(id, 1 << 20), Optional.empty());
    assertThat(held.await(AWAIT_SECONDS, TimeUnit.SECONDS)).as("save held in the limit").isTrue();

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

  private Backup backup(BackupIdentifier id, int sizeBytes) throws Exception {
    byte[] bytes = new byte[sizeBytes];
    new Random(3).nextBytes(bytes);
    Path source = Files.write(sources.resolve("1.log"), bytes);
    return Backup.builder(id)
        .checkpointPosition(10)
        .numberOfPartitions(1)
        .brokerVersion("0.1.0")
        .stateDigest("ab")
        .segments(NamedFileSet.of(new BackupFile("1.log", source, sizeBytes)))
        .build();
  }
}
