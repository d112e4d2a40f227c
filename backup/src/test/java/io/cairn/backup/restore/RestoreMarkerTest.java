package io.cairn.backup.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class RestoreMarkerTest {

  @TempDir Path partition;

  @Test
  void shouldReadBackWhatWasWritten() throws IOException {
    RestoreMarker withSnapshot =
        new RestoreMarker(
            7,
            2,
            1,
            4711,
            "0123456789abcdef0123456789abcdef",
            Optional.of("12-1-4700-4705"),
            "0.1.0");
    withSnapshot.write(partition);
    assertThat(RestoreMarker.read(partition)).hasValue(withSnapshot);

    RestoreMarker logOnly =
        new RestoreMarker(
            8, 2, 0, 9, "ffffffffffffffffffffffffffffffff", Optional.empty(), "0.1.0");
    logOnly.write(partition);
    assertThat(RestoreMarker.read(partition)).hasValue(logOnly);
    try (java.util.stream.Stream<Path> files = Files.list(partition)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("the file replaced, no temporary file left")
          .containsExactly(RestoreMarker.FILE_NAME);
    }
  }

  @Test
  void shouldReadBackFamilyDigestsWhenTheBackupRecordedThem() throws IOException {
    RestoreMarker marker =
        new RestoreMarker(
            7,
            2,
            1,
            4711,
            "0123456789abcdef0123456789abcdef",
            Optional.empty(),
            "0.1.0",
            new java.util.TreeMap<>(
                java.util.Map.of(
                    "accounts", "0000000000000000000000000000000a",
                    "transfers", "0123456789abcdef0123456789abcde5")));
    marker.write(partition);

    assertThat(RestoreMarker.read(partition)).hasValue(marker);
    assertThat(RestoreMarker.read(partition).orElseThrow().familyDigests())
        .containsOnlyKeys("accounts", "transfers");
    assertThat(Files.readString(partition.resolve(RestoreMarker.FILE_NAME)))
        .contains("familyDigests");
  }

  @Test
  void shouldBeAbsentForAPartitionThatWasNotRestored() {
    assertThat(RestoreMarker.read(partition)).isEmpty();
  }

  @Test
  void shouldNameTheFileWhenItCannotBeTrusted() throws IOException {
    Files.writeString(
        partition.resolve(RestoreMarker.FILE_NAME), "{\"formatVersion\":1,\"backupId\":7}");

    assertThatThrownBy(() -> RestoreMarker.read(partition))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(partition.resolve(RestoreMarker.FILE_NAME).toString())
        .hasMessageContaining("partitionId")
        .hasMessageContaining("restore it again");

    Files.writeString(partition.resolve(RestoreMarker.FILE_NAME), "not json");
    assertThatThrownBy(() -> RestoreMarker.read(partition)).hasMessageContaining("valid JSON");
  }

  @Test
  void shouldRefuseADigestThatIsNotHex() {
    assertThatThrownBy(() -> new RestoreMarker(7, 1, 0, 5, "XYZ", Optional.empty(), "0.1.0"))
        .hasMessageContaining("stateDigest of 32 lowercase hex digits, but was 'XYZ'");
  }
}
