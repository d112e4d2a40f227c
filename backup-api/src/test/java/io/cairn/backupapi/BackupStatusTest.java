package io.cairn.backupapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BackupStatusTest {

  private static final BackupIdentifier ID = new BackupIdentifier(0, 2, 5);
  private static final Instant MODIFIED = Instant.parse("2025-03-01T10:00:00Z");

  @Test
  void shouldListUnreadableManifestAsFailedNamingTheManifestAndTheProblem() {
    var error =
        new ManifestException(
            "manifests/2/5/0/manifest.json",
            "Expected a JSON manifest, but it cannot be parsed: Unexpected end-of-input (manifest "
                + "manifests/2/5/0/manifest.json)");

    BackupStatus status = BackupStatus.unreadableManifest(ID, error, MODIFIED);

    assertThat(status.statusCode()).isEqualTo(BackupStatusCode.FAILED);
    assertThat(status.descriptor()).isEmpty();
    assertThat(status.createdAt()).contains(MODIFIED);
    assertThat(status.lastUpdatedAt()).contains(MODIFIED);
    assertThat(status.isManifestUnreadable()).isTrue();
    assertThat(status.failureReason())
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .startsWith(BackupStatus.UNREADABLE_MANIFEST_REASON)
                    .contains("cannot be parsed: Unexpected end-of-input")
                    .containsOnlyOnce("manifests/2/5/0/manifest.json")
                    .contains("delete this backup"));
  }

  @Test
  void shouldNameTheManifestWhenTheErrorMessageDoesNot() {
    var error = new ManifestException("s3://bucket/manifests/2/5/0", "Expected a JSON object");

    BackupStatus status = BackupStatus.unreadableManifest(ID, error, MODIFIED);

    assertThat(status.failureReason())
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .contains("Expected a JSON object (manifest s3://bucket/manifests/2/5/0)"));
  }

  @Test
  void shouldNotTakeAnOrdinaryFailureForAnUnreadableManifest() {
    var failed =
        new BackupStatus(
            ID,
            BackupStatusCode.FAILED,
            Optional.empty(),
            Optional.of("leader changed"),
            Optional.of(MODIFIED),
            Optional.of(MODIFIED));

    assertThat(failed.isManifestUnreadable()).isFalse();
    assertThat(BackupStatus.doesNotExist(ID).isManifestUnreadable()).isFalse();
  }
}
