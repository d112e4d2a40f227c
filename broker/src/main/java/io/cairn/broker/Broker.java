package io.cairn.broker;

import io.cairn.backupapi.BackupStore;
import io.cairn.broker.api.BrokerApiMetrics;
import io.cairn.broker.api.RestorePointsHandler;
import io.cairn.broker.api.RestoreRequestHandler;
import io.cairn.broker.api.TopologyHandler;
import io.cairn.broker.api.limit.CommandLimiter;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.broker.management.ManagementServer;
import io.cairn.broker.node.NodeDescriptor;
import io.cairn.broker.restore.ApiRestore;
import io.cairn.config.ExposedListeners;
import io.cairn.journal.JournalFiles;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.BrokerTopology;
import io.cairn.restore.RestoreResult;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.ThreadPoolActorScheduler;
import io.cairn.tls.ClientAuth;
import io.cairn.tls.ServerTls;
import io.cairn.transport.MemberAddress;
import io.cairn.transport.MessagingService;
import io.cairn.transport.TransportTls;
import io.cairn.transport.netty.NettyMessagingService;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One broker process: everything a node runs, assembled from a {@link BrokerConfig}.
 *
 * <pre>
 *  NettyMessagingService ──┬─ raft-&lt;p&gt; (each partition's raft member)
 *   (network.host:port)    ├─ cairn-inter-partition ─▶ InterPartitionRequestHandler ─▶ partition log
 *                          ├─ cairn-command ─▶ CommandRequestHandler ─▶ leader's log
 *                          │        ▲ answer                        │
 *                          │   CommandResponseRouter ◀── stream processor's CommandResponseWriter
 *                          ├─ cairn-query-account, cairn-topology, cairn-backup, cairn-exporting,
 *                          │  cairn-backup-schedule, cairn-restore
 *  ThreadPoolActorScheduler: partitions (raft, stream processors, backup managers),
 *                            LeaderDirectory (asks the others' cairn-topology), the router
 *  Partitions (PartitionDistribution): BackupComponent + LedgerComponent each; inter-partition
 *    commands leave through TransportInterPartitionSender to the target's leader
 *  BackupStore: none | fs | s3 (backup.store)
 *  Exporters (exporters[]): an ExporterComponent per partition; directors on their own scheduler;
 *    ExportingState (paused flag, data directory) answers cairn-exporting
 *  ManagementServer: /metrics /health /ready (management.host:port)
 * </pre>
 *
 * <p><b>Life cycle.</b> {@link #open} checks the data directory's node descriptor ({@code
 * node.json}: a directory made for another node id, cluster id or partition count is refused), logs
 * the effective configuration once (secrets redacted) and binds the transport. {@link #start()}
 * starts everything else — or, with {@code data.restoreMode} and an empty data directory, only the
 * backup store, management and {@code cairn-restore} ({@link ApiRestore}), and the rest once the
 * directory is restored. {@link #close()} shuts down gracefully: new commands are refused,
 * in-flight ones are answered (waiting up to {@code processing.shutdownTimeout}), then the parts
 * close in reverse order (management, handlers, partitions — each finishes its batch and flushes
 * its journal —, actors, transport, backup store, threads). Between open and start, {@link
 * #setMemberAddress} can tell the transport where the others listen (ephemeral ports in tests).
 *
 * <p>Thread-safety: the life-cycle methods are serialized; the accessors may be called from any
 * thread.
 *
 * <p>What processes (partitions, request handlers, the backup schedule) is {@link NodeProcessing},
 * built from this broker's scheduler, transport and thread pools: the same class runs in a seeded
 * simulation. The broker's own thread pools are {@link BrokerThreads}'; waiting for a part and
 * closing one (each close step runs even if an earlier one failed) is {@link PartSteps}'.
 */
public final class Broker implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Broker.class);

  private enum State {
    OPEN,
    /** data.restoreMode with an empty directory: waits for a restore through the API. */
    AWAITING_RESTORE,
    STARTED,
    CLOSING,
    CLOSED
  }

  private final BrokerConfig config;
  private final Clock clock;
  private final int nodeId;
  private final BrokerInfo info;
  private final Path dataDirectory;
  private final PrometheusMeterRegistry registry;
  private final NettyMessagingService transport;

  /**
   * This broker's certificate when TLS is on (checked before anything is opened): HTTPS for
   * management, mutual TLS on the transport, one source of both.
   */
  private final Optional<ServerTls> tls;

  /** Started in restore mode with an empty data directory: {@link #start()} waits for a restore. */
  private final boolean awaitsRestore;

  private final Object lifecycle = new Object();
  private final CountDownLatch closeRequested = new CountDownLatch(1);
  private final List<String> handlerTypes = new ArrayList<>();
  private final BrokerThreads threads;
  private final PartSteps steps;
  private volatile State state;

  // set by start()
  private ThreadPoolActorScheduler scheduler;
  private ThreadPoolActorScheduler exporterScheduler;
  private BackupStores.Opened backupStore;
  private volatile NodeProcessing processing;
  private ManagementServer management;
  private BrokerApiMetrics apiMetrics;
  private ApiRestore restore;

  private Broker(BrokerConfig config, Clock clock) {
    this.config = config;
    this.clock = clock;
    this.nodeId = config.cluster().nodeId();
    this.info =
        new BrokerInfo(
            nodeId,
            config.cluster().clusterId(),
            BrokerVersion.current(),
            config.cluster().partitionCount(),
            config.cluster().replicationFactor());
    this.dataDirectory = config.data().directory().toAbsolutePath();
    this.threads = new BrokerThreads(nodeId);
    this.steps = new PartSteps(nodeId);
    this.awaitsRestore = config.data().restoreMode() && ApiRestore.isEmpty(dataDirectory);
    if (!awaitsRestore) {
      checkNodeDescriptor();
    }
    LOG.info(
        "Node {} of cluster '{}' (broker {}), data in {}, configuration:\n{}",
        nodeId,
        info.clusterId(),
        info.version(),
        dataDirectory,
        config.describe());
    this.tls = config.security().tls().map(files -> ServerTls.load(files, ClientAuth.NONE));
    this.registry =
        new PrometheusMeterRegistry(
            PrometheusConfig.DEFAULT, new PrometheusRegistry(), BrokerMetrics.clock(clock));
    this.transport =
        new NettyMessagingService(
            config.transportConfig(), clock, registry, tls.map(Broker::transportTls));
    try {
      transport.start();
    } catch (RuntimeException e) {
      transport.close();
      registry.close();
      throw e;
    }
    state = State.OPEN;
  }

  /**
   * Checks the data directory, logs the configuration and binds the transport, on the system clock.
   *
   * @throws io.cairn.broker.node.NodeDescriptorMismatchException if the data directory belongs to
   *     another node, cluster or partition count
   * @throws IllegalStateException if the transport's port cannot be bound
   */
  public static Broker open(BrokerConfig config) {
    return open(config, Clock.system());
  }

  /** {@link #open(BrokerConfig)} on {@code clock}. */
  public static Broker open(BrokerConfig config, Clock clock) {
    return new Broker(Objects.requireNonNull(config, "config"), Objects.requireNonNull(clock));
  }

  /**
   * Starts the actors, the backup store, the partitions, the request handlers and the management
   * server. Returns once every partition's actor and raft member run (roles follow shortly; watch
   * {@link #health()}).
   *
   * @throws IllegalStateException if called twice or after close
   * @throws RuntimeException if a part cannot start (the backup store's directory or bucket, the
   *     management port, a partition's files); what started is closed again
   */
  public void start() {
    synchronized (lifecycle) {
      if (state != State.OPEN) {
        throw new IllegalStateException(
            "Expected an opened broker to start, but node " + nodeId + " is " + state);
      }
      try {
        startParts();
        state = awaitsRestore ? State.AWAITING_RESTORE : State.STARTED;
      } catch (RuntimeException e) {
        LOG.info("Node {} failed to start ({}); closing what started", nodeId, e.toString());
        closeParts();
        state = State.CLOSED;
        throw e;
      }
    }
    logStarted();
  }

  private void logStarted() {
    LOG.info(
        "Node {} {}: partitions {}, transport {}, management {}",
        nodeId,
        state == State.AWAITING_RESTORE
            ? "waits for a restore through the API (data.restoreMode, empty data directory)"
            : "started",
        partitions().all().stream().map(HostedPartition::partitionId).toList(),
        transport.localAddress(),
        managementAddress().map(Object::toString).orElse("off"));
    ExposedListeners exposed = config.exposedListeners();
    if (exposed.any()) {
      // refused at configuration unless security.allowInsecure: said again on every start
      LOG.warn("Node {}: {}", nodeId, exposed.warning());
    }
  }

  /** True once {@link #close()} was called (it may still wait for a start to give up). */
  public boolean isStopRequested() {
    return closeRequested.getCount() == 0;
  }

  /** Waits up to {@code delay} for {@link #close()} to be called; true if it was. */
  private boolean awaitCloseRequest(Duration delay) {
    try {
      return closeRequested.await(delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  /**
   * Starts the threads, the backup store and the management server, then either everything that
   * processes or, waiting for a restore, only the restore's request handler.
   */
  private void startParts() {
    threads.start(config);
    backupStore =
        BackupStores.open(
            config.backup(),
            clock,
            threads.store(),
            threads.backupQuery(),
            registry,
            new BackupStores.Patience(
                BackupStores.S3_START_PATIENCE, clock::nanos, this::awaitCloseRequest));
    BrokerConfig.Management settings = config.management();
    if (settings.enabled()) {
      management =
          ManagementServer.start(
              settings.host(),
              settings.port(),
              registry,
              this::health,
              threads.startManagement(),
              tls.map(ServerTls::sslContext));
    }
    apiMetrics = new BrokerApiMetrics(registry, nodeId);
    if (awaitsRestore) {
      restore =
          new ApiRestore(
              ApiRestore.target(config, dataDirectory, info.version()),
              backupStore.store().orElseThrow(),
              clock,
              registry,
              threads.startRestore(),
              this::startRestored,
              new ApiRestore.Peers(
                  transport,
                  config.cluster().members().keySet(),
                  config.network().requestTimeout()));
    }
    register(
        ApiDescriptor.TYPE_RESTORE,
        new RestoreRequestHandler(
            nodeId, Optional.ofNullable(restore), config.data().restoreMode(), apiMetrics));
    register(
        ApiDescriptor.TYPE_RESTORE_POINTS,
        new RestorePointsHandler(
            backupStore.store(),
            backupStore.unavailableReason(),
            config.cluster().partitionCount(),
            clock,
            threads.restorePoints(),
            apiMetrics));
    if (!awaitsRestore) {
      startProcessing();
    }
  }

  /** The restore's {@link ApiRestore.Starter}: the restored directory's partitions start. */
  private List<HostedPartition> startRestored(RestoreResult restored) {
    synchronized (lifecycle) {
      if (state != State.AWAITING_RESTORE) {
        throw new IllegalStateException(
            "Expected node " + nodeId + " to wait for its restore, but it is " + state);
      }
      try {
        checkNodeDescriptor();
        startProcessing();
        state = State.STARTED;
      } catch (RuntimeException e) {
        LOG.error("Node {} failed to start after its restore; closing", nodeId, e);
        closeParts();
        state = State.CLOSED;
        throw e;
      }
    }
    logStarted();
    return partitions().all();
  }

  private void checkNodeDescriptor() {
    NodeDescriptor.checkOrCreate(
        dataDirectory,
        NodeDescriptor.of(config.cluster().clusterId(), nodeId, config.cluster().partitionCount()));
  }

  /** Why client commands are refused now: shutting down, or a restored cluster still checking. */
  private Optional<String> commandRefusal() {
    return state != State.STARTED
        ? Optional.of("Expected node " + nodeId + " to take commands, but it is shutting down")
        : Optional.ofNullable(restore).flatMap(ApiRestore::commandRefusal);
  }

  /** Starts everything that processes: actors, partitions, request handlers, the schedule. */
  private void startProcessing() {
    scheduler =
        new ThreadPoolActorScheduler(
            "node-" + nodeId, config.processing().actorThreadCount(), clock, registry);
    if (!config.exporters().isEmpty()) {
      // exporters do file and network I/O: never on the threads that run the partitions
      exporterScheduler =
          new ThreadPoolActorScheduler(
              "node-" + nodeId + "-exporters",
              1,
              clock,
              BrokerMetrics.roleView(registry, "exporter"));
    }
    processing =
        new NodeProcessing(
            new NodeProcessing.Parts(
                config,
                info,
                dataDirectory,
                clock,
                transport,
                scheduler,
                Optional.ofNullable(exporterScheduler),
                new NodeProcessing.Executors(
                    threads.io(), threads.flush(), threads.upload(), threads.api()),
                backupStore,
                registry,
                apiMetrics,
                this::commandRefusal,
                JournalFiles.REAL,
                NodeProcessing.Safeguards.ON));
    steps.join(processing.start(), "the node's processing");
    BrokerMetrics.registerHealth(registry, nodeId, () -> health().status().code());
  }

  /**
   * Mutual TLS between the brokers and the gateway: this broker's certificate both ways, peers'
   * certificates checked against the cluster's CA.
   */
  private static TransportTls transportTls(ServerTls certificate) {
    ServerTls mutual = certificate.requiringClientCertificates();
    return new TransportTls(
        mutual.keyManager(), mutual.trustManager().orElseThrow(), mutual.protocols());
  }

  private void register(String type, MessagingService.RequestHandler handler) {
    transport.registerRequestHandler(type, handler, threads.api());
    handlerTypes.add(type);
  }

  // ---- accessors -----------------------------------------------------------------------------

  public int nodeId() {
    return nodeId;
  }

  public BrokerConfig config() {
    return config;
  }

  public BrokerInfo info() {
    return info;
  }

  /** Where the transport listens (the real port when {@code network.port} is 0). */
  public MemberAddress transportAddress() {
    return transport.localAddress();
  }

  /** Where the management server listens, if it runs. */
  public Optional<InetSocketAddress> managementAddress() {
    ManagementServer server = management;
    return server == null ? Optional.empty() : Optional.of(server.address());
  }

  /** Tells the transport where member {@code memberId} listens now. */
  public void setMemberAddress(int memberId, MemberAddress address) {
    transport.setMemberAddress(memberId, address);
  }

  /** The partitions this broker hosts (empty before {@link #start()}). */
  public HostedPartitions partitions() {
    NodeProcessing started = processing;
    return started == null ? new HostedPartitions(List.of()) : started.partitions();
  }

  /**
   * The limit of client commands in flight on {@code partitionId}, if this broker hosts it (empty
   * before {@link #start()}).
   */
  public Optional<CommandLimiter> commandLimiter(int partitionId) {
    NodeProcessing started = processing;
    return started == null ? Optional.empty() : started.commandLimiter(partitionId);
  }

  /** What this broker reports on {@code cairn-topology}. */
  public BrokerTopology topology() {
    return TopologyHandler.topology(info, partitions());
  }

  /** The broker's health now (also on {@code /health} and {@code /ready}). */
  public BrokerHealth health() {
    State current = state;
    String problem =
        switch (current) {
          case OPEN -> "node " + nodeId + " is starting";
          case AWAITING_RESTORE -> "node " + nodeId + " is in restore mode: " + restore.describe();
          case STARTED -> null;
          case CLOSING, CLOSED -> "node " + nodeId + " is shutting down";
        };
    return BrokerHealth.of(nodeId, partitions(), problem);
  }

  /** Every meter of this broker (what {@code /metrics} serves). */
  public PrometheusMeterRegistry meterRegistry() {
    return registry;
  }

  /** Whether {@link #close()} has begun. */
  public boolean isClosed() {
    return state == State.CLOSING || state == State.CLOSED;
  }

  // ---- shutdown ------------------------------------------------------------------------------

  /**
   * Shuts down gracefully (see the class comment); idempotent. Waits up to {@code
   * processing.shutdownTimeout} for in-flight commands, then closes every part even if one fails.
   */
  @Override
  public void close() {
    closeRequested.countDown(); // a start waiting for the backup store gives up and lets go
    synchronized (lifecycle) {
      if (state == State.CLOSING || state == State.CLOSED) {
        return;
      }
      boolean started = state == State.STARTED;
      state = State.CLOSING;
      LOG.info("Node {} shutting down: refusing new commands", nodeId);
      if (processing != null) {
        processing.refuseNewCommands();
        if (started) {
          processing.awaitDrained(config.processing().shutdownTimeout());
        }
      }
      closeParts();
      state = State.CLOSED;
    }
    LOG.info("Node {} shut down", nodeId);
  }

  /** Closes in reverse order of starting; every step runs even if an earlier one failed. */
  private void closeParts() {
    Optional.ofNullable(restore).ifPresent(ApiRestore::close);
    steps.quietly("the management server", () -> PartSteps.close(management));
    steps.quietly("the request handlers", () -> handlerTypes.forEach(transport::unregisterHandler));
    steps.quietly(
        "the node's processing (partitions, handlers, schedule)",
        () -> {
          if (processing != null) {
            steps.join(processing.closeAsync(), "closing the processing", PartSteps.PART_TIMEOUT);
          }
        });
    steps.quietly("the exporter scheduler", () -> PartSteps.close(exporterScheduler));
    steps.quietly("the actor scheduler", () -> PartSteps.close(scheduler));
    steps.quietly("the transport", transport::close);
    steps.quietly(
        "the backup store",
        () -> {
          if (backupStore != null) {
            backupStore.store().ifPresent(BackupStore::close);
          }
        });
    for (ExecutorService executor : threads.inStopOrder()) {
      steps.quietly("a thread pool", () -> threads.stop(executor));
    }
    steps.quietly("the meter registry", registry::close);
  }

  @Override
  public String toString() {
    return "Broker{node " + nodeId + ", " + state + "}";
  }
}
