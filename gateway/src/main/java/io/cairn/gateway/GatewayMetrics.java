package io.cairn.gateway;

import io.cairn.gateway.topology.ClusterTopology;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateway's meters (tags {@code node} = the gateway's node id, {@code operation} = the API
 * operation, e.g. {@code Deposit}, {@code TakeBackup}, {@code http-get-backup}):
 *
 * <ul>
 *   <li>{@value #REQUESTS} (counter, + {@code result}: {@code ok} or the lower-case error code) —
 *       finished requests.
 *   <li>{@value #REQUEST_LATENCY} (timer, + {@code result}) — time to the answer.
 *   <li>{@value #RETRIES} (counter) — requests sent again to a partition leader after NOT_LEADER,
 *       no known leader, an unavailable partition or an undelivered message.
 *   <li>{@value #TRANSFER_TARGET_CHECKS} (counter, + {@code result}: {@code found}, {@code
 *       not_found}, or the lower-case error code of a check that got no answer) — checks that the
 *       target account of a cross-partition transfer exists, made before the transfer is sent;
 *       {@code not_found} counts transfers refused by the gateway that the engine would have
 *       accepted and refunded.
 *   <li>{@value #PARTITIONS_LEADERLESS} (gauge) — partitions without a known leader in the current
 *       topology (all of them before the first answer).
 *   <li>{@value #BROKERS_UNREACHABLE} (gauge) — configured brokers that did not answer the last
 *       topology request.
 *   <li>{@value #AUTH_REFUSALS} (counter, tags {@code node}, {@code transport}: {@code grpc} or
 *       {@code http}, {@code reason}: {@value #REFUSAL_UNAUTHENTICATED} or {@value
 *       #REFUSAL_FORBIDDEN}) — calls refused for lack of valid credentials or of the role; each
 *       combination is registered at 0 from the start.
 * </ul>
 */
public final class GatewayMetrics {

  /** Counter; tags {@code node}, {@code operation}, {@code result}: finished requests. */
  public static final String REQUESTS = "cairn.gateway.requests";

  /** Timer; tags {@code node}, {@code operation}, {@code result}: time to the answer. */
  public static final String REQUEST_LATENCY = "cairn.gateway.request.latency";

  /** Counter; tags {@code node}, {@code operation}: requests sent again to a partition leader. */
  public static final String RETRIES = "cairn.gateway.retries";

  /** Counter; tags {@code node}, {@code result}: checks of a transfer's target account. */
  public static final String TRANSFER_TARGET_CHECKS = "cairn.gateway.transfer.target.checks";

  /** Gauge; tag {@code node}: partitions without a known leader (-1 before the first topology). */
  public static final String PARTITIONS_LEADERLESS = "cairn.gateway.topology.partitions.leaderless";

  /** Gauge; tag {@code node}: configured brokers that did not answer the last topology request. */
  public static final String BROKERS_UNREACHABLE = "cairn.gateway.topology.brokers.unreachable";

  /**
   * Counter; tags {@code node}, {@code transport} ({@code grpc}, {@code http}), {@code reason}
   * ({@value #REFUSAL_UNAUTHENTICATED}, {@value #REFUSAL_FORBIDDEN}): refused calls.
   */
  public static final String AUTH_REFUSALS = "cairn.gateway.auth.refusals";

  /** The reason tag of a call without valid credentials (gRPC UNAUTHENTICATED, HTTP 401). */
  public static final String REFUSAL_UNAUTHENTICATED = "unauthenticated";

  /** The reason tag of a call whose principal lacks the role (PERMISSION_DENIED, 403). */
  public static final String REFUSAL_FORBIDDEN = "forbidden";

  private static final List<String> TRANSPORTS = List.of("grpc", "http");

  private final MeterRegistry registry;
  private final String node;
  private final ConcurrentMap<String, Counter> retries = new ConcurrentHashMap<>();
  private final Map<String, Counter> refusals = new HashMap<>();
  private final AtomicInteger leaderless = new AtomicInteger(-1);
  private final AtomicInteger unreachable = new AtomicInteger();

  public GatewayMetrics(MeterRegistry registry, int nodeId) {
    this.registry = registry;
    this.node = Integer.toString(nodeId);
    Gauge.builder(PARTITIONS_LEADERLESS, leaderless, AtomicInteger::get)
        .tag("node", node)
        .description("Partitions without a known leader (-1 before the first topology)")
        .register(registry);
    Gauge.builder(BROKERS_UNREACHABLE, unreachable, AtomicInteger::get)
        .tag("node", node)
        .description("Configured brokers that did not answer the last topology request")
        .register(registry);
    for (String transport : TRANSPORTS) {
      for (String reason : List.of(REFUSAL_UNAUTHENTICATED, REFUSAL_FORBIDDEN)) {
        refusals.put(transport + "/" + reason, refusalCounter(transport, reason));
      }
    }
  }

  /**
   * Counts one refused call.
   *
   * @param transport {@code grpc} or {@code http}
   * @param reason {@link #REFUSAL_UNAUTHENTICATED} or {@link #REFUSAL_FORBIDDEN}
   */
  public void authRefusal(String transport, String reason) {
    Counter counter = refusals.get(transport + "/" + reason);
    if (counter == null) {
      throw new IllegalArgumentException(
          "Expected transport in "
              + TRANSPORTS
              + " and reason "
              + REFUSAL_UNAUTHENTICATED
              + " or "
              + REFUSAL_FORBIDDEN
              + ", but was "
              + transport
              + " and "
              + reason);
    }
    counter.increment();
  }

  private Counter refusalCounter(String transport, String reason) {
    return Counter.builder(AUTH_REFUSALS)
        .tags("node", node, "transport", transport, "reason", reason)
        .description("Calls refused for lack of valid credentials or of the role")
        .register(registry);
  }

  /** Counts and times one finished request. */
  public void request(String operation, String result, Duration latency) {
    Counter.builder(REQUESTS)
        .tags("node", node, "operation", operation, "result", result)
        .register(registry)
        .increment();
    Timer.builder(REQUEST_LATENCY)
        .tags("node", node, "operation", operation, "result", result)
        .register(registry)
        .record(latency);
  }

  /** The result tag of a failure. */
  public static String result(Throwable error) {
    if (error == null) {
      return "ok";
    }
    if (error instanceof GatewayException gateway) {
      return gateway.code().name().toLowerCase(Locale.ROOT);
    }
    return "internal";
  }

  /** Counts one retry of {@code operation}. */
  public void retry(String operation) {
    retries
        .computeIfAbsent(
            operation,
            op -> Counter.builder(RETRIES).tags("node", node, "operation", op).register(registry))
        .increment();
  }

  /** Counts one check of a cross-partition transfer's target account, by {@code result}. */
  public void transferTargetCheck(String result) {
    Counter.builder(TRANSFER_TARGET_CHECKS)
        .tags("node", node, "result", result)
        .description("Checks that a cross-partition transfer's target account exists")
        .register(registry)
        .increment();
  }

  /** Updates the topology gauges. */
  public void topology(ClusterTopology topology) {
    leaderless.set(topology.partitionCount() == 0 ? -1 : topology.partitionsWithoutLeader().size());
    unreachable.set(topology.brokers().size() - topology.reachableBrokers().size());
  }
}
