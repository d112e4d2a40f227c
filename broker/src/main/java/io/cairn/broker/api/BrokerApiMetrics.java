package io.cairn.broker.api;

import io.cairn.protocol.api.ResponseStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Meters of the gateway-facing API of one broker (tag {@code node} on all).
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th></tr>
 *   <tr><td>{@code cairn.broker.api.requests}</td><td>counter</td><td>{@code operation} = command,
 *       query, topology, backup, exporting; {@code result} = the response status in lower
 *       case</td></tr>
 *   <tr><td>{@code cairn.broker.api.command.duration}</td><td>timer</td><td>{@code result}: from
 *       the command's arrival to its response</td></tr>
 *   <tr><td>{@code cairn.broker.api.commands.in.flight}</td><td>gauge</td><td>client commands
 *       written and not answered yet</td></tr>
 * </table>
 */
public final class BrokerApiMetrics {

  static final String REQUESTS = "cairn.broker.api.requests";
  static final String COMMAND_DURATION = "cairn.broker.api.command.duration";
  static final String IN_FLIGHT = "cairn.broker.api.commands.in.flight";

  private final MeterRegistry registry;
  private final Tags tags;

  public BrokerApiMetrics(final MeterRegistry registry, final int nodeId) {
    this.registry = registry;
    this.tags = Tags.of("node", Integer.toString(nodeId));
  }

  void request(final String operation, final ResponseStatus status) {
    Counter.builder(REQUESTS)
        .description("Requests of the gateway-facing API by outcome")
        .tags(tags)
        .tag("operation", operation)
        .tag("result", status.name().toLowerCase(Locale.ROOT))
        .register(registry)
        .increment();
  }

  void commandDuration(final ResponseStatus status, final Duration duration) {
    Timer.builder(COMMAND_DURATION)
        .description("From a client command's arrival to its response")
        .tags(tags)
        .tag("result", status.name().toLowerCase(Locale.ROOT))
        .register(registry)
        .record(duration);
  }

  void inFlight(final Supplier<Number> count) {
    Gauge.builder(IN_FLIGHT, count)
        .description("Client commands written and not answered yet")
        .tags(tags)
        .register(registry);
  }
}
