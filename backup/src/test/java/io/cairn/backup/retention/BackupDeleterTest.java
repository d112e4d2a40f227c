package io.cairn.backup.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.backup.BackupMetrics;
import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.logstreams.LogStreamWriter;
import io.cairn.logstreams.WriteResult;
import io.cairn.pacing.Backoff;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.Record;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.ThreadPoolActorScheduler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition leader's deleter against a real filesystem store: every copy of the partition's
 * backup goes (whichever node wrote it), other backups and other partitions' stay, and {@code
 * CONFIRM_DELETION} is written once per deletion, also when told twice.
 */
final class BackupDeleterTest {

  private static final int PARTITION = 1;

  @TempDir Path directory;
  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final BackupMetrics metrics = new BackupMetrics(registry, PARTITION, Clock.system());
  private final List<Record> written = new CopyOnWriteArrayList<>();
  private ThreadPoolActorScheduler scheduler;
  private FilesystemBackupStore store;

  @BeforeEach
  void open() throws IOException {
    store =
        FilesystemBackupStore.open(
            FilesystemBackupStoreConfig.of(Files.createDirectories(directory.resolve("store"))),
            Clock.system(),
            executor,
            executor,
            new SimpleMeterRegistry());
    scheduler = new ThreadPoolActorScheduler("deleter-test", 1, Clock.system(), registry);
  }

  @AfterEach
  void close() {
    scheduler.close();
    store.close();
    executor.shutdownNow();
  }

  @Test
  void shouldDeleteEveryCopyOfThePartitionsBackupAndConfirmOnce() throws IOException {
    save(0, PARTITION, 5);
    save(1, PARTITION, 5); // a copy by an earlier leader
    save(0, PARTITION, 7);
    save(0, 2, 5); // another partition's backup of the same id
    BackupDeleter deleter = startDeleter();

    deleter.delete(5);
    deleter.delete(5); // told again, as retention may ask after a lost answer

    await("CONFIRM_DELETION(5) written")
        .atMost(Duration.ofSeconds(30))
        .until(() -> !written.isEmpty() && deleter.underWay().join().isEmpty());
    assertThat(status(0, PARTITION, 5)).isEqualTo(BackupStatusCode.DOES_NOT_EXIST);
    assertThat(status(1, PARTITION, 5)).isEqualTo(BackupStatusCode.DOES_NOT_EXIST);
    assertThat(status(0, PARTITION, 7)).isEqualTo(BackupStatusCode.COMPLETED);
    assertThat(status(0, 2, 5)).isEqualTo(BackupStatusCode.COMPLETED);
    assertThat(written).hasSize(1);
    assertThat(written.get(0).metadata().intent()).isEqualTo(CheckpointIntent.CONFIRM_DELETION);
    assertThat(((CheckpointValue) written.get(0).value()).checkpointId()).isEqualTo(5);
    assertThat(metrics.operationCount(BackupMetrics.Operation.DELETE, BackupMetrics.Result.SUCCESS))
        .isEqualTo(1);
    assertThat(registry.get(BackupMetrics.DELETIONS_PENDING).gauge().value()).isZero();
  }

  @Test
  void shouldTakeOverThePendingDeletionsOnceTheStateIsComplete() throws IOException {
    save(0, PARTITION, 3);
    BackupDeleter deleter = startDeleter();
    java.util.concurrent.atomic.AtomicInteger reads =
        new java.util.concurrent.atomic.AtomicInteger();

    // the state answers only from the third read on (a new leader replaying its log before), and
    // holds the deletion until its confirmation is written (then applied)
    deleter.resumeFrom(
        () ->
            java.util.concurrent.CompletableFuture.completedFuture(
                reads.incrementAndGet() < 3
                    ? java.util.Optional.<List<Long>>empty()
                    : java.util.Optional.of(written.isEmpty() ? List.of(3L) : List.<Long>of())),
        Duration.ofMillis(20));

    await("the pending deletion taken over and confirmed")
        .atMost(Duration.ofSeconds(30))
        .until(() -> !written.isEmpty() && deleter.underWay().join().isEmpty());
    assertThat(status(0, PARTITION, 3)).isEqualTo(BackupStatusCode.DOES_NOT_EXIST);
    assertThat(reads.get()).isGreaterThanOrEqualTo(3);
    assertThat(written).hasSize(1);
  }

  /**
   * A read of the state taken before the confirmation, answered only after it was written and after
   * a newer read's answer, still lists the deletion: it is not started (and confirmed) a second
   * time (fails when answers are used out of order).
   */
  @Test
  void shouldNotStartADeletionAgainFromAReadTakenBeforeItsConfirmation() throws IOException {
    save(0, PARTITION, 4);
    BackupDeleter deleter = startDeleter();
    java.util.concurrent.atomic.AtomicInteger reads =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger readsAtStaleAnswer =
        new java.util.concurrent.atomic.AtomicInteger(-1);

    deleter.resumeFrom(
        () -> {
          int read = reads.incrementAndGet();
          if (read == 1) {
            return java.util.concurrent.CompletableFuture.completedFuture(
                java.util.Optional.of(List.of(4L)));
          }
          if (read == 2) {
            // taken now, before the confirmation; answered once it has been written
            return java.util.concurrent.CompletableFuture.supplyAsync(
                () -> {
                  await("the confirmation written")
                      .atMost(Duration.ofSeconds(30))
                      .until(() -> !written.isEmpty() && deleter.underWay().join().isEmpty());
                  readsAtStaleAnswer.set(reads.get());
                  return java.util.Optional.of(List.of(4L));
                });
          }
          return java.util.concurrent.CompletableFuture.completedFuture(
              java.util.Optional.of(List.<Long>of()));
        },
        Duration.ofMillis(20));

    // after the stale answer, a few more reads and nothing under way: a second deletion, had it
    // started, has confirmed by then
    await("the stale read answered and later ones made")
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                readsAtStaleAnswer.get() >= 0
                    && reads.get() > readsAtStaleAnswer.get() + 5
                    && deleter.underWay().join().isEmpty());
    assertThat(written).as("CONFIRM_DELETION(4) written once").hasSize(1);
  }

  /** A leader's deleter whose log writer records every command and accepts it. */
  private BackupDeleter startDeleter() {
    LogStreamWriter writer =
        records -> {
          written.addAll(records);
          return new WriteResult.Written(1, records.size());
        };
    BackupDeleter deleter =
        new BackupDeleter(
            0,
            PARTITION,
            store,
            writer,
            new Backoff(Duration.ofMillis(10), Duration.ofMillis(100)),
            metrics);
    scheduler.start(deleter).join();
    return deleter;
  }

  private BackupStatusCode status(int node, int partition, long id) {
    return store.getStatus(new BackupIdentifier(node, partition, id)).join().statusCode();
  }

  private void save(int node, int partition, long id) throws IOException {
    Path file = directory.resolve("segment-" + node + "-" + partition + "-" + id);
    Files.write(file, new byte[] {1, 2, 3});
    store
        .save(
            Backup.builder(new BackupIdentifier(node, partition, id))
                .checkpointPosition(10)
                .numberOfPartitions(2)
                .brokerVersion("0.1.0")
                .stateDigest("0a")
                .segments(NamedFileSet.of(new BackupFile("1.log", file, 3)))
                .build())
        .join();
  }
}
