package io.cairn.engine;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine's meters; every one carries the tag {@code partition}. {@link #close()} removes them
 * from the registry.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 *   <tr><td>{@value #SENDS}</td><td>counter</td><td>operation = apply, ack,
 *       refund</td><td>inter-partition commands handed to the sender (first sends and
 *       re-sends)</td></tr>
 *   <tr><td>{@value #RETRIES}</td><td>counter</td><td></td><td>re-sends of an
 *       unacknowledged credit (included in the sends)</td></tr>
 *   <tr><td>{@value #SEND_FAILURES}</td><td>counter</td><td>operation</td><td>sends
 *       where the sender threw (the credit is re-sent later)</td></tr>
 *   <tr><td>{@value #PENDING_CREDITS}</td><td>gauge</td><td></td><td>pending credits seen by
 *       the leader's last retry scan</td></tr>
 * </table>
 *
 * <p>A registry keeps the first meter of a name and tags: while one instance for a partition is
 * open, a second one for the same partition shares its counters, and its gauge reads the first
 * instance. Close an instance before making the next one for the same partition and registry.
 */
public final class LedgerMetrics implements AutoCloseable {

  /** Counter; tags {@code partition}, {@code operation}: inter-partition commands sent. */
  public static final String SENDS = "cairn.engine.credit.sends";

  /** Counter; tag {@code partition}: re-sends of unacknowledged credits (included in the sends). */
  public static final String RETRIES = "cairn.engine.credit.retries";

  /** Counter; tags {@code partition}, {@code operation}: sends where the sender threw. */
  public static final String SEND_FAILURES = "cairn.engine.credit.send.failures";

  /** Gauge; tag {@code partition}: pending credits seen by the leader's last retry scan. */
  public static final String PENDING_CREDITS = "cairn.engine.credits.pending";

  /** The {@code operation} tag of sends and send failures. */
  public enum Operation {
    /** {@code CREDIT APPLY} to the target partition. */
    APPLY,
    /** {@code CREDIT ACK} back to the source partition. */
    ACK,
    /** {@code CREDIT REFUND} back to the source partition. */
    REFUND;

    /** The tag value. */
    public String tag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final MeterRegistry registry;
  private final Map<Operation, Counter> sends = new EnumMap<>(Operation.class);
  private final Map<Operation, Counter> failures = new EnumMap<>(Operation.class);
  private final Counter retries;
  private final AtomicLong pendingCredits = new AtomicLong();
  private final List<Meter> meters = new ArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();

  public LedgerMetrics(MeterRegistry registry, int partitionId) {
    this.registry = registry;
    Tags tags = Tags.of("partition", Integer.toString(partitionId));
    for (Operation operation : Operation.values()) {
      sends.put(
          operation,
          add(
              Counter.builder(SENDS)
                  .description("Inter-partition commands handed to the sender")
                  .tags(tags)
                  .tag("operation", operation.tag())
                  .register(registry)));
      failures.put(
          operation,
          add(
              Counter.builder(SEND_FAILURES)
                  .description("Inter-partition sends where the sender threw")
                  .tags(tags)
                  .tag("operation", operation.tag())
                  .register(registry)));
    }
    retries =
        add(
            Counter.builder(RETRIES)
                .description("Re-sends of unacknowledged credits")
                .tags(tags)
                .register(registry));
    add(
        Gauge.builder(PENDING_CREDITS, pendingCredits, AtomicLong::get)
            .description("Pending credits seen by the leader's last retry scan")
            .tags(tags)
            .register(registry));
  }

  public void applySent(boolean retry) {
    sends.get(Operation.APPLY).increment();
    if (retry) {
      retries.increment();
    }
  }

  public void ackSent() {
    sends.get(Operation.ACK).increment();
  }

  public void refundSent() {
    sends.get(Operation.REFUND).increment();
  }

  public void sendFailed(Operation operation) {
    failures.get(operation).increment();
  }

  public void pendingCredits(long count) {
    pendingCredits.set(count);
  }

  /**
   * Removes every meter of this instance from the registry; idempotent, any thread. Counting
   * afterwards goes to meters no registry reports.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      meters.forEach(registry::remove);
    }
  }

  private <M extends Meter> M add(M meter) {
    meters.add(meter);
    return meter;
  }
}
