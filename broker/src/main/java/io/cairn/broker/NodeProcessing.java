package io.cairn.broker;

import io.cairn.backup.schedule.BackupScheduler;
import io.cairn.broker.api.AccountQueryHandler;
import io.cairn.broker.api.BackupRequestHandler;
import io.cairn.broker.api.BackupScheduleHandler;
import io.cairn.broker.api.BrokerApiMetrics;
import io.cairn.broker.api.CommandRequestHandler;
import io.cairn.broker.api.CommandResponseRouter;
import io.cairn.broker.api.ExportingRequestHandler;
import io.cairn.broker.api.TopologyHandler;
import io.cairn.broker.api.limit.CommandLimiter;
import io.cairn.broker.api.limit.CommandLimiters;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.broker.exporting.ExportingState;
import io.cairn.broker.interpartition.InterPartitionCodec;
import io.cairn.broker.interpartition.InterPartitionMetrics;
import io.cairn.broker.interpartition.InterPartitionRequestHandler;
import io.cairn.broker.interpartition.TransportInterPartitionSender;
import io.cairn.broker.partition.BackupComponent;
import io.cairn.broker.schedule.ScheduledBackups;
import io.cairn.broker.topology.LeaderDirectory;
import io.cairn.db.CairnDb;
import io.cairn.engine.CheckpointIdSupplier;
import io.cairn.journal.JournalFiles;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.scheduler.Actor;
import io.cairn.scheduler.ActorScheduler;
import io.cairn.scheduler.Clock;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.transport.MessagingService;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Everything a started node processes: its partitions, the leader directory, the command response
 * router, the inter-partition sender, the command limits, the request handlers and the backup
 * schedule. Built from its parts — any {@link ActorScheduler}, any {@link MessagingService}, any
 * executors — so the same code runs in a broker process (thread pools, netty) and in a seeded
 * simulation on one thread (a deterministic scheduler, a simulated network). {@link Broker} owns
 * what is process-wide around it: the threads, the transport, the backup store, management and a
 * restore through the API.
 *
 * <p>{@link #start()} and {@link #closeAsync()} never block: each returns a future, so a simulation
 * can run its scheduler until they complete.
 */
final class NodeProcessing {

  /**
   * Where the node's blocking work runs.
   *
   * @param io file work of the partitions (snapshots, exporters' logging)
   * @param flush journal flushes (fsync)
   * @param upload collecting and reading the files of backups
   * @param api request handlers
   */
  record Executors(Executor io, Executor flush, Executor upload, Executor api) {}

  /**
   * What the node's processing is built from.
   *
   * @param exporterScheduler the exporters' scheduler; empty when no exporter is configured
   * @param commandRefusal why client commands are refused now, if they are
   * @param journalFiles how the partitions' journals open the files they write: {@link
   *     JournalFiles#REAL}; a simulation's disk fails writes or fsyncs
   * @param safeguards {@link Safeguards#ON}; a simulation switches one off
   */
  record Parts(
      BrokerConfig config,
      BrokerInfo info,
      Path dataDirectory,
      Clock clock,
      MessagingService transport,
      ActorScheduler scheduler,
      Optional<ActorScheduler> exporterScheduler,
      Executors executors,
      BackupStores.Opened backupStore,
      MeterRegistry registry,
      BrokerApiMetrics apiMetrics,
      Supplier<Optional<String>> commandRefusal,
      JournalFiles journalFiles,
      Safeguards safeguards) {}

  /**
   * What keeps a backup's cut consistent and its files in place. The broker runs with {@link #ON};
   * a simulation switches one off to show that its checks catch what goes wrong then.
   *
   * @param checkpointStamps the checkpoint id the ledger stamps on inter-partition commands, read
   *     from a partition's state: {@link BackupComponent#checkpointIds} (DESIGN.md §7)
   * @param backupSnapshots the snapshot store a partition's backup manager reserves its snapshot
   *     and holds compaction in, and its log archive holds compaction in, given the partition's
   *     own: that one
   */
  record Safeguards(
      Function<CairnDb, CheckpointIdSupplier> checkpointStamps,
      UnaryOperator<SnapshotStore> backupSnapshots) {

    static final Safeguards ON =
        new Safeguards(BackupComponent::checkpointIds, UnaryOperator.identity());

    Safeguards withCheckpointStamps(Function<CairnDb, CheckpointIdSupplier> stamps) {
      return new Safeguards(stamps, backupSnapshots);
    }

    Safeguards withBackupSnapshots(UnaryOperator<SnapshotStore> snapshots) {
      return new Safeguards(checkpointStamps, snapshots);
    }
  }

  private final Parts parts;
  private final int nodeId;
  private final List<String> handlerTypes = new ArrayList<>();
  private volatile HostedPartitions partitions = new HostedPartitions(List.of());
  private volatile CommandLimiters commandLimiters;
  private ExportingState exporting;
  private LeaderDirectory leaders;
  private CommandResponseRouter router;
  private BackupScheduler backupScheduler;

  NodeProcessing(Parts parts) {
    this.parts = parts;
    this.nodeId = parts.info().nodeId();
  }

  /**
   * Starts the actors, opens and starts the partitions and registers the request handlers.
   *
   * @return completes once every partition's actor and raft member run; fails with an {@link
   *     IllegalStateException} naming the part that could not start (call {@link #closeAsync()}
   *     then, to close what started)
   */
  CompletableFuture<Void> start() {
    BrokerConfig config = parts.config();
    BrokerConfig.Processing processing = config.processing();
    ActorScheduler scheduler = parts.scheduler();
    exporting = ExportingState.open(parts.dataDirectory());
    exporting.registerGauge(parts.registry(), nodeId);
    Duration requestTimeout = config.network().requestTimeout();
    leaders =
        new LeaderDirectory(
            nodeId,
            config.cluster().members().keySet(),
            parts.transport(),
            processing.topologyRefreshInterval(),
            requestTimeout);
    router =
        new CommandResponseRouter(
            nodeId,
            parts.clock().millis() << 20,
            processing.maxInFlightCommands(),
            processing.commandTimeout(),
            parts.clock(),
            this::stillLeads,
            parts.apiMetrics());
    return named(scheduler.start(leaders), "the leader directory")
        .thenCompose(started -> named(scheduler.start(router), "the command response router"))
        .thenCompose(started -> startPartitions(requestTimeout))
        .thenCompose(commands -> startBackupSchedule(commands, requestTimeout));
  }

  private CompletableFuture<CommandRequestHandler> startPartitions(Duration requestTimeout) {
    BrokerConfig config = parts.config();
    InterPartitionMetrics interPartitionMetrics =
        new InterPartitionMetrics(parts.registry(), nodeId);
    TransportInterPartitionSender sender =
        new TransportInterPartitionSender(
            nodeId,
            parts.transport(),
            leaders,
            parts.executors().api(),
            requestTimeout,
            interPartitionMetrics);
    partitions =
        new HostedPartitions(
            new PartitionAssembler(parts, exporting, router)
                .open(sender, parts.backupStore().store()));
    leaders.hosted(partitions);
    sender.hosted(partitions);
    commandLimiters =
        CommandLimiters.open(
            partitions.all().stream().map(HostedPartition::partitionId).toList(),
            config.processing().commandLimit(),
            parts.clock(),
            parts.registry(),
            nodeId);

    BrokerApiMetrics apiMetrics = parts.apiMetrics();
    BrokerInfo info = parts.info();
    register(
        InterPartitionCodec.TYPE,
        new InterPartitionRequestHandler(partitions, leaders, interPartitionMetrics));
    CommandRequestHandler commands =
        new CommandRequestHandler(
            info, partitions, leaders, router, commandLimiters, parts.commandRefusal(), apiMetrics);
    register(ApiDescriptor.TYPE_COMMAND, commands);
    register(
        ApiDescriptor.TYPE_QUERY_ACCOUNT,
        new AccountQueryHandler(info, partitions, leaders, apiMetrics));
    register(ApiDescriptor.TYPE_TOPOLOGY, new TopologyHandler(info, partitions, apiMetrics));
    register(
        ApiDescriptor.TYPE_BACKUP,
        new BackupRequestHandler(
            parts.backupStore().store(), parts.backupStore().unavailableReason(), apiMetrics));
    register(
        ApiDescriptor.TYPE_EXPORTING, new ExportingRequestHandler(nodeId, exporting, apiMetrics));

    List<CompletableFuture<Void>> started = new ArrayList<>();
    for (HostedPartition partition : partitions.all()) {
      started.add(partition.partition().start());
    }
    return named(
            CompletableFuture.allOf(started.toArray(CompletableFuture[]::new)),
            "the partitions "
                + partitions.all().stream().map(HostedPartition::partitionId).toList())
        .thenApply(done -> commands);
  }

  private CompletableFuture<Void> startBackupSchedule(
      CommandRequestHandler commands, Duration requestTimeout) {
    Optional<BackupScheduler> scheduled =
        ScheduledBackups.scheduler(
            parts.config().backup(),
            parts.backupStore().store(),
            parts.info(),
            () -> partitions,
            leaders,
            parts.transport(),
            commands,
            requestTimeout,
            parts.registry());
    CompletableFuture<Void> started = CompletableFuture.completedFuture(null);
    if (scheduled.isPresent()) {
      backupScheduler = scheduled.get();
      started = named(parts.scheduler().start(backupScheduler), "the backup scheduler");
    }
    return started.thenRun(
        () ->
            register(
                ApiDescriptor.TYPE_BACKUP_SCHEDULE,
                new BackupScheduleHandler(nodeId, scheduled, leaders, parts.apiMetrics())));
  }

  private void register(String type, MessagingService.RequestHandler handler) {
    parts.transport().registerRequestHandler(type, handler, parts.executors().api());
    handlerTypes.add(type);
  }

  private boolean stillLeads(int partitionId, long term) {
    return partitions
        .get(partitionId)
        .map(partition -> partition.isLeader() && partition.term() == term)
        .orElse(false);
  }

  /** A future that fails with an {@link IllegalStateException} naming {@code what}. */
  private <T> CompletableFuture<T> named(CompletableFuture<T> future, String what) {
    return future.handle(
        (value, failure) -> {
          if (failure != null) {
            Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause()
                    : failure;
            throw new IllegalStateException(
                "Expected " + what + " to start, but it failed (node " + nodeId + ")", cause);
          }
          return value;
        });
  }

  // ---- accessors -----------------------------------------------------------------------------

  /** The partitions this node hosts (empty until {@link #start()} opened them). */
  HostedPartitions partitions() {
    return partitions;
  }

  /** The limit of client commands in flight on {@code partitionId}, if this node hosts it. */
  Optional<CommandLimiter> commandLimiter(int partitionId) {
    CommandLimiters limiters = commandLimiters;
    return limiters == null ? Optional.empty() : limiters.of(partitionId);
  }

  /** Refuses new client commands; those in flight are still answered. */
  void refuseNewCommands() {
    if (router != null) {
      router.refuseNewCommands();
    }
  }

  /** Waits up to {@code timeout} for the client commands in flight to be answered. */
  void awaitDrained(Duration timeout) {
    if (router != null) {
      router.awaitDrained(timeout);
    }
  }

  // ---- shutdown ------------------------------------------------------------------------------

  /**
   * Closes in reverse order of starting: the request handlers, the backup scheduler, the partitions
   * (each finishes its batch and flushes its journal), the router, the leader directory. Every step
   * runs even if an earlier one failed; the future fails with the first failure.
   */
  CompletableFuture<Void> closeAsync() {
    for (String type : handlerTypes) {
      parts.transport().unregisterHandler(type);
    }
    handlerTypes.clear();
    List<Throwable> failures = new ArrayList<>();
    return step(closeActor(backupScheduler), failures)
        .thenCompose(done -> step(closePartitions(), failures))
        .thenCompose(done -> step(closeActor(router), failures))
        .thenCompose(done -> step(closeActor(leaders), failures))
        .thenRun(
            () -> {
              if (!failures.isEmpty()) {
                IllegalStateException failed =
                    new IllegalStateException(
                        "Expected node " + nodeId + "'s processing to close, but a part failed",
                        failures.get(0));
                failures.stream().skip(1).forEach(failed::addSuppressed);
                throw failed;
              }
            });
  }

  private static CompletableFuture<Void> step(
      CompletableFuture<Void> closing, List<Throwable> failures) {
    return closing.handle(
        (done, failure) -> {
          if (failure != null) {
            failures.add(failure);
          }
          return null;
        });
  }

  private static CompletableFuture<Void> closeActor(Actor actor) {
    return actor == null || actor.isClosed()
        ? CompletableFuture.completedFuture(null)
        : actor.closeAsync();
  }

  private CompletableFuture<Void> closePartitions() {
    List<CompletableFuture<Void>> closing = new ArrayList<>();
    for (HostedPartition partition : partitions.all()) {
      closing.add(partition.partition().closeAsync());
    }
    return CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new));
  }
}
