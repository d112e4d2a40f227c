package io.cairn.backuptestkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.PageRequest;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Status and list answer while a save waits for the store's bytes/s limit with every transfer
 * thread taken (the broker's {@code backup.uploadConcurrency: 1}). The store's limit waits through
 * {@link #holdUntilReleased}, which blocks until the test releases it, so nothing depends on timing
 * but the bound on the answers. A store that has a bytes/s limit extends this and opens itself in
 * {@link #openThrottledStore}.
 */
public abstract class QueriesDuringSaveContract {

  /** Generous for a loaded CI machine; the latency goal itself is measured by a benchmark. */
  private static final long ANSWER_WITHIN_SECONDS = 2;

  private static final long AWAIT_SECONDS = 60;

  /** Larger than one second of the lowest limit, so the save must wait. */
  private static final int FILE_BYTES = 200_000;

  @TempDir protected Path sources;

  private final ExecutorService transfers = Executors.newFixedThreadPool(1);
  private final ExecutorService queries = Executors.newFixedThreadPool(2);
  private final CountDownLatch held = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private BackupStore store;

  /**
   * Opens the store with its lowest bytes/s limit, running transfers on {@code transfers} and
   * queries on {@code queries}, whose limit waits call {@link #holdUntilReleased} instead of
   * sleeping.
   */
  protected abstract BackupStore openThrottledStore(
      ExecutorService transfers, ExecutorService queries) throws Exception;

  /** The limit's wait of the store under test: blocks until the test releases it. */
  protected final void holdUntilReleased(long nanos) throws InterruptedException {
    held.countDown();
    if (!release.await(AWAIT_SECONDS, TimeUnit.SECONDS)) {
      throw new InterruptedException("the test never released the held save");
    }
  }

  @AfterEach
  void closeStore() {
    release.countDown();
    if (store != null) {
      store.close();
    }
    transfers.shutdownNow();
    queries.shutdownNow();
  }

  @Test
  void shouldAnswerStatusAndListWhileAThrottledSaveHoldsEveryTransferThread() throws Exception {
    // given a save held in the bytes/s limit's wait on the only transfer thread
    store = openThrottledStore(transfers, queries);
    var id = new BackupIdentifier(0, 1, 1);
    var future = store.save(backup(id), Optional.empty());
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

  private Backup backup(BackupIdentifier id) throws Exception {
    byte[] bytes = new byte[FILE_BYTES];
    new Random(3).nextBytes(bytes);
    Path source = Files.write(sources.resolve("1.log"), bytes);
    return Backup.builder(id)
        .checkpointPosition(10)
        .numberOfPartitions(1)
        .brokerVersion("0.1.0")
        .stateDigest("ab")
        .segments(NamedFileSet.of(new BackupFile("1.log", source, FILE_BYTES)))
        .build();
  }
}
