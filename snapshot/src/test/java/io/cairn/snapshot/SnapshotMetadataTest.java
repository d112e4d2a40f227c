package io.cairn.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class SnapshotMetadataTest {

  private static final String DIGEST = "0123456789abcdef0123456789abcdef";

  @Test
  void shouldDeriveIdFromIndexTermAndPositions() {
    SnapshotMetadata metadata = new SnapshotMetadata(7, 2, 70, 60, 73, "1.0.0", 5, DIGEST);
    assertThat(metadata.id()).isEqualTo(new SnapshotId(7, 2, 70, 73));
  }

  @Test
  void shouldListEveryInvalidField() {
    assertThatThrownBy(() -> new SnapshotMetadata(0, 0, -1, -1, -1, "bad version!", -1, "XYZ"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Expected index >= 1, but was 0; term >= 1, but was 0")
        .hasMessageContaining("exportedPosition >= 0, but was -1")
        .hasMessageContaining("brokerVersion of 1-64 [A-Za-z0-9._+-], but was 'bad version!'")
        .hasMessageContaining("createdAtMillis >= 0")
        .hasMessageContaining("stateDigestHex of 32 lowercase hex digits, but was 'XYZ'")
        .hasMessageEndingWith("(snapshot metadata)");
  }
}
