package io.cairn.broker.exporting;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a partition's exporter director works. Immutable; validated when built.
 *
 * @param retryDelayMin the first wait after an exporter failed to open or export; doubles per
 *     consecutive failure
 * @param retryDelayMax the longest wait between attempts
 * @param maxRecordsPerTurn records handed over before the director yields its thread
 * @param positionsInterval how often acknowledged positions are written to the partition's state
 *     and sent to the partition's other members (more often is not useful: state survives through
 *     snapshots)
 * @param positionsResendEvery resend unchanged positions to the other members every this many
 *     intervals (a restarted follower learns them)
 */
public record ExporterDirectorConfig(
    Duration retryDelayMin,
    Duration retryDelayMax,
    int maxRecordsPerTurn,
    Duration positionsInterval,
    int positionsResendEvery) {

  /** 100ms to 10s backoff, 100 records per turn, positions every second, resent every 10s. */
  public static ExporterDirectorConfig defaults() {
    return new ExporterDirectorConfig(
        Duration.ofMillis(100), Duration.ofSeconds(10), 100, Duration.ofSeconds(1), 10);
  }

  public ExporterDirectorConfig {
    Objects.requireNonNull(retryDelayMin, "retryDelayMin");
    Objects.requireNonNull(retryDelayMax, "retryDelayMax");
    Objects.requireNonNull(positionsInterval, "positionsInterval");
    List<String> violations = new ArrayList<>();
    if (retryDelayMin.isNegative() || retryDelayMin.isZero()) {
      violations.add("Expected retryDelayMin > 0, but was " + retryDelayMin);
    }
    if (retryDelayMax.compareTo(retryDelayMin) < 0) {
      violations.add(
          "Expected retryDelayMax >= retryDelayMin ("
              + retryDelayMin
              + "), but was "
              + retryDelayMax);
    }
    if (maxRecordsPerTurn < 1 || maxRecordsPerTurn > 100_000) {
      violations.add("Expected maxRecordsPerTurn in [1, 100000], but was " + maxRecordsPerTurn);
    }
    if (positionsInterval.isNegative() || positionsInterval.isZero()) {
      violations.add("Expected positionsInterval > 0, but was " + positionsInterval);
    }
    if (positionsResendEvery < 1) {
      violations.add("Expected positionsResendEvery >= 1, but was " + positionsResendEvery);
    }
    if (!violations.isEmpty()) {
      throw new IllegalArgumentException(
          String.join("; ", violations) + " (ExporterDirectorConfig)");
    }
  }

  /** The wait before attempt {@code failures + 1}: doubling from the min, capped at the max. */
  Duration retryDelay(int failures) {
    int doublings = Math.min(Math.max(0, failures - 1), 30);
    Duration delay = retryDelayMin.multipliedBy(1L << doublings);
    return delay.compareTo(retryDelayMax) > 0 ? retryDelayMax : delay;
  }
}
