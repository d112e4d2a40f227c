package io.cairn.broker.api.limit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The {@link CommandLimiter} of every partition a broker hosts, with their meters (tags {@code
 * node}, {@code partition}):
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>what</th></tr>
 *   <tr><td>{@code cairn.broker.commands.limit}</td><td>gauge</td><td>the limit of client
 *       commands in flight now</td></tr>
 *   <tr><td>{@code cairn.broker.commands.in.flight}</td><td>gauge</td><td>client commands
 *       admitted and not answered yet</td></tr>
 *   <tr><td>{@code cairn.broker.commands.rejected}</td><td>counter</td><td>client commands
 *       answered {@code BACKPRESSURE} because the limit was reached</td></tr>
 * </table>
 */
public final class CommandLimiters {

  static final String LIMIT = "cairn.broker.commands.limit";
  static final String IN_FLIGHT = "cairn.broker.commands.in.flight";
  static final String REJECTED = "cairn.broker.commands.rejected";

  private final CommandLimitConfig config;
  private final Map<Integer, CommandLimiter> limiters;

  private CommandLimiters(
      final CommandLimitConfig config, final Map<Integer, CommandLimiter> limiters) {
    this.config = config;
    this.limiters = Map.copyOf(limiters);
  }

  /** One limiter for each of {@code partitionIds}, its meters registered in {@code registry}. */
  public static CommandLimiters open(
      final Collection<Integer> partitionIds,
      final CommandLimitConfig config,
      final LongSupplier nanos,
      final MeterRegistry registry,
      final int nodeId) {
    final Map<Integer, CommandLimiter> limiters = new TreeMap<>();
    for (final int partitionId : partitionIds) {
      final CommandLimiter limiter = new CommandLimiter(partitionId, config, nanos);
      limiters.put(partitionId, limiter);
      final Tags tags =
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
    return new CommandLimiters(config, limiters);
  }

  /** The settings every limiter was made with. */
  public CommandLimitConfig config() {
    return config;
  }

  /** The limiter of {@code partitionId}, if this broker hosts it. */
  public Optional<CommandLimiter> of(final int partitionId) {
    return Optional.ofNullable(limiters.get(partitionId));
  }
}
