package io.cairn.broker.partition;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.journal.JournalFiles;
import io.cairn.journal.SegmentedJournal;
import io.cairn.logstreams.LogStream;
import io.cairn.logstreams.raft.RaftLogStream;
import io.cairn.raft.RaftRole;
import io.cairn.raft.RaftServer;
import io.cairn.raft.storage.FileRaftMetaStore;
import io.cairn.scheduler.ActorScheduler;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.streamprocessor.CommandResponseWriter;
import io.cairn.streamprocessor.ProcessingPositions;
import io.cairn.streamprocessor.StreamProcessorColumnFamily;
import io.cairn.transport.MessagingService;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * One partition on one broker: everything the broker builds per hosted partition.
 *
 * <pre>
 *   MessagingService ──▶ RaftServer ──▶ SegmentedJournal          (layout.journal())
 *                          │   ├─ FileRaftMetaStore                (layout.raftMetaFile())
 *                          │   └─ RaftSnapshotStoreAdapter ─▶ SnapshotStore (layout.snapshots())
 *                          ▼
 *                      RaftLogStream ──▶ StreamProcessor (LEADER | FOLLOWER) ──▶ CairnDb (layout.runtime())
 *                                          ├─ SnapshotDirector (periodic, on demand) ─▶ compaction
 *                                          └─ components: processors, appliers, interceptors,
 *                                             leader-only parts (engine, checkpoints, backups)
 * </pre>
 *
 * <p>{@link #start()} starts the partition's actor and the raft member; from then on the partition
 * follows raft's role on its own (see {@link PartitionRole} and {@code PartitionActor}): a FOLLOWER
 * stream processor replays, a LEADER one processes, and the state is rebuilt from the newest
 * snapshot whenever it can no longer be trusted (at start, after leadership is lost, after raft
 * installed a snapshot). {@link #closeAsync()} stops everything and closes every file.
 *
 * <p>The partition reads no configuration itself: it gets a validated {@link PartitionConfig}.
 * Thread-safety: every method may be called from any thread.
 */
public final class Partition {

  private final int partitionId;
  private final int nodeId;
  private final List<Integer> members;
  private final PartitionLayout layout;
  private final SegmentedJournal journal;
  private final FileRaftMetaStore metaStore;
  private final SnapshotStore snapshotStore;
  private final RaftSnapshotStoreAdapter raftSnapshots;
  private final RaftServer raft;
  private final RaftLogStream logStream;
  private final PartitionContext context;
  private final PartitionMetrics metrics;
  private final PartitionActor actor;
  private final List<PartitionComponent> components;
  private final ActorScheduler scheduler;
  private final Object lifecycleLock = new Object();
  private boolean started;
  private CompletableFuture<Void> closeFuture;

  private Partition(Builder builder) {
    partitionId = builder.partitionId;
    nodeId = builder.nodeId;
    members = List.copyOf(builder.members);
    layout = builder.layout;
    scheduler = builder.scheduler;
    PartitionConfig config = builder.config;
    MeterRegistry registry = builder.registry;
    Tags tags =
        Tags.of("partition", Integer.toString(partitionId), "node", Integer.toString(nodeId));
    try {
      Files.createDirectories(layout.directory());
      Files.createDirectories(layout.raftMetaFile().getParent());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Expected to create the directories of partition "
              + partitionId
              + " in "
              + layout.directory()
              + ", but it failed",
          e);
    }
    journal =
        SegmentedJournal.open(
            config.journalConfig(layout, partitionId, builder.journalFiles),
            tagged(registry, tags));
    SnapshotStore openedStore = null;
    try {
      openedStore =
          SnapshotStore.open(
              layout.snapshots(), config.snapshot(), scheduler.clock(), registry, tags);
      snapshotStore = openedStore;
      metaStore = new FileRaftMetaStore(layout.raftMetaFile());
      raftSnapshots = new RaftSnapshotStoreAdapter(snapshotStore);
      raft =
          RaftServer.builder()
              .partitionId(partitionId)
              .localNodeId(nodeId)
              .members(members)
              .preferredLeader(builder.preferredLeader)
              .config(config.raft())
              .journal(journal)
              .metaStore(metaStore)
              .snapshotStore(raftSnapshots)
              .messagingService(builder.messaging)
              .random(builder.random)
              .meterRegistry(registry)
              .flushExecutor(builder.flushExecutor)
              .build();
      logStream =
          RaftLogStream.open(raft, journal, scheduler.clock(), config.logStream(), registry);
    } catch (RuntimeException e) {
      if (openedStore != null) {
        openedStore.close();
      }
      journal.close();
      throw e;
    }
    context =
        new PartitionContext(
            partitionId,
            nodeId,
            members,
            layout,
            logStream,
            journal,
            snapshotStore,
            builder.messaging,
            scheduler,
            scheduler.clock(),
            builder.ioExecutor,
            registry,
            builder.brokerVersion);
    metrics = new PartitionMetrics(registry, partitionId, nodeId);
    components = builder.components;
    actor =
        new PartitionActor(
            context,
            raft,
            config,
            layout,
            builder.components,
            builder.families,
            builder.responseWriter,
            metrics,
            builder.exportedPositions);
    actor.listenTo(raft);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Journal meters carry no tags of their own; a composite view adds {@code partition} and {@code
   * node} so that the journals of several partitions can share one registry.
   */
  private static MeterRegistry tagged(MeterRegistry registry, Tags tags) {
    CompositeMeterRegistry view = new CompositeMeterRegistry(registry.config().clock());
    view.config().commonTags(tags);
    view.add(registry);
    return view;
  }

  private static List<ColumnFamilyDefinition> families(List<PartitionComponent> components) {
    List<ColumnFamilyDefinition> families = new ArrayList<>(StreamProcessorColumnFamily.all());
    Set<String> names = new HashSet<>();
    families.forEach(family -> names.add(family.name()));
    for (PartitionComponent component : components) {
      for (ColumnFamilyDefinition family : component.columnFamilies()) {
        if (!names.add(family.name())) {
          throw new IllegalArgumentException(
              "Expected distinct column family names, but '"
                  + family.name()
                  + "' of component '"
                  + component.name()
                  + "' is registered already");
        }
        families.add(family);
      }
    }
    return List.copyOf(families);
  }

  /**
   * Starts the partition's actor, then the raft member. Completes once both run; the partition then
   * takes the role raft gives it (watch {@link #role()}).
   */
  public CompletableFuture<Void> start() {
    synchronized (lifecycleLock) {
      if (closeFuture != null) {
        return CompletableFuture.failedFuture(
            new IllegalStateException(
                "Expected an open partition to start, but it is closed (partition "
                    + partitionId
                    + " on node "
                    + nodeId
                    + ")"));
      }
      started = true;
    }
    return scheduler.start(actor).thenCompose(ignored -> scheduler.start(raft));
  }

  /**
   * Stops the stream processor, the components and the raft member, and closes the state, the log
   * stream, the snapshot store and the journal. Idempotent.
   */
  public CompletableFuture<Void> closeAsync() {
    synchronized (lifecycleLock) {
      if (closeFuture == null) {
        CompletableFuture<Void> stopped =
            started ? actor.shutdown() : CompletableFuture.completedFuture(null);
        closeFuture =
            stopped
                .handle((ignored, error) -> null)
                .thenCompose(
                    ignored -> {
                      logStream.close();
                      return raft.closeAsync();
                    })
                .thenCompose(ignored -> actor.closeAsync())
                .whenComplete(
                    (ignored, error) -> {
                      raftSnapshots.close();
                      snapshotStore.close();
                      journal.close();
                      metaStore.close();
                      metrics.close();
                    });
      }
      return closeFuture;
    }
  }

  public int partitionId() {
    return partitionId;
  }

  public int nodeId() {
    return nodeId;
  }

  /** The brokers hosting this partition (its raft group). */
  public List<Integer> members() {
    return members;
  }

  public PartitionLayout layout() {
    return layout;
  }

  /** What the partition runs now. */
  public PartitionRole role() {
    return actor.role();
  }

  /** The raft term in which the current role was taken. */
  public long term() {
    return actor.roleTerm();
  }

  /** The raft member's own role (it changes before the partition follows). */
  public RaftRole raftRole() {
    return raft.role();
  }

  public long raftTerm() {
    return raft.term();
  }

  /** The index up to which this member's log is flushed: what a power loss cannot take. */
  public long durableIndex() {
    return raft.flushedIndex();
  }

  /** The index of this member's last log entry, flushed or not. */
  public long lastLogIndex() {
    return raft.lastIndex();
  }

  /** The leader this member knows of, or -1. */
  public int leaderId() {
    return raft.leaderId();
  }

  /** The partition's health; a healthy one is UNHEALTHY while a component reports a problem. */
  public PartitionHealthReport health() {
    PartitionHealthReport report = actor.health();
    if (report.isHealthy()) {
      for (PartitionComponent component : components) {
        String problem = component.healthProblem();
        if (!problem.isEmpty()) {
          return new PartitionHealthReport(
              report.partitionId(),
              report.nodeId(),
              PartitionHealthStatus.UNHEALTHY,
              component.name() + ": " + problem);
        }
      }
    }
    return report;
  }

  /** Adds a listener told of every later health change, on the partition's thread. */
  public void addHealthListener(PartitionHealthListener listener) {
    actor.addHealthListener(Objects.requireNonNull(listener, "listener"));
  }

  public void removeHealthListener(PartitionHealthListener listener) {
    actor.removeHealthListener(listener);
  }

  /**
   * The partition's log. Its {@link LogStream#writer()} writes while this member leads (client
   * commands, inter-partition commands); anything else answers {@code NotLeader}.
   */
  public LogStream logStream() {
    return logStream;
  }

  /** What components get: the log, the journal (read only), the snapshot store, executors. */
  public PartitionContext context() {
    return context;
  }

  public SnapshotStore snapshotStore() {
    return snapshotStore;
  }

  /**
   * Takes a snapshot of the state now (and compacts the log after it). Completes with the persisted
   * snapshot, or empty when nothing was processed since the newest one; fails while no stream
   * processor runs (a transition is in progress) or when taking it failed.
   */
  public CompletableFuture<Optional<PersistedSnapshot>> takeSnapshot() {
    return actor.takeSnapshot();
  }

  /**
   * Runs {@code reader} over the state, on the stream processor's thread between two of its turns
   * (so it sees a committed state). Fails while no stream processor runs.
   */
  public <T> CompletableFuture<T> readState(Function<CairnDb, T> reader) {
    return actor.readState(Objects.requireNonNull(reader, "reader"));
  }

  /**
   * Reads the leader's state once it processes commands; fails while it still replays the log (its
   * state would miss committed effects) or does not lead.
   */
  public <T> CompletableFuture<T> readProcessedState(Function<CairnDb, T> reader) {
    return actor.readProcessedState(Objects.requireNonNull(reader, "reader"));
  }

  /** The state's positions and digest, read together. */
  public CompletableFuture<StateSummary> stateSummary() {
    return readState(
        db -> {
          ProcessingPositions positions = new ProcessingPositions(db);
          return new StateSummary(
              positions.lastProcessedPosition(), positions.lastWrittenPosition(), db.stateDigest());
        });
  }

  @Override
  public String toString() {
    return "Partition{"
        + partitionId
        + " on node "
        + nodeId
        + ", "
        + role()
        + ", term "
        + term()
        + "}";
  }

  /** Collects what a partition needs; every setting is required unless it has a default. */
  public static final class Builder {
    private int partitionId = -1;
    private int nodeId = -1;
    private List<Integer> members;
    private int preferredLeader = -1;
    private PartitionLayout layout;
    private PartitionConfig config = PartitionConfig.defaults();
    private MessagingService messaging;
    private ActorScheduler scheduler;
    private Executor ioExecutor;
    private Executor flushExecutor;
    private JournalFiles journalFiles = JournalFiles.REAL;
    private RandomGenerator random;
    private List<PartitionComponent> components = List.of();
    private CommandResponseWriter responseWriter = CommandResponseWriter.NONE;
    private MeterRegistry registry;
    private String brokerVersion;
    private List<ColumnFamilyDefinition> families;
    private ExportedPositionSource exportedPositions;

    private Builder() {}

    public Builder partitionId(int value) {
      partitionId = value;
      return this;
    }

    public Builder nodeId(int value) {
      nodeId = value;
      return this;
    }

    /** The raft group: the brokers that host the partition, this one included. */
    public Builder members(List<Integer> value) {
      members = List.copyOf(value);
      return this;
    }

    /**
     * The member that should lead the raft group whenever it is caught up (leadership goes back to
     * it after a restart); -1 (the default) for none.
     */
    public Builder preferredLeader(int value) {
      preferredLeader = value;
      return this;
    }

    /** Where the files live; see {@link PartitionLayout#of}. */
    public Builder layout(PartitionLayout value) {
      layout = value;
      return this;
    }

    /** {@link PartitionConfig#defaults()} by default. */
    public Builder config(PartitionConfig value) {
      config = value;
      return this;
    }

    /** Raft messages go through it (type {@code raft-<partitionId>}). */
    public Builder messagingService(MessagingService value) {
      messaging = value;
      return this;
    }

    /** Runs the partition's actors (its own, raft, stream processors); its clock is the clock. */
    public Builder scheduler(ActorScheduler value) {
      scheduler = value;
      return this;
    }

    /** Where the raft member's journal fsyncs run (off the actor threads). */
    public Builder flushExecutor(Executor value) {
      flushExecutor = value;
      return this;
    }

    /** How the journal opens the files it writes: {@link JournalFiles#REAL} by default. */
    public Builder journalFiles(JournalFiles value) {
      journalFiles = Objects.requireNonNull(value, "journalFiles");
      return this;
    }

    /**
     * Runs blocking work: recovering state from a snapshot, persisting snapshots. A bounded
     * executor in a broker; the deterministic scheduler's {@code executor()} in tests.
     */
    public Builder ioExecutor(Executor value) {
      ioExecutor = value;
      return this;
    }

    /** Election timeouts; seed it per member so that runs can be reproduced. */
    public Builder random(RandomGenerator value) {
      random = value;
      return this;
    }

    /** What plugs into processing (engine, checkpoints, backups), in registration order. */
    public Builder components(List<? extends PartitionComponent> value) {
      components = List.copyOf(value);
      return this;
    }

    /**
     * Where the partition's exporters stand in its state (recorded in snapshots, and the bound of
     * log compaction); none by default: no exporters, snapshots record the processed position.
     */
    public Builder exportedPositions(ExportedPositionSource value) {
      exportedPositions = value;
      return this;
    }

    /** Where a leader's command responses go; {@link CommandResponseWriter#NONE} by default. */
    public Builder responseWriter(CommandResponseWriter value) {
      responseWriter = value;
      return this;
    }

    public Builder meterRegistry(MeterRegistry value) {
      registry = value;
      return this;
    }

    /** Recorded in snapshots (and backups). */
    public Builder brokerVersion(String value) {
      brokerVersion = value;
      return this;
    }

    /**
     * Opens the partition's files (journal, snapshot store, meta file) and assembles it; nothing
     * runs before {@link Partition#start()}.
     *
     * @throws IllegalArgumentException naming a missing or invalid setting
     */
    public Partition open() {
      List<String> violations = new ArrayList<>();
      if (partitionId < 1) {
        violations.add("Expected partitionId >= 1, but was " + partitionId);
      }
      if (nodeId < 0) {
        violations.add("Expected nodeId >= 0, but was " + nodeId);
      }
      if (members == null || !members.contains(nodeId)) {
        violations.add("Expected members to contain nodeId " + nodeId + ", but was " + members);
      }
      require(violations, layout, "layout");
      require(violations, config, "config");
      require(violations, messaging, "messagingService");
      require(violations, scheduler, "scheduler");
      require(violations, ioExecutor, "ioExecutor");
      require(violations, flushExecutor, "flushExecutor");
      require(violations, random, "random");
      require(violations, responseWriter, "responseWriter");
      require(violations, registry, "meterRegistry");
      require(violations, brokerVersion, "brokerVersion");
      if (components != null) {
        try {
          families = families(components);
        } catch (IllegalArgumentException e) {
          violations.add(e.getMessage());
        }
      }
      if (!violations.isEmpty()) {
        throw new IllegalArgumentException(
            String.join("; ", violations)
                + " (partition "
                + partitionId
                + " on node "
                + nodeId
                + ")");
      }
      return new Partition(this);
    }

    private static void require(List<String> violations, Object value, String name) {
      if (value == null) {
        violations.add("Expected " + name + " to be set, but it is missing");
      }
    }
  }
}
