package io.cairn.engine;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine's meters; every one carries the tag {@code partition}.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 *   <tr><td>cairn.engine.credit.sends</td><td>counter</td><td>operation = apply, ack</td><td>
 *       inter-partition commands handed to the sender (first sends and re-sends)</td></tr>
 *   <tr><td>cairn.engine.credit.retries</td><td>counter</td><td></td><td>re-sends of an
 *       unacknowledged credit (included in the sends)</td></tr>
 *   <tr><td>cairn.engine.credit.send.failures</td><td>counter</td><td>operation</td><td>sends
 *       where the sender threw (the credit is re-sent later)</td></tr>
 *   <tr><td>cairn.engine.credits.pending</td><td>gauge</td><td></td><td>pending credits seen by
 *       the leader's last retry scan</td></tr>
 * </table>
 */
public final class LedgerMetrics {

  private final Counter applySends;
  private final Counter ackSends;
  private final Counter retries;
  private final Counter applyFailures;
  private final Counter ackFailures;
  private final AtomicLong pendingCredits = new AtomicLong();

  public LedgerMetrics(final MeterRegistry registry, final int partitionId) {
    final Tags tags = Tags.of("partition", Integer.toString(partitionId));
    applySends = sends(registry, tags, "apply");
    ackSends = sends(registry, tags, "ack");
    retries =
        Counter.builder("cairn.engine.credit.retries")
            .description("Re-sends of unacknowledged credits")
            .tags(tags)
            .register(registry);
    applyFailures = failures(registry, tags, "apply");
    ackFailures = failures(registry, tags, "ack");
    Gauge.builder("cairn.engine.credits.pending", pendingCredits, AtomicLong::get)
        .description("Pending credits seen by the leader's last retry scan")
        .tags(tags)
        .register(registry);
  }

  public void applySent(final boolean retry) {
    applySends.increment();
    if (retry) {
      retries.increment();
    }
  }

  public void ackSent() {
    ackSends.increment();
  }

  public void sendFailed(final boolean apply) {
    (apply ? applyFailures : ackFailures).increment();
  }

  public void pendingCredits(final long count) {
    pendingCredits.set(count);
  }

  private static Counter sends(final MeterRegistry registry, final Tags tags, final String operation) {
    return Counter.builder("cairn.engine.credit.sends")
        .description("Inter-partition commands handed to the sender")
        .tags(tags)
        .tag("operation", operation)
        .register(registry);
  }

  private static Counter failures(
      final MeterRegistry registry, final Tags tags, final String operation) {
    return Counter.builder("cairn.engine.credit.send.failures")
        .description("Inter-partition sends where the sender threw")
        .tags(tags)
        .tag("operation", operation)
        .register(registry);
  }
}
