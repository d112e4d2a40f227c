package io.cairn.pacing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

  private final Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2));

  @Test
  void shouldDoubleUpToTheMaximumWithJitterInTheUpperHalf() {
    for (int retry = 1; retry <= 12; retry++) {
      long ceiling = Math.min(2000, 100L << (retry - 1));
      for (String target : new String[] {"s3://b/a", "s3://b/b", "s3://b/manifests/x"}) {
        Duration delay = backoff.delay(retry, target);
        assertThat(delay.toMillis())
            .as("retry %d of %s", retry, target)
            .isBetween(ceiling / 2, ceiling);
      }
    }
  }

  @Test
  void shouldBeReproducibleAndSpreadOverTargets() {
    assertThat(backoff.delay(3, "s3://b/k")).isEqualTo(backoff.delay(3, "s3://b/k"));
    long distinct =
        java.util.stream.IntStream.range(0, 50)
            .mapToObj(i -> backoff.delay(2, "s3://b/object-" + i))
            .distinct()
            .count();
    assertThat(distinct).isGreaterThan(40);
  }

  @Test
  void shouldRejectInvalidBounds() {
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> backoff.delay(0, "x")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldDoubleTheCeilingUpToTheMaxWithoutJitter() {
    assertThat(backoff.ceiling(1)).isEqualTo(Duration.ofMillis(100));
    assertThat(backoff.ceiling(2)).isEqualTo(Duration.ofMillis(200));
    assertThat(backoff.ceiling(5)).isEqualTo(Duration.ofMillis(1600));
    assertThat(backoff.ceiling(6)).isEqualTo(Duration.ofSeconds(2));
    assertThat(backoff.ceiling(1_000)).isEqualTo(Duration.ofSeconds(2));
    assertThatThrownBy(() -> backoff.ceiling(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
