package io.cairn.gateway;

import io.cairn.gateway.topology.ClusterTopology;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateway's meters (tags {@code node} = the gateway's node id, {@code operation} = the API
 * operation, e.g. {@code Deposit}, {@code TakeBackup}, {@code http-get-backup}):
 *
 * <ul>
 *   <li>{@code cairn.gateway.requests} (counter, + {@code result}: {@code ok} or the lower-case
 *       error code) — finished requests.
 *   <li>{@code cairn.gateway.request.latency} (timer, + {@code result}) — time to the answer.
 *   <li>{@code cairn.gateway.retries} (counter) — requests sent again to a partition leader after
 *       NOT_LEADER, no known leader, an unavailable partition or an undelivered message.
 *   <li>{@code cairn.gateway.transfer.target.checks} (counter, + {@code result}: {@code found},
 *       {@code not_found}, or the lower-case error code of a check that got no answer) — checks
 *       that the target account of a cross-partition transfer exists, made before the transfer is
 *       sent; {@code not_found} counts transfers refused by the gateway that the engine would have
 *       accepted and refunded.
 *   <li>{@code cairn.gateway.topology.partitions.leaderless} (gauge) — partitions without a known
 *       leader in the current topology (all of them before the first answer).
 *   <li>{@code cairn.gateway.topology.brokers.unreachable} (gauge) — configured brokers that did
 *       not answer the last topology request.
 * </ul>
 */
public final class GatewayMetrics {
  private final MeterRegistry registry;
  private final String node;
  private final ConcurrentMap<String, Counter> retries = new ConcurrentHashMap<>();
  private final AtomicInteger leaderless = new AtomicInteger(-1);
  private final AtomicInteger unreachable = new AtomicInteger();

  public GatewayMetrics(final MeterRegistry registry, final int nodeId) {
    this.registry = registry;
    this.node = Integer.toString(nodeId);
    Gauge.builder("cairn.gateway.topology.partitions.leaderless", leaderless, AtomicInteger::get)
        .tag("node", node)
        .description("Partitions without a known leader (-1 before the first topology)")
        .register(registry);
    Gauge.builder("cairn.gateway.topology.brokers.unreachable", unreachable, AtomicInteger::get)
        .tag("node", node)
        .description("Configured brokers that did not answer the last topology request")
        .register(registry);
  }

  /** Counts and times one finished request. */
  public void request(final String operation, final String result, final Duration latency) {
    Counter.builder("cairn.gateway.requests")
        .tags("node", node, "operation", operation, "result", result)
        .register(registry)
        .increment();
    Timer.builder("cairn.gateway.request.latency")
        .tags("node", node, "operation", operation, "result", result)
        .register(registry)
        .record(latency);
  }

  /** The result tag of a failure. */
  public static String result(final Throwable error) {
    if (error == null) {
      return "ok";
    }
    if (error instanceof GatewayException gateway) {
      return gateway.code().name().toLowerCase(Locale.ROOT);
    }
    return "internal";
  }

  /** Counts one retry of {@code operation}. */
  public void retry(final String operation) {
    retries
        .computeIfAbsent(
            operation,
            op ->
                Counter.builder("cairn.gateway.retries")
                    .tags("node", node, "operation", op)
                    .register(registry))
        .increment();
  }

  /** Counts one check of a cross-partition transfer's target account, by {@code result}. */
  public void transferTargetCheck(final String result) {
    Counter.builder("cairn.gateway.transfer.target.checks")
        .tags("node", node, "result", result)
        .description("Checks that a cross-partition transfer's target account exists")
        .register(registry)
        .increment();
  }

  /** Updates the topology gauges. */
  public void topology(final ClusterTopology topology) {
    leaderless.set(topology.partitionCount() == 0 ? -1 : topology.partitionsWithoutLeader().size());
    unreachable.set(topology.brokers().size() - topology.reachableBrokers().size());
  }
}
