package io.cairn.broker.api.limit;

import io.cairn.scheduler.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The limit of client commands in flight on one partition: admitted (about to be written to the
 * leader's log) and not answered yet. {@link #tryAcquire()} admits a command while fewer than
 * {@link #limit()} are in flight and answers at once either way — it never waits. Each admitted
 * command holds a {@link Permit} that must be released exactly once, on every path: answered, timed
 * out, refused by the log, leadership lost, shut down. Its round trip (admission to answer) goes to
 * the {@link LimitAlgorithm}, which moves the limit; the limit is kept in the configured [min,
 * max].
 *
 * <p>One limiter per hosted partition for the life of the broker: what it learned survives
 * leadership changes (the commands of an ended leadership are released by the response router).
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public final class CommandLimiter {

  private final int partitionId;
  private final LimitAlgorithm algorithm;
  private final int minLimit;
  private final int maxLimit;
  private final Clock clock;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong rejected = new AtomicLong();

  /**
   * @param clock the clock round trips are measured with (the broker's)
   */
  public CommandLimiter(int partitionId, CommandLimitConfig config, Clock clock) {
    this(partitionId, config, LimitAlgorithm.of(config), clock);
  }

  /** With {@code algorithm} instead of the one {@code config} names (its bounds still apply). */
  public CommandLimiter(
      int partitionId, CommandLimitConfig config, LimitAlgorithm algorithm, Clock clock) {
    this.partitionId = partitionId;
    this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
    this.minLimit = config.minLimit();
    this.maxLimit = config.maxLimit();
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public int partitionId() {
    return partitionId;
  }

  /** Commands admitted and not released now. */
  public int inFlight() {
    return inFlight.get();
  }

  /** The limit now, in [min, max]. */
  public int limit() {
    return Math.max(minLimit, Math.min(maxLimit, algorithm.limit()));
  }

  /** Commands refused since the broker started. */
  public long rejected() {
    return rejected.get();
  }

  /**
   * Admits one command if fewer than {@link #limit()} are in flight.
   *
   * @return its permit, or empty (counted as rejected): answer {@code BACKPRESSURE}
   */
  public Optional<Permit> tryAcquire() {
    int limit = limit();
    while (true) {
      int current = inFlight.get();
      if (current >= limit) {
        rejected.incrementAndGet();
        return Optional.empty();
      }
      if (inFlight.compareAndSet(current, current + 1)) {
        return Optional.of(new Permit(this, clock.nanos(), current + 1));
      }
    }
  }

  private void release(Permit permit, Outcome outcome) {
    inFlight.decrementAndGet();
    if (outcome != Outcome.IGNORED) {
      algorithm.onSample(
          permit.startNanos,
          Math.max(1, clock.nanos() - permit.startNanos),
          permit.inFlightAtStart,
          outcome == Outcome.DROPPED);
    }
  }

  @Override
  public String toString() {
    return "CommandLimiter{partition "
        + partitionId
        + ", "
        + inFlight()
        + " of "
        + limit()
        + " in flight, "
        + algorithm
        + "}";
  }

  private enum Outcome {
    ANSWERED,
    DROPPED,
    IGNORED
  }

  /**
   * One admitted command's place. Release it once with the method that says how it ended; later
   * calls do nothing. {@link #UNLIMITED} belongs to commands that bypass the limit.
   */
  public static final class Permit {

    /** For a command the limit does not count (the gateway's checkpoints): releases nothing. */
    public static final Permit UNLIMITED = new Permit(null, 0, 0);

    private final CommandLimiter limiter;
    private final long startNanos;
    private final int inFlightAtStart;
    private final AtomicBoolean released = new AtomicBoolean();

    private Permit(CommandLimiter limiter, long startNanos, int inFlight) {
      this.limiter = limiter;
      this.startNanos = startNanos;
      this.inFlightAtStart = inFlight;
    }

    /** The command was answered by the stream processor: its round trip is a sample. */
    public void answered() {
      release(Outcome.ANSWERED);
    }

    /**
     * The command timed out or the log was full: overload, whatever the round trip (the algorithm
     * shrinks the limit).
     */
    public void dropped() {
      release(Outcome.DROPPED);
    }

    /**
     * The command ended without telling anything about load (leadership lost, invalid, shut down):
     * released, no sample.
     */
    public void ignored() {
      release(Outcome.IGNORED);
    }

    /** Whether it was released already (or is {@link #UNLIMITED}). */
    public boolean isReleased() {
      return limiter == null || released.get();
    }

    private void release(Outcome outcome) {
      if (limiter != null && released.compareAndSet(false, true)) {
        limiter.release(this, outcome);
      }
    }
  }
}
