package io.cairn.backuptestkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupAlreadyExistsException;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupInProgressException;
import io.cairn.backupapi.BackupMarkedFailedException;
import io.cairn.backupapi.BackupNotFoundException;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.BackupStoreException;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupapi.manifest.Manifest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Contract: save, status, markFailed and delete, and the manifest state machine. */
public abstract class LifecycleContractTests extends BackupStoreTestKitSupport {

  @Test
  void shouldReportDoesNotExistForUnknownBackup() {
    BackupStatus status = await(store.getStatus(id(0, 1, 1)));

    assertThat(status).isEqualTo(BackupStatus.doesNotExist(id(0, 1, 1)));
  }

  @Test
  void shouldCompleteSavedBackupWithItsDescriptorAndTimestamps() throws Exception {
    Backup backup = typicalBackup(id(1, 2, 5));
    Instant savedAt = clock.instant();

    BackupSaveResult result = await(store.save(backup));

    assertThat(result.status().statusCode()).isEqualTo(BackupStatusCode.COMPLETED);
    assertThat(result.copiedFileCount()).isEqualTo(backup.descriptor().fileCount());
    assertThat(result.copiedBytes()).isEqualTo(backup.descriptor().sizeBytes());
    assertThat(result.reusedFileCount()).isZero();
    assertThat(result.storedBytes()).isEqualTo(backup.descriptor().sizeBytes());
    BackupStatus status = await(store.getStatus(backup.id()));
    assertThat(status.statusCode()).isEqualTo(BackupStatusCode.COMPLETED);
    assertThat(status.descriptor()).contains(backup.descriptor());
    assertThat(status.failureReason()).isEmpty();
    assertThat(status.createdAt()).contains(savedAt);
    assertThat(status.lastUpdatedAt()).contains(savedAt);
    assertThat(status).isEqualTo(result.status());
  }

  @Test
  void shouldSaveLogOnlyBackupWithoutSnapshot() throws Exception {
    Backup backup = tinyBackup(id(0, 1, 3));

    await(store.save(backup));

    BackupStatus status = await(store.getStatus(backup.id()));
    assertThat(status.descriptor().orElseThrow().snapshotId()).isEmpty();
    Path target = newDirectory("restore");
    Backup restored = await(store.restore(backup.id(), target, RestoreProgressListener.NOOP));
    assertThat(restored.snapshot().isEmpty()).isTrue();
    assertRestoredIdentical(backup, restored, target);
  }

  @Test
  void shouldRefuseSavingOverCompletedBackup() throws Exception {
    Backup first = typicalBackup(id(0, 1, 7));
    await(store.save(first));
    Backup second = tinyBackup(id(0, 1, 7));

    assertThatThrownBy(() -> await(store.save(second)))
        .isInstanceOfSatisfying(
            BackupAlreadyExistsException.class,
            e -> assertThat(e.existingStatus()).isEqualTo(BackupStatusCode.COMPLETED));

    assertThat(await(store.getStatus(first.id())).descriptor()).contains(first.descriptor());
    Path target = newDirectory("restore");
    assertRestoredIdentical(
        first, await(store.restore(first.id(), target, RestoreProgressListener.NOOP)), target);
  }

  @Test
  void shouldRefuseSavingOverFailedBackup() throws Exception {
    BackupIdentifier id = id(0, 1, 8);
    await(store.markFailed(id, "leader changed"));

    assertThatThrownBy(() -> await(store.save(tinyBackup(id))))
        .isInstanceOfSatisfying(
            BackupAlreadyExistsException.class,
            e -> assertThat(e.existingStatus()).isEqualTo(BackupStatusCode.FAILED));
    assertThat(await(store.getStatus(id)).statusCode()).isEqualTo(BackupStatusCode.FAILED);
  }

  @Test
  void shouldRefuseSavingOverInProgressBackup() throws Exception {
    Backup backup = tinyBackup(id(0, 1, 9));
    writeRawManifest(
        backup.id(), CODEC.encode(Manifest.inProgress(backup.descriptor(), clock.instant())));

    assertThatThrownBy(() -> await(store.save(backup)))
        .isInstanceOfSatisfying(
            BackupAlreadyExistsException.class,
            e -> assertThat(e.existingStatus()).isEqualTo(BackupStatusCode.IN_PROGRESS));
    assertThat(await(store.getStatus(backup.id())).statusCode())
        .isEqualTo(BackupStatusCode.IN_PROGRESS);
  }

  @Test
  void shouldCreateFailedBackupWhenMarkingMissingOne() {
    BackupIdentifier id = id(2, 3, 4);

    BackupStatus status = await(store.markFailed(id, "leader changed"));

    assertThat(status.statusCode()).isEqualTo(BackupStatusCode.FAILED);
    assertThat(status.failureReason()).contains("leader changed");
    assertThat(status.descriptor()).isEmpty();
    assertThat(status.createdAt()).contains(clock.instant());
    assertThat(await(store.getStatus(id))).isEqualTo(status);
  }

  @Test
  void shouldKeepFirstReasonWhenMarkedFailedTwice() {
    BackupIdentifier id = id(0, 1, 4);
    BackupStatus first = await(store.markFailed(id, "leader changed"));
    clock.advance(Duration.ofMinutes(1));

    BackupStatus second = await(store.markFailed(id, "disk full"));

    assertThat(second).isEqualTo(first);
    assertThat(await(store.getStatus(id))).isEqualTo(first);
  }

  @Test
  void shouldMarkInProgressBackupFailedKeepingItsDescriptor() throws Exception {
    Backup backup = tinyBackup(id(0, 1, 10));
    Instant created = clock.instant();
    writeRawManifest(backup.id(), CODEC.encode(Manifest.inProgress(backup.descriptor(), created)));
    clock.advance(Duration.ofSeconds(30));
    Instant failedAt = clock.instant();

    BackupStatus status = await(store.markFailed(backup.id(), "leader changed"));

    assertThat(status.statusCode()).isEqualTo(BackupStatusCode.FAILED);
    assertThat(status.failureReason()).contains("leader changed");
    assertThat(status.descriptor()).contains(backup.descriptor());
    assertThat(status.createdAt()).contains(created);
    assertThat(status.lastUpdatedAt()).contains(failedAt);
    assertThat(await(store.getStatus(backup.id()))).isEqualTo(status);
  }

  @Test
  void shouldKeepCompletedBackupWhenMarkedFailed() throws Exception {
    Backup backup = tinyBackup(id(0, 1, 11));
    BackupStatus completed = await(store.save(backup)).status();
    clock.advance(Duration.ofSeconds(5));

    BackupStatus status = await(store.markFailed(backup.id(), "leader changed"));

    assertThat(status).isEqualTo(completed);
    assertThat(await(store.getStatus(backup.id()))).isEqualTo(completed);
  }

  @Test
  void shouldEndFailedWhenMarkedFailedDuringSave() throws Exception {
    Path dir = newDirectory("gated");
    byte[] content = new byte[50_000];
    new Random(42).nextBytes(content);
    try (FifoGate gate = FifoGate.create(dir.resolve("2.log"))) {
      Backup backup =
          backup(
              id(0, 1, 12),
              NamedFileSet.empty(),
              NamedFileSet.of(
                  file("1.log", randomFile(dir, "1.log", 1000, 1)),
                  new BackupFile("2.log", gate.path(), content.length)));
      CompletableFuture<BackupSaveResult> save = store.save(backup);
      gate.awaitReader(TIMEOUT);
      assertThat(await(store.getStatus(backup.id())).statusCode())
          .isEqualTo(BackupStatusCode.IN_PROGRESS);

      BackupStatus failed = await(store.markFailed(backup.id(), "leader changed"));
      gate.write(content);

      assertThat(failed.statusCode()).isEqualTo(BackupStatusCode.FAILED);
      assertThatThrownBy(() -> await(save)).isInstanceOf(BackupMarkedFailedException.class);
      BackupStatus status = await(store.getStatus(backup.id()));
      assertThat(status.statusCode()).isEqualTo(BackupStatusCode.FAILED);
      assertThat(status.failureReason()).contains("leader changed");
    }
  }

  @Test
  void shouldRefuseDeletingBackupWhileItsSaveRuns() throws Exception {
    Path dir = newDirectory("gated");
    byte[] content = new byte[10_000];
    try (FifoGate gate = FifoGate.create(dir.resolve("1.log"))) {
      Backup backup =
          backup(
              id(0, 1, 13),
              NamedFileSet.empty(),
              NamedFileSet.of(new BackupFile("1.log", gate.path(), content.length)));
      CompletableFuture<BackupSaveResult> save = store.save(backup);
      gate.awaitReader(TIMEOUT);

      assertThatThrownBy(() -> await(store.delete(backup.id())))
          .isInstanceOf(BackupInProgressException.class);
      assertThatThrownBy(() -> await(store.save(tinyBackup(backup.id()))))
          .isInstanceOfSatisfying(
              BackupAlreadyExistsException.class,
              e -> assertThat(e.existingStatus()).isEqualTo(BackupStatusCode.IN_PROGRESS));
      await(store.markFailed(backup.id(), "leader changed"));
      assertThatThrownBy(() -> await(store.delete(backup.id())))
          .as("a FAILED backup whose save still runs")
          .isInstanceOf(BackupInProgressException.class);

      gate.write(content);
      assertThatThrownBy(() -> await(save)).isInstanceOf(BackupMarkedFailedException.class);
      await(store.delete(backup.id()));
      assertThat(await(store.getStatus(backup.id())).exists()).isFalse();
    }
  }

  @Test
  void shouldRefuseDeletingInProgressBackup() throws Exception {
    Backup backup = tinyBackup(id(0, 1, 14));
    writeRawManifest(
        backup.id(), CODEC.encode(Manifest.inProgress(backup.descriptor(), clock.instant())));

    assertThatThrownBy(() -> await(store.delete(backup.id())))
        .isInstanceOf(BackupInProgressException.class)
        .hasMessageContaining(backup.id().toString());
    assertThat(await(store.getStatus(backup.id())).statusCode())
        .isEqualTo(BackupStatusCode.IN_PROGRESS);
  }

  @Test
  void shouldDeleteCompletedBackup() throws Exception {
    Backup backup = typicalBackup(id(0, 1, 15));
    await(store.save(backup));

    await(store.delete(backup.id()));

    assertThat(await(store.getStatus(backup.id())).statusCode())
        .isEqualTo(BackupStatusCode.DOES_NOT_EXIST);
    assertThatThrownBy(() -> await(store.verify(backup.id())))
        .isInstanceOf(BackupNotFoundException.class);
    assertThatThrownBy(
            () ->
                await(
                    store.restore(
                        backup.id(), newDirectory("restore"), RestoreProgressListener.NOOP)))
        .isInstanceOf(BackupNotFoundException.class);
  }

  @Test
  void shouldDeleteFailedBackup() {
    BackupIdentifier id = id(0, 1, 16);
    await(store.markFailed(id, "leader changed"));

    await(store.delete(id));

    assertThat(await(store.getStatus(id)).exists()).isFalse();
  }

  @Test
  void shouldSucceedDeletingMissingBackup() {
    await(store.delete(id(0, 1, 17)));

    assertThat(await(store.getStatus(id(0, 1, 17))).exists()).isFalse();
  }

  @Test
  void shouldSaveAgainAfterDeleteWithTheNewContent() throws Exception {
    BackupIdentifier id = id(0, 1, 18);
    await(store.save(typicalBackup(id)));
    await(store.delete(id));
    Backup second = tinyBackup(id);

    await(store.save(second));

    Path target = newDirectory("restore");
    assertRestoredIdentical(
        second, await(store.restore(id, target, RestoreProgressListener.NOOP)), target);
    assertThat(await(store.verify(id)).isClean()).isTrue();
  }

  @Test
  void shouldFailSaveWhenSourceIsShorterThanItsFixedLength() throws Exception {
    Path dir = newDirectory("short");
    Path shortFile = randomFile(dir, "2.log", 100, 3);
    Backup backup =
        backup(
            id(0, 1, 19),
            NamedFileSet.empty(),
            NamedFileSet.of(
                file("1.log", randomFile(dir, "1.log", 100, 2)),
                new BackupFile("2.log", shortFile, 101)));

    assertThatThrownBy(() -> await(store.save(backup)))
        .isInstanceOf(BackupStoreException.class)
        .hasMessageContaining("2.log");

    BackupStatus status = await(store.getStatus(backup.id()));
    assertThat(status.statusCode()).isEqualTo(BackupStatusCode.FAILED);
    assertThat(status.failureReason().orElseThrow()).contains("2.log");
  }

  @Test
  void shouldFailSaveWhenSourceFileIsMissing() throws Exception {
    Path dir = newDirectory("missing");
    Backup backup =
        backup(
            id(0, 1, 20),
            NamedFileSet.empty(),
            NamedFileSet.of(new BackupFile("1.log", dir.resolve("gone.log"), 10)));

    assertThatThrownBy(() -> await(store.save(backup))).isInstanceOf(BackupStoreException.class);

    BackupStatus status = await(store.getStatus(backup.id()));
    assertThat(status.statusCode()).isEqualTo(BackupStatusCode.FAILED);
    assertThat(status.failureReason().orElseThrow()).contains("1.log");
  }

  @Test
  void shouldRejectPreviousBackupOfAnotherPartitionWithoutCreatingAnything() throws Exception {
    Backup backup = tinyBackup(id(0, 1, 21));

    assertThatThrownBy(() -> await(store.save(backup, Optional.of(id(0, 2, 20)))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("partition");

    assertThat(await(store.getStatus(backup.id())).exists()).isFalse();
  }

  @Test
  void shouldRefuseOperationsAfterClose() {
    store.close();
    store.close();

    assertThatThrownBy(() -> await(store.getStatus(id(0, 1, 1))))
        .isInstanceOf(IllegalStateException.class);
  }
}
