package io.cairn.snapshot;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The meters of one partition's snapshots. Tags given at open (typically {@code partition}) are
 * added to every meter. Durations are measured with the store's {@code Clock}.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 *   <tr><td>{@value #DURATION}</td><td>timer</td><td>operation = take | receive | restore</td>
 *       <td>time to produce a persisted snapshot: from the transient snapshot (take), the first
 *       received chunk's receiver (receive) or the restore call (restore) until it is
 *       persisted</td></tr>
 *   <tr><td>{@value #RECOVERY_DURATION}</td><td>timer</td><td></td>
 *       <td>verifying and copying a snapshot for recovery, fallbacks included</td></tr>
 *   <tr><td>{@value #SIZE}</td><td>gauge</td><td></td>
 *       <td>size of the newest snapshot in bytes, every file included (0 without one)</td></tr>
 *   <tr><td>{@value #COUNT}</td><td>gauge</td><td></td>
 *       <td>snapshots in the store, reserved ones included</td></tr>
 *   <tr><td>{@value #RESERVED_COUNT}</td><td>gauge</td><td></td>
 *       <td>snapshots with at least one open reservation</td></tr>
 *   <tr><td>{@value #REPLICATION_BYTES}</td><td>counter</td><td>operation = send | receive</td>
 *       <td>chunk bytes read for followers, and received from the leader</td></tr>
 *   <tr><td>{@value #CORRUPTIONS}</td><td>counter</td><td></td>
 *       <td>snapshots found corrupt (checksum or size mismatch)</td></tr>
 *   <tr><td>{@value #ATTEMPTS}</td><td>counter</td><td>result = persisted | skipped | failed</td>
 *       <td>snapshots the {@link SnapshotDirector} tried to take</td></tr>
 * </table>
 */
public final class SnapshotMetrics {

  /** Timer; tag {@code operation} = take, receive, restore: time to a persisted snapshot. */
  public static final String DURATION = "cairn.snapshot.duration";

  /** Timer: verifying and copying a snapshot for recovery, fallbacks included. */
  public static final String RECOVERY_DURATION = "cairn.snapshot.recovery.duration";

  /** Gauge, bytes: size of the newest snapshot, every file included (0 without one). */
  public static final String SIZE = "cairn.snapshot.size.bytes";

  /** Gauge: snapshots in the store, reserved ones included. */
  public static final String COUNT = "cairn.snapshot.count";

  /** Gauge: snapshots with at least one open reservation. */
  public static final String RESERVED_COUNT = "cairn.snapshot.reserved.count";

  /** Counter, bytes; tag {@code operation} = send, receive: chunk bytes replicated. */
  public static final String REPLICATION_BYTES = "cairn.snapshot.replication.bytes";

  /** Counter: snapshots found corrupt (checksum or size mismatch). */
  public static final String CORRUPTIONS = "cairn.snapshot.corruptions";

  /** Counter; tag {@code result} = persisted, skipped, failed: snapshots tried. */
  public static final String ATTEMPTS = "cairn.snapshot.attempts";

  private final MeterRegistry registry;
  private final Timer takeDuration;
  private final Timer receiveDuration;
  private final Timer restoreDuration;
  private final Timer recoveryDuration;
  private final AtomicLong sizeBytes = new AtomicLong();
  private final AtomicLong count = new AtomicLong();
  private final AtomicLong reservedCount = new AtomicLong();
  private final Counter sentBytes;
  private final Counter receivedBytes;
  private final Counter corruptions;
  private final List<Meter> gauges;

  public SnapshotMetrics(MeterRegistry registry, Iterable<Tag> tags) {
    this.registry = registry;
    Tags base = Tags.of(tags);
    takeDuration = duration(base, "take");
    receiveDuration = duration(base, "receive");
    restoreDuration = duration(base, "restore");
    recoveryDuration =
        Timer.builder(RECOVERY_DURATION)
            .description("Verifying and copying a snapshot for recovery")
            .tags(base)
            .register(registry);
    gauges =
        List.of(
            gauge(base, SIZE, "Size of the newest snapshot", sizeBytes, "bytes"),
            gauge(base, COUNT, "Snapshots in the store", count, null),
            gauge(base, RESERVED_COUNT, "Snapshots with an open reservation", reservedCount, null));
    sentBytes = replication(base, "send");
    receivedBytes = replication(base, "receive");
    corruptions =
        Counter.builder(CORRUPTIONS)
            .description("Snapshots found corrupt")
            .tags(base)
            .register(registry);
  }

  public void taken(long durationNanos) {
    takeDuration.record(durationNanos, TimeUnit.NANOSECONDS);
  }

  public void received(long durationNanos) {
    receiveDuration.record(durationNanos, TimeUnit.NANOSECONDS);
  }

  public void restored(long durationNanos) {
    restoreDuration.record(durationNanos, TimeUnit.NANOSECONDS);
  }

  public void recovered(long durationNanos) {
    recoveryDuration.record(durationNanos, TimeUnit.NANOSECONDS);
  }

  /** The store's snapshots changed. */
  public void snapshotsChanged(long snapshotCount, long reservedSnapshotCount, long newestSize) {
    count.set(snapshotCount);
    reservedCount.set(reservedSnapshotCount);
    sizeBytes.set(newestSize);
  }

  public void bytesSent(long bytes) {
    sentBytes.increment(bytes);
  }

  public void bytesReceived(long bytes) {
    receivedBytes.increment(bytes);
  }

  public void corruptionFound() {
    corruptions.increment();
  }

  /** Removes the gauges, which point at this object's values, from the registry. */
  public void close() {
    gauges.forEach(registry::remove);
  }

  private Timer duration(Tags base, String operation) {
    return Timer.builder(DURATION)
        .description("Time to produce a persisted snapshot")
        .tags(base.and("operation", operation))
        .register(registry);
  }

  private Meter gauge(Tags base, String name, String description, AtomicLong value, String unit) {
    return Gauge.builder(name, value, AtomicLong::doubleValue)
        .description(description)
        .baseUnit(unit)
        .tags(base)
        .strongReference(true)
        .register(registry);
  }

  private Counter replication(Tags base, String operation) {
    return Counter.builder(REPLICATION_BYTES)
        .description("Snapshot chunk bytes sent to followers and received from the leader")
        .baseUnit("bytes")
        .tags(base.and("operation", operation))
        .register(registry);
  }

  /**
   * The {@value #ATTEMPTS} counter with the given {@code result}; the {@link SnapshotDirector}
   * registers its own, as it may run apart from the store.
   */
  public static Counter attempts(MeterRegistry registry, Iterable<Tag> tags, String result) {
    return Counter.builder(ATTEMPTS)
        .description("Snapshots the director tried to take")
        .tags(Tags.of(tags).and("result", result))
        .register(registry);
  }
}
