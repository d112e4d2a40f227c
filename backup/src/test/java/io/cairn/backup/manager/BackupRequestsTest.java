package io.cairn.backup.manager;

import static io.cairn.backup.manager.BackupTestPartition.TIMEOUT;
import static io.cairn.backup.manager.BackupTestPartition.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.backup.BackupConfig;
import io.cairn.backup.BackupManager;
import io.cairn.backup.BackupOutcome;
import io.cairn.backup.BackupRequests;
import io.cairn.backup.CheckpointOrigin;
import io.cairn.backupapi.BackupStatusCode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Markers and stamped checkpoints in front of a real backup manager, journal and filesystem store:
 * a marker is never backed up, a backup always is, and a checkpoint taken through a stamp waits for
 * its late request — backed up if that says backup or nothing says anything in time, not if it says
 * marker.
 */
final class BackupRequestsTest {

  private static final Duration GRACE = Duration.ofMillis(500);

  @TempDir Path directory;
  private BackupTestPartition partition;
  private BackupManager manager;
  private BackupRequests requests;
  private long last;

  @BeforeEach
  void open() throws IOException {
    partition = new BackupTestPartition(directory);
    last = partition.appendEntries(20);
    manager = partition.startManager(0, BackupConfig.defaults());
    requests = new BackupRequests(manager, GRACE);
  }

  @AfterEach
  void close() throws Exception {
    partition.close();
  }

  private BackupStatusCode status(long id) {
    return partition.status(0, id).statusCode();
  }

  @Test
  void aHeldUploadThatTurnsOutAMarkerWritesNothingAndReleasesItsReservation() {
    BackupOutcome outcome =
        manager
            .takeBackup(checkpoint(3, last), CompletableFuture.completedFuture(false))
            .orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS)
            .join();
    assertThat(outcome.kind()).isEqualTo(BackupOutcome.Kind.MARKER);
    assertThat(partition.store.saved()).isEmpty();
    assertThat(status(3)).isEqualTo(BackupStatusCode.DOES_NOT_EXIST);
    // the id is free for a backup of it afterwards
    assertThat(BackupManagerTest.take(manager, checkpoint(3, last)).kind())
        .isEqualTo(BackupOutcome.Kind.COMPLETED);
  }

  @Test
  void markersAreNotBackedUpAndBackupsAre() throws Exception {
    requests.onCheckpointTaken(checkpoint(2, last - 3), CheckpointOrigin.MARKER);
    requests.onCheckpointTaken(checkpoint(3, last), CheckpointOrigin.BACKUP);
    await().atMost(TIMEOUT).until(() -> status(3) == BackupStatusCode.COMPLETED);
    Thread.sleep(GRACE.toMillis());
    assertThat(status(2)).isEqualTo(BackupStatusCode.DOES_NOT_EXIST);
  }

  @Test
  void aStampedCheckpointIsBackedUpOnlyWhenItsRequestSaysBackupOrNothingSaysAnything()
      throws Exception {
    requests.onCheckpointTaken(checkpoint(4, last - 6), CheckpointOrigin.STAMPED);
    requests.onCheckpointRequested(4, CheckpointOrigin.MARKER);
    requests.onCheckpointTaken(checkpoint(5, last - 3), CheckpointOrigin.STAMPED);
    Thread.sleep(GRACE.toMillis() / 2);
    assertThat(status(5))
        .as("held until its request says")
        .isEqualTo(BackupStatusCode.DOES_NOT_EXIST);
    requests.onCheckpointRequested(5, CheckpointOrigin.BACKUP);
    requests.onCheckpointTaken(checkpoint(6, last), CheckpointOrigin.STAMPED);

    await().atMost(TIMEOUT).until(() -> status(5) == BackupStatusCode.COMPLETED);
    await("the unanswered one, after the grace")
        .atMost(TIMEOUT)
        .until(() -> status(6) == BackupStatusCode.COMPLETED);
    assertThat(status(4)).isEqualTo(BackupStatusCode.DOES_NOT_EXIST);
  }
}
