package io.cairn.gateway;

import io.cairn.config.ExposedListeners;
import io.cairn.gateway.admin.BackupAdmin;
import io.cairn.gateway.admin.ExportingAdmin;
import io.cairn.gateway.admin.RestoreAdmin;
import io.cairn.gateway.grpc.GrpcServer;
import io.cairn.gateway.http.ManagementHttpServer;
import io.cairn.gateway.ledger.LedgerOperations;
import io.cairn.gateway.routing.BrokerRequester;
import io.cairn.gateway.security.AccessControl;
import io.cairn.gateway.security.AuditLog;
import io.cairn.gateway.topology.ClusterTopology;
import io.cairn.gateway.topology.TopologyManager;
import io.cairn.scheduler.Clock;
import io.cairn.tls.ClientAuth;
import io.cairn.tls.ServerTls;
import io.cairn.transport.TransportConfig;
import io.cairn.transport.TransportTls;
import io.cairn.transport.netty.NettyMessagingService;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway process's components: its own transport endpoint towards the brokers, the topology
 * poller, the gRPC server (client and admin API, reflection, health) and the management HTTP
 * endpoints. {@link #start()} binds everything and returns; {@link #close()} stops it in reverse.
 *
 * <p>Threads (all daemon, all bounded): the transport's event loops, one timer ({@code
 * cairn-gateway-timer-<node>}, topology polls and retry backoff), two workers ({@code
 * cairn-gateway-worker-<node>}, answer handling, queue of {@code maxPendingRequests}) and two HTTP
 * workers ({@code cairn-gateway-http-<node>}); with authentication on, two check threads ({@code
 * cairn-gateway-auth-<node>}, queue of {@code maxPendingRequests}) where gRPC calls' credentials
 * are checked off the event loop.
 */
public final class Gateway implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);
  private static final int HTTP_QUEUE_CAPACITY = 256;

  private final GatewayConfig config;
  private final NettyMessagingService messaging;
  private final ScheduledThreadPoolExecutor timer;
  private final ThreadPoolExecutor workers;
  private final ThreadPoolExecutor httpWorkers;
  private final ThreadPoolExecutor checks;
  private final TopologyManager topology;
  private final GrpcServer grpc;
  private final ManagementHttpServer http;
  private volatile boolean started;

  /**
   * Creates (but does not bind) every component.
   *
   * @param registry where the gateway's and its transport's meters go; {@code /metrics} scrapes it
   * @param clock the time source of deadlines and metrics
   */
  public Gateway(GatewayConfig config, PrometheusMeterRegistry registry, Clock clock) {
    this.config = config;
    int node = config.nodeId();
    GatewayMetrics metrics = new GatewayMetrics(registry, node);
    // first, before any thread or socket: a credentials file that cannot be used stops the start
    AccessControl access = AccessControl.create(config.auth(), new AuditLog(), metrics, clock);
    // The gateway's own certificate: gRPC and HTTP (clients authenticate with credentials), and
    // mutual TLS to the brokers; one source of all three.
    Optional<ServerTls> tls = config.tls().map(files -> ServerTls.load(files, ClientAuth.NONE));
    this.messaging =
        new NettyMessagingService(
            TransportConfig.builder(node)
                .bindHost(config.transportHost())
                .bindPort(config.transportPort())
                .members(config.brokers())
                .build(),
            clock,
            registry,
            tls.map(Gateway::transportTls));
    this.timer = new ScheduledThreadPoolExecutor(1, threads("cairn-gateway-timer-" + node));
    timer.setRemoveOnCancelPolicy(true);
    this.workers = pool("cairn-gateway-worker-" + node, config.maxPendingRequests());
    this.httpWorkers = pool("cairn-gateway-http-" + node, HTTP_QUEUE_CAPACITY);
    this.checks = pool("cairn-gateway-auth-" + node, config.maxPendingRequests());
    GrpcServer[] grpcRef = new GrpcServer[1];
    this.topology =
        new TopologyManager(
            messaging,
            config.brokers(),
            config.topologyRefreshInterval(),
            config.requestTimeout(),
            timer,
            workers,
            clock,
            metrics,
            next -> {
              GrpcServer server = grpcRef[0];
              if (server != null) {
                server.onTopology(next);
              }
            });
    BrokerRequester requester =
        new BrokerRequester(
            messaging,
            topology,
            timer,
            workers,
            metrics,
            config.requestTimeout(),
            config.retryBackoffMin(),
            config.retryBackoffMax(),
            config.maxRetries());
    BackupAdmin backups = new BackupAdmin(requester);
    ExportingAdmin exporting = new ExportingAdmin(requester);
    RestoreAdmin restore = new RestoreAdmin(requester);
    this.grpc =
        new GrpcServer(
            config.grpcHost(),
            config.grpcPort(),
            config.maxMessageSizeBytes(),
            new LedgerOperations(requester, metrics),
            backups,
            exporting,
            restore,
            topology,
            clock,
            config.requestTimeout(),
            metrics,
            tls,
            access,
            checks);
    grpcRef[0] = grpc;
    this.http =
        new ManagementHttpServer(
            config.httpHost(),
            config.httpPort(),
            config.httpMaxBodyBytes(),
            config.requestTimeout(),
            clock,
            backups,
            exporting,
            restore,
            topology,
            registry,
            metrics,
            httpWorkers,
            tls.map(ServerTls::sslContext),
            access);
  }

  /** Mutual TLS to the brokers: the gateway's certificate, theirs checked against the CA. */
  private static TransportTls transportTls(ServerTls certificate) {
    ServerTls mutual = certificate.requiringClientCertificates();
    return new TransportTls(
        mutual.keyManager(), mutual.trustManager().orElseThrow(), mutual.protocols());
  }

  /** Binds the transport, gRPC and HTTP ports and starts polling the brokers' topology. */
  public void start() {
    messaging.start();
    grpc.start();
    http.start();
    topology.start();
    started = true;
    LOG.info(
        "Gateway {} started: gRPC on {}:{}, management HTTP on {}, brokers {}, TLS {},"
            + " authentication {}",
        config.nodeId(),
        config.grpcHost(),
        grpc.port(),
        http.address(),
        config.brokers(),
        config.tls().isPresent() ? "on" : "off",
        config.auth().enabled() ? "on" : "off (every caller is the anonymous admin)");
    ExposedListeners exposed = config.exposedListeners();
    if (exposed.any()) {
      // refused at configuration unless allowed: said again on every start
      LOG.warn("Gateway {}: {}", config.nodeId(), exposed.warning());
    }
  }

  public GatewayConfig config() {
    return config;
  }

  /** The bound gRPC address (the real port when configured as 0). */
  public InetSocketAddress grpcAddress() {
    return new InetSocketAddress(config.grpcHost(), grpc.port());
  }

  /** The bound management HTTP address. */
  public InetSocketAddress httpAddress() {
    return http.address();
  }

  /** The current topology snapshot. */
  public ClusterTopology topology() {
    return topology.current();
  }

  /** Asks every broker for its topology now (joining a refresh already running). */
  public CompletableFuture<ClusterTopology> refreshTopology() {
    return topology.refresh();
  }

  @Override
  public void close() {
    http.close();
    grpc.close();
    topology.close();
    messaging.close();
    timer.shutdownNow();
    workers.shutdownNow();
    httpWorkers.shutdownNow();
    checks.shutdownNow();
    try {
      timer.awaitTermination(Duration.ofSeconds(5).toMillis(), TimeUnit.MILLISECONDS);
      workers.awaitTermination(Duration.ofSeconds(5).toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (started) {
      LOG.info("Gateway {} stopped", config.nodeId());
    }
  }

  private static ThreadPoolExecutor pool(String name, int queueCapacity) {
    return new ThreadPoolExecutor(
        2, 2, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(queueCapacity), threads(name));
  }

  private static ThreadFactory threads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
