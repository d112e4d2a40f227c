package io.cairn.gateway.topology;

import io.cairn.gateway.GatewayMetrics;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.BrokerTopology;
import io.cairn.protocol.api.TopologyCodec;
import io.cairn.scheduler.Clock;
import io.cairn.transport.MemberAddress;
import io.cairn.transport.MessagingService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the gateway's {@link ClusterTopology}: asks every configured broker for its topology
 * ({@code cairn-topology}) on a fixed interval and whenever {@link #refresh()} is called (for
 * example after a NOT_LEADER answer). Concurrent refreshes share one round of requests. The current
 * snapshot is published atomically; readers never block.
 *
 * <p>Thread-safe.
 */
public final class TopologyManager implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TopologyManager.class);

  /** The longest one broker's topology answer is waited for. */
  private static final Duration TOPOLOGY_REQUEST_TIMEOUT_MAX = Duration.ofSeconds(2);

  private final MessagingService messaging;
  private final Map<Integer, MemberAddress> brokers;
  private final Duration refreshInterval;
  private final Duration requestTimeout;
  private final ScheduledExecutorService timer;
  private final Executor executor;
  private final Clock clock;
  private final GatewayMetrics metrics;
  private final Consumer<ClusterTopology> listener;
  private final AtomicReference<ClusterTopology> current;
  private final AtomicReference<CompletableFuture<ClusterTopology>> inFlight =
      new AtomicReference<>();
  private volatile ScheduledFuture<?> periodic;
  private volatile boolean closed;

  /**
   * @param listener told of every new snapshot, on the executor
   */
  public TopologyManager(
      MessagingService messaging,
      Map<Integer, MemberAddress> brokers,
      Duration refreshInterval,
      Duration requestTimeout,
      ScheduledExecutorService timer,
      Executor executor,
      Clock clock,
      GatewayMetrics metrics,
      Consumer<ClusterTopology> listener) {
    this.messaging = messaging;
    this.brokers = Map.copyOf(brokers);
    this.refreshInterval = refreshInterval;
    this.requestTimeout =
        requestTimeout.compareTo(TOPOLOGY_REQUEST_TIMEOUT_MAX) < 0
            ? requestTimeout
            : TOPOLOGY_REQUEST_TIMEOUT_MAX;
    this.timer = timer;
    this.executor = executor;
    this.clock = clock;
    this.metrics = metrics;
    this.listener = listener;
    this.current = new AtomicReference<>(ClusterTopology.unknown(brokers));
  }

  /** Starts the periodic refresh (the first one at once). */
  public void start() {
    periodic =
        timer.scheduleWithFixedDelay(
            this::refreshQuietly, 0, refreshInterval.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** The latest snapshot; never null. */
  public ClusterTopology current() {
    return current.get();
  }

  /**
   * Asks every broker for its topology, or joins the round already running. Never fails: a broker
   * that does not answer is recorded as unreachable with the reason.
   */
  public CompletableFuture<ClusterTopology> refresh() {
    while (true) {
      CompletableFuture<ClusterTopology> running = inFlight.get();
      if (running != null && !running.isDone()) {
        return running;
      }
      CompletableFuture<ClusterTopology> next = new CompletableFuture<>();
      if (inFlight.compareAndSet(running, next)) {
        startRound(next);
        return next;
      }
    }
  }

  private void refreshQuietly() {
    if (!closed) {
      refresh();
    }
  }

  private void startRound(CompletableFuture<ClusterTopology> round) {
    List<CompletableFuture<BrokerStatus>> answers = new ArrayList<>(brokers.size());
    brokers.forEach((nodeId, address) -> answers.add(ask(nodeId, address)));
    CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
        .whenCompleteAsync(
            (ignored, error) -> {
              List<BrokerStatus> statuses = answers.stream().map(CompletableFuture::join).toList();
              ClusterTopology topology = ClusterTopology.of(clock.millis(), statuses);
              publish(topology);
              round.complete(topology);
            },
            executor);
  }

  private CompletableFuture<BrokerStatus> ask(int nodeId, MemberAddress address) {
    CompletableFuture<byte[]> sent;
    try {
      sent =
          messaging.sendAndReceive(
              nodeId, ApiDescriptor.TYPE_TOPOLOGY, TopologyCodec.encodeRequest(), requestTimeout);
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(
          new BrokerStatus(nodeId, address, Optional.empty(), e.toString()));
    }
    return sent.handle(
        (bytes, error) -> {
          if (error != null) {
            Throwable cause = error instanceof CompletionException ? error.getCause() : error;
            return new BrokerStatus(
                nodeId, address, Optional.empty(), String.valueOf(cause.getMessage()));
          }
          try {
            ApiResponse<BrokerTopology> response = TopologyCodec.decodeResponse(bytes);
            if (response instanceof ApiResponse.Ok<BrokerTopology> ok) {
              if (ok.body().nodeId() != nodeId) {
                return new BrokerStatus(
                    nodeId,
                    address,
                    Optional.empty(),
                    "Expected broker "
                        + nodeId
                        + " at "
                        + address
                        + ", but node "
                        + ok.body().nodeId()
                        + " answered. Fix the gateway's broker addresses");
              }
              return new BrokerStatus(nodeId, address, Optional.of(ok.body()), "");
            }
            ApiResponse.Failure<BrokerTopology> failure =
                (ApiResponse.Failure<BrokerTopology>) response;
            return new BrokerStatus(
                nodeId, address, Optional.empty(), failure.status() + ": " + failure.reason());
          } catch (ProtocolException e) {
            return new BrokerStatus(
                nodeId,
                address,
                Optional.empty(),
                "Expected a valid topology answer, but " + e.getMessage());
          }
        });
  }

  private void publish(ClusterTopology next) {
    ClusterTopology previous = current.getAndSet(next);
    if (!previous.leaders().equals(next.leaders())
        || previous.partitionCount() != next.partitionCount()
        || !previous.reachableBrokers().equals(next.reachableBrokers())) {
      LOG.info(
          "Topology changed: partitions {}, leaders {}, reachable brokers {} of {}",
          next.partitionCount(),
          next.leaders().values().stream()
              .map(l -> l.partitionId() + "->" + l.nodeId() + "@" + l.term())
              .toList(),
          next.reachableBrokers(),
          next.brokers().keySet());
    }
    metrics.topology(next);
    try {
      listener.accept(next);
    } catch (RuntimeException e) {
      LOG.warn("Topology listener failed", e);
    }
  }

  @Override
  public void close() {
    closed = true;
    ScheduledFuture<?> task = periodic;
    if (task != null) {
      task.cancel(false);
    }
  }
}
