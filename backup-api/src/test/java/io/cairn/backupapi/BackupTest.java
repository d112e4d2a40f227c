package io.cairn.backupapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BackupTest {

  private static final BackupIdentifier ID = new BackupIdentifier(1, 2, 3);

  private static Backup.Builder builder() {
    return Backup.builder(ID)
        .checkpointPosition(500)
        .numberOfPartitions(3)
        .brokerVersion("0.1.0")
        .stateDigest("beef");
  }

  @Test
  void shouldCountFilesAndBytesInTheDescriptor() {
    Backup backup =
        builder()
            .snapshot(
                "snap-1",
                NamedFileSet.of(
                    new BackupFile("a.sst", Path.of("/s/a"), 10),
                    new BackupFile("CURRENT", Path.of("/s/c"), 5)))
            .segments(NamedFileSet.of(new BackupFile("1.log", Path.of("/l/1"), 100)))
            .build();

    BackupDescriptor d = backup.descriptor();
    assertThat(d.fileCount()).isEqualTo(3);
    assertThat(d.sizeBytes()).isEqualTo(115);
    assertThat(d.snapshotId()).contains("snap-1");
    assertThat(d.identifier()).isEqualTo(ID);
    assertThat(d.checkpointPosition()).isEqualTo(500);
  }

  @Test
  void shouldRejectDescriptorWhoseCountsDoNotMatchTheFiles() {
    Backup valid =
        builder().segments(NamedFileSet.of(new BackupFile("1.log", Path.of("/x"), 9))).build();
    BackupDescriptor wrong =
        new BackupDescriptor(3, 2, 1, 500, Optional.empty(), 3, "0.1.0", "beef", 1, 10);

    assertThatThrownBy(() -> new Backup(ID, wrong, valid.snapshot(), valid.segments()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 files of 9 bytes");
  }

  @Test
  void shouldRejectSnapshotFilesInALogOnlyBackup() {
    Backup logOnly = builder().build();
    var files = NamedFileSet.of(new BackupFile("a", Path.of("/a"), 0));
    var descriptor = new BackupDescriptor(3, 2, 1, 500, Optional.empty(), 3, "0.1.0", "beef", 1, 0);

    assertThatThrownBy(() -> new Backup(ID, descriptor, files, logOnly.segments()))
        .hasMessageContaining("log-only");
  }

  @Test
  void shouldRejectDuplicateNamesInAFileSet() {
    assertThatThrownBy(
            () ->
                NamedFileSet.of(
                    new BackupFile("1.log", Path.of("/a"), 1),
                    new BackupFile("1.log", Path.of("/b"), 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'1.log' appears twice");
  }

  @ParameterizedTest
  @ValueSource(strings = {"../x", "/abs", "a//b", "a\\b", "", ".", "a/./b", "x/..", "c:evil"})
  void shouldRejectFileNamesThatCouldEscape(String name) {
    assertThatThrownBy(() -> new BackupFile(name, Path.of("/a"), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + name + "'");
  }

  @ParameterizedTest
  @ValueSource(strings = {"CURRENT", "000012.sst", "meta/checksums", "a.b..c", "..hidden", "x.."})
  void shouldAcceptRelativeNames(String name) {
    assertThat(ObjectNames.violation(name)).isEmpty();
  }

  @Test
  void shouldValidateDescriptorFields() {
    assertThatThrownBy(() -> builder().stateDigest("ABC").build())
        .hasMessageContaining("stateDigest in lowercase hex");
    assertThatThrownBy(() -> builder().numberOfPartitions(1).build())
        .hasMessageContaining("1 <= partitionId <= numberOfPartitions");
    assertThatThrownBy(() -> builder().checkpointPosition(-1).build())
        .hasMessageContaining("checkpointPosition >= 0");
    assertThatThrownBy(() -> builder().brokerVersion(" ").build())
        .hasMessageContaining("brokerVersion");
    assertThatThrownBy(() -> new BackupFile("a", Path.of("/a"), -1))
        .hasMessageContaining("lengthBytes >= 0");
  }

  @Test
  void shouldKeepStatusInvariants() {
    Instant t = Instant.parse("2025-01-01T00:00:00Z");
    assertThatThrownBy(
            () ->
                new BackupStatus(
                    ID,
                    BackupStatusCode.FAILED,
                    Optional.empty(),
                    Optional.empty(),
                    Optional.of(t),
                    Optional.of(t)))
        .hasMessageContaining("failure reason iff the status is FAILED");
    assertThatThrownBy(
            () ->
                new BackupStatus(
                    ID,
                    BackupStatusCode.COMPLETED,
                    Optional.empty(),
                    Optional.empty(),
                    Optional.of(t),
                    Optional.of(t)))
        .hasMessageContaining("descriptor for a COMPLETED backup");
    assertThatThrownBy(
            () ->
                new BackupStatus(
                    ID,
                    BackupStatusCode.IN_PROGRESS,
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty()))
        .hasMessageContaining("timestamps iff the backup exists");
    assertThat(BackupStatus.doesNotExist(ID).exists()).isFalse();
  }
}
