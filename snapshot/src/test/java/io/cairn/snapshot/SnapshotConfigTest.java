package io.cairn.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

final class SnapshotConfigTest {

  @Test
  void shouldDefaultToFiveMinutesOneRetainedAndOneMebibyteChunks() {
    SnapshotConfig config = SnapshotConfig.defaults();
    assertThat(config.snapshotInterval()).isEqualTo(Duration.ofMinutes(5));
    assertThat(config.retainedSnapshotCount()).isEqualTo(1);
    assertThat(config.replicationChunkSizeBytes()).isEqualTo(1024 * 1024);
    assertThat(config.toBuilder().build().toString()).isEqualTo(config.toString());
  }

  @Test
  void shouldListEveryViolation() {
    assertThatThrownBy(
            () ->
                SnapshotConfig.builder()
                    .snapshotInterval(Duration.ofMillis(10))
                    .retainedSnapshotCount(0)
                    .replicationChunkSizeBytes(17)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected snapshotInterval in [PT1S, P1D], but was PT0.01S")
        .hasMessageContaining("Expected retainedSnapshotCount in [1, 100], but was 0")
        .hasMessageContaining("Expected replicationChunkSizeBytes in [1024, 16777216], but was 17");
    assertThatThrownBy(() -> SnapshotConfig.builder().snapshotInterval(null).build())
        .hasMessageContaining("snapshotInterval");
  }
}
