package io.cairn.broker.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.journal.JournalConfig;
import io.cairn.logstreams.LogStreamConfig;
import io.cairn.raft.RaftConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

final class PartitionConfigTest {

  @Test
  void shouldUseTheDefaultsOfEveryPart() {
    PartitionConfig config = PartitionConfig.defaults();

    assertThat(config.raft().electionTimeout()).isEqualTo(RaftConfig.defaults().electionTimeout());
    assertThat(config.journalSegmentSizeBytes())
        .isEqualTo(JournalConfig.SEGMENT_SIZE_BYTES_DEFAULT);
    assertThat(config.transitionRetryDelayMin()).isEqualTo(Duration.ofMillis(100));
    assertThat(config.transitionRetryDelayMax()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.transitionAttemptsMax()).isEqualTo(10);
    assertThat(config.toBuilder().build().toString()).isEqualTo(config.toString());
  }

  @Test
  void shouldListEveryViolation() {
    assertThatThrownBy(
            () ->
                PartitionConfig.builder()
                    .journalSegmentSizeBytes(100)
                    .journalIndexDensity(0)
                    .transitionRetryDelayMin(Duration.ZERO)
                    .transitionAttemptsMax(0)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected journalSegmentSizeBytes in [4096, 1073741824], but was 100")
        .hasMessageContaining("Expected journalIndexDensity in [1, 1000000], but was 0")
        .hasMessageContaining("Expected transitionRetryDelayMin in [PT0.001S, PT1M], but was PT0S")
        .hasMessageContaining("Expected transitionAttemptsMax in [1, 1000], but was 0")
        .hasMessageEndingWith("(partition config)");
  }

  @Test
  void shouldRefuseASegmentThatCannotHoldTheLargestBatch() {
    assertThatThrownBy(
            () ->
                PartitionConfig.builder()
                    .journalSegmentSizeBytes(8 * 1024)
                    .logStream(LogStreamConfig.builder().maxBatchSizeBytes(8 * 1024).build())
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "Expected a journal segment to hold the largest log batch, but logStream"
                + " maxBatchSizeBytes 8192 plus the raft entry header (32) exceeds the largest"
                + " record of a 8192-byte segment");
  }

  @Test
  void shouldRefuseAMaximumRetryDelayBelowTheMinimum() {
    assertThatThrownBy(
            () ->
                PartitionConfig.builder()
                    .transitionRetryDelayMin(Duration.ofSeconds(2))
                    .transitionRetryDelayMax(Duration.ofSeconds(1))
                    .build())
        .hasMessageContaining("Expected transitionRetryDelayMax in [PT2S, PT10M], but was PT1S");
  }

  @Test
  void shouldRefuseMissingParts() {
    assertThatThrownBy(() -> PartitionConfig.builder().raft(null).db(null).build())
        .hasMessageContaining("Expected raft to be set, but it is null")
        .hasMessageContaining("Expected db to be set, but it is null");
  }
}
