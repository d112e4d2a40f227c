package io.cairn.backupfs;

import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * Meters of the filesystem store:
 *
 * <ul>
 *   <li>{@value #OPERATIONS} (timer; tags {@code operation} = save|status|list|delete|markFailed|
 *       restore|verify, {@code result} = success|failure): duration of each operation;
 *   <li>{@value #COPIED} (counter, bytes): content bytes read from sources and stored;
 *   <li>{@value #REUSED} (counter, bytes): content bytes stored by linking the previous backup;
 *   <li>{@value #RESTORED} (counter, bytes): content bytes restored and verified;
 *   <li>{@value #THROTTLED} (timer): time copies waited for {@code maxBytesPerSecond}.
 * </ul>
 */
final class FilesystemBackupStoreMetrics {

  /** Timer; tags {@code operation}, {@code result}: duration of each store operation. */
  public static final String OPERATIONS = "cairn.backupfs.operations";

  /** Counter, bytes: content bytes read from sources and stored. */
  public static final String COPIED = "cairn.backupfs.copied";

  /** Counter, bytes: content bytes stored by linking the previous backup. */
  public static final String REUSED = "cairn.backupfs.reused";

  /** Counter, bytes: content bytes restored and verified. */
  public static final String RESTORED = "cairn.backupfs.restored";

  /** Timer: time copies waited for {@code maxBytesPerSecond}. */
  public static final String THROTTLED = "cairn.backupfs.throttled";

  private final MeterRegistry registry;
  private final Counter copied;
  private final Counter reused;
  private final Counter restored;
  private final Timer throttled;

  FilesystemBackupStoreMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.copied = bytes(COPIED, "Content bytes read from sources and stored");
    this.reused = bytes(REUSED, "Content bytes stored by linking the previous backup");
    this.restored = bytes(RESTORED, "Content bytes restored and verified");
    this.throttled =
        Timer.builder(THROTTLED)
            .description("Time copies waited for the bytes/s limit")
            .register(registry);
  }

  private Counter bytes(String name, String description) {
    return Counter.builder(name).baseUnit("bytes").description(description).register(registry);
  }

  MeterRegistry registry() {
    return registry;
  }

  void copied(long bytes) {
    copied.increment(bytes);
  }

  void reused(long bytes) {
    reused.increment(bytes);
  }

  void restored(long bytes) {
    restored.increment(bytes);
  }

  void throttled(long nanos) {
    throttled.record(nanos, TimeUnit.NANOSECONDS);
  }

  /** The registry's clock: the time base of the bytes/s limit (tests move it). */
  Clock limiterClock() {
    return Clock.of(registry.config().clock());
  }
}
