package io.cairn.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RaftConfigTest {

  @Test
  void shouldUseDocumentedDefaults() {
    RaftConfig config = RaftConfig.defaults();

    assertThat(config.electionTimeout()).isEqualTo(Duration.ofMillis(2500));
    assertThat(config.heartbeatInterval()).isEqualTo(Duration.ofMillis(250));
    assertThat(config.requestTimeout()).isEqualTo(Duration.ofMillis(1000));
    assertThat(config.maxAppendBatchBytes()).isEqualTo(256 * 1024);
    assertThat(config.maxInFlightAppends()).isEqualTo(4);
    assertThat(config.preVote()).isTrue();
  }

  @Test
  void shouldRejectHeartbeatAboveHalfOfElectionTimeout() {
    assertThatThrownBy(
            () ->
                RaftConfig.builder()
                    .electionTimeout(Duration.ofMillis(500))
                    .heartbeatInterval(Duration.ofMillis(300))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Expected heartbeatInterval to be at most half of electionTimeout, but"
                + " heartbeatInterval=PT0.3S and electionTimeout=PT0.5S (raft config). Lower"
                + " heartbeatInterval or raise electionTimeout.");
  }

  @Test
  void shouldRejectNonPositiveDurations() {
    assertThatThrownBy(() -> RaftConfig.builder().requestTimeout(Duration.ZERO).build())
        .hasMessage("Expected requestTimeout to be at least 1ms, but was PT0S (raft config)");
    assertThatThrownBy(() -> RaftConfig.builder().electionTimeout(Duration.ofMillis(-5)).build())
        .hasMessageStartingWith("Expected electionTimeout to be at least 1ms");
  }

  @Test
  void shouldRejectOutOfRangeLimits() {
    assertThatThrownBy(() -> RaftConfig.builder().maxInFlightAppends(0).build())
        .hasMessage("Expected maxInFlightAppends in [1, 64], but was 0 (raft config)");
    assertThatThrownBy(() -> RaftConfig.builder().maxAppendBatchBytes(5 * 1024 * 1024).build())
        .hasMessage("Expected maxAppendBatchBytes in [1, 4194304], but was 5242880 (raft config)");
  }

  @Test
  void shouldRoundTripThroughBuilder() {
    RaftConfig config =
        RaftConfig.builder()
            .preVote(false)
            .maxInFlightAppends(9)
            .requestTimeout(Duration.ofSeconds(2))
            .build();

    assertThat(config.toBuilder().build().toString()).isEqualTo(config.toString());
  }
}
