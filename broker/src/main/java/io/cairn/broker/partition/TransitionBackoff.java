package io.cairn.broker.partition;

import io.cairn.pacing.Backoff;
import java.time.Duration;

/**
 * When a partition gives up on failed role transitions, and how long it waits before the next
 * attempt: {@link PartitionConfig#transitionRetryDelayMin()} after the first failure, doubled per
 * further failure up to {@link PartitionConfig#transitionRetryDelayMax()}; after {@link
 * PartitionConfig#transitionAttemptsMax()} failures in a row the partition is FAILED.
 */
final class TransitionBackoff {

  private final Backoff backoff;
  private final int attemptsMax;

  TransitionBackoff(PartitionConfig config) {
    this.backoff = new Backoff(config.transitionRetryDelayMin(), config.transitionRetryDelayMax());
    this.attemptsMax = config.transitionAttemptsMax();
  }

  int attemptsMax() {
    return attemptsMax;
  }

  /** Whether {@code failedAttempts} failures in a row are the last the partition takes. */
  boolean isExhausted(int failedAttempts) {
    return failedAttempts >= attemptsMax;
  }

  /**
   * The wait after {@code failedAttempts} failures in a row.
   *
   * @param failedAttempts at least 1
   */
  Duration delay(int failedAttempts) {
    return backoff.ceiling(failedAttempts);
  }
}
