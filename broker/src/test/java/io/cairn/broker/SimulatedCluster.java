package io.cairn.broker;

import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.backupstore.ObjectLayer;
import io.cairn.backuptestkit.FaultyObjectLayer;
import io.cairn.backuptestkit.InMemoryBackupStore;
import io.cairn.broker.api.BrokerApiMetrics;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.engine.CheckpointIdSupplier;
import io.cairn.protocol.Record;
import io.cairn.protocol.api.AccountBalance;
import io.cairn.protocol.api.AccountQuery;
import io.cairn.protocol.api.AccountQueryCodec;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.CommandCodec;
import io.cairn.protocol.api.CommandRequest;
import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.cairn.transport.MessagingService;
import io.cairn.transport.sim.SimNetwork;
import io.cairn.transport.sim.SimTesting;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

/**
 * Whole nodes on one thread: each node's {@link NodeProcessing} — partitions with the real raft,
 * stream processor, ledger engine, checkpoints, snapshots, backup manager and log archive, the
 * backup schedule with markers and retention, inter-partition commands, the request handlers — on
 * one {@link DeterministicScheduler} with simulated time, over a {@link SimNetwork}, backing up to
 * one set of bytes through {@link InMemoryBackupStore}s (one per start of a node, taking no calls
 * from it once it crashed) that answer up to 200 ms late (or, while the store is slow, 1 to 5 s)
 * and fail as their {@link FaultyObjectLayer}s are told. Seeded: the same seed runs the same way.
 *
 * <p>A node can be crashed (its endpoint cut off, its processing closed), or lose power (crashed,
 * then its journals lose part of what they had not flushed), and started again on its directory.
 * The disk under its journals ({@link SimulatedDisk}) can fill up or fail its fsyncs; its raft
 * members then fail, and the node is stopped as a power loss would stop it and given a sound disk.
 * A client endpoint talks to the nodes as the gateway does: commands and account queries, each sent
 * to one node.
 */
final class SimulatedCluster implements AutoCloseable {

  static final int CLIENT = 99;
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);

  /**
   * When a cluster's simulated time starts by default (an epoch millisecond, as backup ids are).
   */
  static final long START_MILLIS = 1_700_000_000_000L;

  final SimClock clock;
  final DeterministicScheduler scheduler;
  final SimNetwork network;
  final InMemoryBackupStore.Storage storage = new InMemoryBackupStore.Storage();
  final BackupStore store;
  final long seed;
  private final Path directory;
  private final Map<Integer, BrokerConfig> configs = new TreeMap<>();
  private final Map<Integer, NodeProcessing> running = new TreeMap<>();
  private final Map<Integer, SimulatedDisk> disks = new TreeMap<>();
  private final NodeProcessing.Safeguards safeguards;
  private final boolean stampsCheckpoints;
  private final List<FaultyObjectLayer> layers = new ArrayList<>();
  private final Map<Integer, AtomicBoolean> alive = new TreeMap<>();
  private final SplittableRandom delays;
  private final boolean overwritesArchiveObjects;
  private FaultyObjectLayer.FaultPlan storePlan = FaultyObjectLayer.FaultPlan.NONE;
  private boolean slowStore;

  /** What a cluster is made of; {@link #build()} starts it. */
  static final class Builder {
    private final Path directory;
    private final long seed;
    private int nodes = 3;
    private int partitions = 3;
    private Map<String, String> settings = Map.of();
    private long startMillis = START_MILLIS;
    private NodeProcessing.Safeguards safeguards = NodeProcessing.Safeguards.ON;
    private boolean stampsCheckpoints = true;
    private boolean arbitratesArchiveWrites = true;

    private Builder(Path directory, long seed) {
      this.directory = directory;
      this.seed = seed;
    }

    Builder nodes(int value) {
      nodes = value;
      return this;
    }

    /** Also the replication factor: every node hosts every partition. */
    Builder partitions(int value) {
      partitions = value;
      return this;
    }

    /** Broker settings over the test tuning (dotted keys). */
    Builder settings(Map<String, String> value) {
      settings = Map.copyOf(value);
      return this;
    }

    /** When simulated time starts (epoch milliseconds). */
    Builder startMillis(long value) {
      startMillis = value;
      return this;
    }

    /** No checkpoint id on inter-partition commands: the cut is no longer consistent. */
    Builder withoutCheckpointStamps() {
      safeguards = safeguards.withCheckpointStamps(db -> CheckpointIdSupplier.NONE);
      stampsCheckpoints = false;
      return this;
    }

    /**
     * Backups do not reserve their snapshot ({@link UnreservedSnapshots}): a newer snapshot may
     * delete its files before the backup read them.
     */
    Builder withoutSnapshotReservation() {
      safeguards = safeguards.withBackupSnapshots(UnreservedSnapshots::new);
      return this;
    }

    /**
     * Backups and the log archive hold no log from compaction ({@link UnheldCompaction}): a
     * snapshot may compact segments a backup still has to read, or records not archived yet.
     */
    Builder withoutCompactionHolds() {
      safeguards = safeguards.withBackupSnapshots(UnheldCompaction::new);
      return this;
    }

    /**
     * The store writes an archive link over one that exists ({@link
     * FaultyObjectLayer#overwriteArchiveObjects()}): two leaders continuing the archive from one
     * tail both believe they wrote the next link, and the chain forks.
     */
    Builder withoutArchiveArbitration() {
      arbitratesArchiveWrites = false;
      return this;
    }

    SimulatedCluster build() {
      return new SimulatedCluster(this);
    }
  }

  /**
   * A cluster whose nodes keep their data in {@code directory/node-<id>}: empty, new nodes;
   * restored there, they start from it.
   */
  static Builder builder(Path directory, long seed) {
    return new Builder(directory, seed);
  }

  private SimulatedCluster(Builder builder) {
    this.clock = new SimClock(builder.startMillis);
    this.scheduler = new DeterministicScheduler(clock);
    this.directory = builder.directory;
    this.seed = builder.seed;
    this.safeguards = builder.safeguards;
    this.stampsCheckpoints = builder.stampsCheckpoints;
    int nodes = builder.nodes;
    int partitions = builder.partitions;
    Map<String, String> settings = builder.settings;
    network = new SimNetwork(scheduler, seed);
    delays = new SplittableRandom(seed ^ 0x5EED);
    overwritesArchiveObjects = !builder.arbitratesArchiveWrites;
    store = storeFor(new AtomicBoolean(true));
    BrokerTestCluster.Builder shape =
        BrokerTestCluster.builder(directory)
            .brokers(nodes)
            .partitions(partitions)
            .replicationFactor(nodes)
            .clusterId("simulated")
            // the store is the in-memory one above; this only makes the settings a store's
            .backupStore(directory.resolve("unused-fs-store"));
    settings.forEach(shape::setting);
    for (int id = 0; id < nodes; id++) {
      configs.put(id, shape.config(id));
      disks.put(id, new SimulatedDisk());
      network.endpoint(id);
    }
    network.endpoint(CLIENT);
    for (int id : configs.keySet()) {
      start(id, network.endpoint(id));
    }
  }

  /** False when built {@link Builder#withoutCheckpointStamps()}. */
  boolean stampsCheckpoints() {
    return stampsCheckpoints;
  }

  /** The faults of every node's store, from now on. */
  void storeFaults(FaultyObjectLayer.FaultPlan plan) {
    storePlan = plan;
    layers.forEach(layer -> layer.plan(plan));
  }

  /**
   * A store on the shared bytes whose calls answer late and fail as {@link #storeFaults} says. A
   * node gets its own for each start: a call it makes once it crashed is dropped, as a process that
   * died makes no more calls, and so is one it made before that had not run yet when it crashed (a
   * call here is a whole operation, an upload reading its files as it goes, and a process that died
   * reads no more), so an upload a crashed node had waiting does not go on reading files its
   * restarted self owns. A call that ran before the crash has landed.
   */
  private BackupStore storeFor(AtomicBoolean alive) {
    Executor late =
        task -> {
          if (alive.get()) {
            scheduler.schedule(
                storeDelay(delays),
                () -> {
                  if (alive.get()) {
                    task.run();
                  }
                });
          }
        };
    UnaryOperator<ObjectLayer> faulty =
        objects -> {
          FaultyObjectLayer layer = new FaultyObjectLayer(objects);
          layer.plan(storePlan);
          if (overwritesArchiveObjects) {
            layer.overwriteArchiveObjects();
          }
          layers.add(layer);
          return layer;
        };
    return new InMemoryBackupStore(
        storage, CompressionPolicy.none(), BackupEncryption.off(), clock, late, faulty);
  }

  /**
   * Makes one store call in eight take 1 to 5 s while {@code on}, as a store that is overloaded
   * does: an upload then outlasts snapshots, so a backup's snapshot must stay reserved through it.
   */
  void slowStore(boolean on) {
    slowStore = on;
  }

  /** Up to 200 ms; while the store is slow, one call in eight 1 to 5 s. */
  private Duration storeDelay(SplittableRandom delays) {
    if (slowStore && delays.nextInt(8) == 0) {
      return Duration.ofMillis(1_000 + delays.nextInt(4_000));
    }
    return Duration.ofMillis(delays.nextInt(200));
  }

  List<Integer> nodeIds() {
    return List.copyOf(configs.keySet());
  }

  boolean isRunning(int nodeId) {
    return running.containsKey(nodeId);
  }

  Map<Integer, NodeProcessing> running() {
    return running;
  }

  private void start(int id, MessagingService transport) {
    BrokerConfig config = configs.get(id);
    AtomicBoolean incarnation = new AtomicBoolean(true);
    alive.put(id, incarnation);
    BackupStore nodeStore = storeFor(incarnation);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Executor executor = scheduler.executor();
    NodeProcessing processing =
        new NodeProcessing(
            new NodeProcessing.Parts(
                config,
                new BrokerInfo(
                    id,
                    config.cluster().clusterId(),
                    BrokerVersion.current(),
                    config.cluster().partitionCount(),
                    config.cluster().replicationFactor()),
                config.data().directory().toAbsolutePath(),
                clock,
                transport,
                scheduler,
                Optional.empty(),
                new NodeProcessing.Executors(executor, executor, executor, executor),
                new BackupStores.Opened(Optional.of(nodeStore), ""),
                registry,
                new BrokerApiMetrics(registry, id),
                Optional::empty,
                disks.get(id),
                safeguards));
    running.put(id, processing);
    await(processing.start(), "start of node " + id);
  }

  /**
   * Cuts node {@code id} off the network at once and closes its processing (its files stay). A
   * close that fails only because the node's disk fails is a crash all the same.
   */
  void crash(int id) {
    network.crash(id);
    NodeProcessing processing = running.remove(id);
    try {
      await(processing.closeAsync(), "close of node " + id);
      alive.get(id).set(false);
    } catch (RuntimeException e) {
      alive.get(id).set(false);
      // a journal on a failing disk cannot flush as it closes: the close says so, and the rest
      // of the node still closes; any other failure is the node's
      if (disks.get(id).state() == SimulatedDisk.State.SOUND || !causedByInjectedFault(e)) {
        throw e;
      }
    }
  }

  private static boolean causedByInjectedFault(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (String.valueOf(cause.getMessage()).contains("Injected: ")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Cuts node {@code id} off and stops it as a power loss would, once one of its journals holds
   * entries not flushed yet: of those, the disk kept a random part ({@link PowerLoss}).
   *
   * @return what was lost, a line per partition
   */
  List<String> powerLoss(int id, SplittableRandom dice) {
    // the power goes while an append waits for its flush, if one does within 5,000 tasks
    for (int task = 0; task < 5_000 && !hasUnflushed(id) && scheduler.runNext(); task++) {
      // run on
    }
    return stopAndTear(id, dice);
  }

  /** The disk under node {@code id}'s journals, which the nemesis may fill or make fail. */
  SimulatedDisk disk(int id) {
    return disks.get(id);
  }

  /**
   * Stops node {@code id}, whose journal disk failed, as a power loss would (after a failed write
   * or fsync, what was not flushed may or may not be on the disk) and makes its disk sound again:
   * what an operator does with a broker whose partitions failed on a full or broken disk.
   *
   * @return what was lost, a line per partition
   */
  List<String> replaceDisk(int id, SplittableRandom dice) {
    List<String> lost = stopAndTear(id, dice);
    disks.get(id).state(SimulatedDisk.State.SOUND);
    return lost;
  }

  private List<String> stopAndTear(int id, SplittableRandom dice) {
    Map<Integer, Long> flushed = new TreeMap<>();
    for (HostedPartition hosted : running.get(id).partitions().all()) {
      flushed.put(hosted.partitionId(), hosted.partition().durableIndex());
    }
    crash(id);
    BrokerConfig config = configs.get(id);
    return PowerLoss.tear(
        config.data().directory().toAbsolutePath(),
        flushed,
        (int) config.data().segmentSizeBytes(),
        dice);
  }

  private boolean hasUnflushed(int id) {
    return running.get(id).partitions().all().stream()
        .anyMatch(h -> h.partition().lastLogIndex() > h.partition().durableIndex());
  }

  /** Where each running member's log starts: above 1, compaction (or a snapshot) cut it. */
  Map<String, Long> logStarts() {
    Map<String, Long> starts = new TreeMap<>();
    running.forEach(
        (node, processing) -> {
          for (HostedPartition hosted : processing.partitions().all()) {
            starts.put(
                "node " + node + " partition " + hosted.partitionId(),
                hosted.partition().context().journal().getFirstIndex());
          }
        });
    return starts;
  }

  /** Starts node {@code id} again on its directory, with a fresh endpoint. */
  void restart(int id) {
    start(id, network.restart(id));
  }

  /**
   * Runs every task left, once no node runs: the store's calls still in flight (some behind a
   * retry's back-off) land, as a crashed process's requests may still reach a store.
   */
  void runOut() {
    for (int task = 0; task < 1_000_000 && scheduler.runNext(); task++) {
      // run on
    }
  }

  void run(Duration duration) {
    scheduler.runFor(duration);
  }

  /**
   * Runs in 10 ms steps until {@code condition} holds; fails naming the seed after {@code bound}.
   */
  void runUntil(BooleanSupplier condition, Duration bound, String what) {
    long deadline = clock.millis() + bound.toMillis();
    while (!condition.getAsBoolean()) {
      if (clock.millis() >= deadline) {
        throw new AssertionError(
            "Expected " + what + " within " + bound + " of simulated time (seed " + seed + ")");
      }
      scheduler.runFor(Duration.ofMillis(10));
    }
  }

  <T> T await(CompletableFuture<T> future, String what) {
    return SimTesting.runUntilDone(scheduler, future, 5_000_000, what + ", seed " + seed);
  }

  /** Sends {@code command} for {@code partitionId} to node {@code nodeId}, as the gateway does. */
  CompletableFuture<ApiResponse<Record>> command(int nodeId, int partitionId, Record command) {
    return network
        .endpoint(CLIENT)
        .sendAndReceive(
            nodeId,
            ApiDescriptor.TYPE_COMMAND,
            CommandCodec.encodeRequest(new CommandRequest(partitionId, command)),
            REQUEST_TIMEOUT)
        .thenApply(CommandCodec::decodeResponse);
  }

  /** Asks node {@code nodeId} for an account's balance. */
  CompletableFuture<ApiResponse<AccountBalance>> balance(
      int nodeId, int partitionId, String accountId) {
    return network
        .endpoint(CLIENT)
        .sendAndReceive(
            nodeId,
            ApiDescriptor.TYPE_QUERY_ACCOUNT,
            AccountQueryCodec.encodeRequest(new AccountQuery(partitionId, accountId)),
            REQUEST_TIMEOUT)
        .thenApply(AccountQueryCodec::decodeResponse);
  }

  /** A second store on the same bytes, without faults, answering on the calling thread. */
  InMemoryBackupStore directStore() {
    return new InMemoryBackupStore(
        storage, CompressionPolicy.none(), BackupEncryption.off(), clock, Runnable::run);
  }

  Path directory() {
    return directory;
  }

  @Override
  public void close() {
    for (int id : List.copyOf(running.keySet())) {
      try {
        crash(id);
      } catch (RuntimeException | AssertionError e) {
        // keep closing the others
      }
    }
    runOut();
    store.close();
    scheduler.close();
  }
}
