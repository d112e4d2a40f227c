package io.cairn.restore;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * The meters of restores and verifications, in the injected registry:
 *
 * <ul>
 *   <li>{@value #PARTITIONS} (counter; tags {@code operation} = restore | verify, {@code result} =
 *       success | failure): partitions restored or verified;
 *   <li>{@value #BYTES} (counter, bytes; tag {@code operation}): bytes downloaded and checked;
 *   <li>{@value #DURATION} (timer; tags {@code operation}, {@code result}): one partition's
 *       download and installation (or rebuild).
 * </ul>
 */
final class RestoreMetrics {

  /** Counter; tags {@code operation}, {@code result}: partitions restored or verified. */
  public static final String PARTITIONS = "cairn.restore.partitions";

  /** Counter, bytes; tag {@code operation}: bytes downloaded from backups and checked. */
  public static final String BYTES = "cairn.restore.bytes";

  /** Timer; tags {@code operation}, {@code result}: restoring or verifying one partition. */
  public static final String DURATION = "cairn.restore.duration";

  enum Operation {
    RESTORE,
    VERIFY;

    String tag() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final MeterRegistry registry;

  RestoreMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  void partitionDone(Operation operation, boolean success, long bytes, Duration took) {
    String result = success ? "success" : "failure";
    Counter.builder(PARTITIONS)
        .description("Partitions restored or verified")
        .tag("operation", operation.tag())
        .tag("result", result)
        .register(registry)
        .increment();
    if (success) {
      Counter.builder(BYTES)
          .description("Bytes downloaded from backups and checked")
          .baseUnit("bytes")
          .tag("operation", operation.tag())
          .register(registry)
          .increment(bytes);
    }
    Timer.builder(DURATION)
        .description("Time to restore or verify one partition")
        .tag("operation", operation.tag())
        .tag("result", result)
        .register(registry)
        .record(took);
  }
}
