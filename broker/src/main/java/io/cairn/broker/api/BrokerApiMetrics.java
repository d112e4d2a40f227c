package io.cairn.broker.api;

import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.ResponseStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Meters of the gateway-facing API of one broker (tag {@code node} on all).
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th></tr>
 *   <tr><td>{@value #REQUESTS}</td><td>counter</td><td>{@code operation} = command,
 *       query, topology, backup, exporting, backup-schedule, restore, restore-points; {@code result} = the
 *       response status in lower
 *       case</td></tr>
 *   <tr><td>{@value #COMMAND_DURATION}</td><td>timer</td><td>{@code result}: from
 *       the command's arrival to its response</td></tr>
 *   <tr><td>{@value #IN_FLIGHT}</td><td>gauge</td><td>client commands
 *       written and not answered yet</td></tr>
 * </table>
 */
public final class BrokerApiMetrics {

  /** Counter; tags node, operation, result: requests of the gateway-facing API by outcome. */
  public static final String REQUESTS = "cairn.broker.api.requests";

  /** Timer; tags node, result: from a client command's arrival to its response. */
  public static final String COMMAND_DURATION = "cairn.broker.api.command.duration";

  /** Gauge; tag node: client commands written and not answered yet. */
  public static final String IN_FLIGHT = "cairn.broker.api.commands.in.flight";

  private final MeterRegistry registry;
  private final Tags tags;

  public BrokerApiMetrics(MeterRegistry registry, int nodeId) {
    this.registry = registry;
    this.tags = Tags.of("node", Integer.toString(nodeId));
  }

  /**
   * {@code answer} counted under {@code operation} once it is known, then encoded: what every
   * request handler sends back.
   */
  <T> CompletableFuture<byte[]> counted(
      String operation,
      CompletableFuture<ApiResponse<T>> answer,
      Function<ApiResponse<T>, byte[]> encoder) {
    return answer.thenApply(
        response -> {
          request(operation, response.status());
          return encoder.apply(response);
        });
  }

  void request(String operation, ResponseStatus status) {
    Counter.builder(REQUESTS)
        .description("Requests of the gateway-facing API by outcome")
        .tags(tags)
        .tag("operation", operation)
        .tag("result", status.name().toLowerCase(Locale.ROOT))
        .register(registry)
        .increment();
  }

  void commandDuration(ResponseStatus status, Duration duration) {
    Timer.builder(COMMAND_DURATION)
        .description("From a client command's arrival to its response")
        .tags(tags)
        .tag("result", status.name().toLowerCase(Locale.ROOT))
        .register(registry)
        .record(duration);
  }

  void inFlight(Supplier<Number> count) {
    Gauge.builder(IN_FLIGHT, count)
        .description("Client commands written and not answered yet")
        .tags(tags)
        .register(registry);
  }
}
