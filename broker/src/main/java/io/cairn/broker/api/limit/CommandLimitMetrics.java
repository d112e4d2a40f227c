package io.cairn.broker.api.limit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The meters of one partition's {@link CommandLimiter} on one broker (tags {@code node}, {@code
 * partition}), read from the limiter when the registry is scraped.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>what</th></tr>
 *   <tr><td>{@value #LIMIT}</td><td>gauge</td><td>the limit of client commands in flight
 *       now</td></tr>
 *   <tr><td>{@value #IN_FLIGHT}</td><td>gauge</td><td>client commands admitted and not answered
 *       yet</td></tr>
 *   <tr><td>{@value #REJECTED}</td><td>counter</td><td>client commands answered {@code
 *       BACKPRESSURE} because the limit was reached</td></tr>
 * </table>
 */
public final class CommandLimitMetrics {

  /** Gauge; tags node, partition: the limit of client commands in flight on the partition now. */
  public static final String LIMIT = "cairn.broker.commands.limit";

  /** Gauge; tags node, partition: client commands admitted and not answered yet. */
  public static final String IN_FLIGHT = "cairn.broker.commands.in.flight";

  /** Counter; tags node, partition: client commands answered BACKPRESSURE at the limit. */
  public static final String REJECTED = "cairn.broker.commands.rejected";

  private CommandLimitMetrics() {}

  /** Registers the meters of {@code limiter}, the limiter of {@code partitionId}. */
  static void register(
      MeterRegistry registry, int nodeId, int partitionId, CommandLimiter limiter) {
    Tags tags =
        Tags.of("node", Integer.toString(nodeId), "partition", Integer.toString(partitionId));
    Gauge.builder(LIMIT, limiter, CommandLimiter::limit)
        .description("The limit of client commands in flight on the partition now")
        .tags(tags)
        .register(registry);
    Gauge.builder(IN_FLIGHT, limiter, CommandLimiter::inFlight)
        .description("Client commands admitted on the partition and not answered yet")
        .tags(tags)
        .register(registry);
    FunctionCounter.builder(REJECTED, limiter, CommandLimiter::rejected)
        .description("Client commands answered BACKPRESSURE because the limit was reached")
        .tags(tags)
        .register(registry);
  }
}
