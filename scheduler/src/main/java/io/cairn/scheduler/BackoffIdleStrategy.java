package io.cairn.scheduler;

import java.util.concurrent.locks.LockSupport;

/**
 * Spins, then yields, then parks for exponentially growing periods, up to a maximum.
 *
 * <p>{@link LockSupport#unpark(Thread)} ends a park early, so a producer that unparks an idle
 * worker keeps latency low while the maximum park period bounds how long a missed signal costs.
 */
public final class BackoffIdleStrategy implements IdleStrategy {

  private final long maxSpins;
  private final long maxYields;
  private final long minParkPeriodNanos;
  private final long maxParkPeriodNanos;

  private long spins;
  private long yields;
  private long parkPeriodNanos;

  /**
   * @param maxSpins busy spins before yielding, at least 0
   * @param maxYields {@link Thread#yield()} calls before parking, at least 0
   * @param minParkPeriodNanos first park period, at least 1
   * @param maxParkPeriodNanos longest park period, at least {@code minParkPeriodNanos}
   */
  public BackoffIdleStrategy(
      long maxSpins, long maxYields, long minParkPeriodNanos, long maxParkPeriodNanos) {
    if (maxSpins < 0 || maxYields < 0) {
      throw new IllegalArgumentException(
          "Expected maxSpins >= 0 and maxYields >= 0, but were "
              + maxSpins
              + " and "
              + maxYields
              + " (BackoffIdleStrategy)");
    }
    if (minParkPeriodNanos < 1 || maxParkPeriodNanos < minParkPeriodNanos) {
      throw new IllegalArgumentException(
          "Expected 1 <= minParkPeriodNanos <= maxParkPeriodNanos, but were "
              + minParkPeriodNanos
              + " and "
              + maxParkPeriodNanos
              + " (BackoffIdleStrategy)");
    }
    this.maxSpins = maxSpins;
    this.maxYields = maxYields;
    this.minParkPeriodNanos = minParkPeriodNanos;
    this.maxParkPeriodNanos = maxParkPeriodNanos;
    reset();
  }

  @Override
  public void idle() {
    if (spins < maxSpins) {
      spins++;
      Thread.onSpinWait();
    } else if (yields < maxYields) {
      yields++;
      Thread.yield();
    } else {
      LockSupport.parkNanos(parkPeriodNanos);
      parkPeriodNanos = Math.min(parkPeriodNanos * 2, maxParkPeriodNanos);
    }
  }

  @Override
  public void reset() {
    spins = 0;
    yields = 0;
    parkPeriodNanos = minParkPeriodNanos;
  }

  @Override
  public String toString() {
    return "BackoffIdleStrategy{maxSpins="
        + maxSpins
        + ", maxYields="
        + maxYields
        + ", minParkPeriodNanos="
        + minParkPeriodNanos
        + ", maxParkPeriodNanos="
        + maxParkPeriodNanos
        + "}";
  }
}
