package io.cairn.gateway.routing;

import io.cairn.scheduler.Clock;
import java.time.Duration;

/**
 * When a request must be answered, on the monotonic clock. The gateway uses the earlier of the
 * client's deadline and its own request timeout.
 */
public final class Deadline {
  private final Clock clock;
  private final long deadlineNanos;
  private final Duration budget;

  private Deadline(Clock clock, long deadlineNanos, Duration budget) {
    this.clock = clock;
    this.deadlineNanos = deadlineNanos;
    this.budget = budget;
  }

  /** A deadline {@code budget} from now. */
  public static Deadline after(Clock clock, Duration budget) {
    return new Deadline(clock, clock.nanos() + budget.toNanos(), budget);
  }

  /** The time left, zero once expired. */
  public Duration remaining() {
    return Duration.ofNanos(Math.max(0, deadlineNanos - clock.nanos()));
  }

  public boolean expired() {
    return deadlineNanos - clock.nanos() <= 0;
  }

  /** The whole budget this deadline was made with, for messages. */
  public Duration budget() {
    return budget;
  }
}
