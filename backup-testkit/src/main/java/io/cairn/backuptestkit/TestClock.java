package io.cairn.backuptestkit;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that only moves when a test says so. Thread-safe. */
public final class TestClock implements InstantSource {

  private final AtomicReference<Instant> now;

  public TestClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  public Instant advance(Duration duration) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("Expected a duration >= 0, but was " + duration);
    }
    return now.updateAndGet(t -> t.plus(duration));
  }
}
