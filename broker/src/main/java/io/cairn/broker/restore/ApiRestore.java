package io.cairn.broker.restore;

import io.cairn.backup.CheckpointState;
import io.cairn.backupapi.BackupStore;
import io.cairn.broker.HostedPartition;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.broker.partition.PartitionHealthStatus;
import io.cairn.files.DurableFiles;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.NodeRestoreState;
import io.cairn.protocol.api.NodeRestoreState.PartitionRestoreState;
import io.cairn.protocol.api.NodeRestoreState.Phase;
import io.cairn.protocol.api.RestoreCodec;
import io.cairn.protocol.api.RestoreRequest;
import io.cairn.restore.BackupRestorer;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.ClusterShape;
import io.cairn.restore.PartitionPlan;
import io.cairn.restore.PartitionProgress;
import io.cairn.restore.RestoreConfig;
import io.cairn.restore.RestoreException;
import io.cairn.restore.RestoreListener;
import io.cairn.restore.RestorePlan;
import io.cairn.restore.RestoreResult;
import io.cairn.restore.RestoreTarget;
import io.cairn.scheduler.Clock;
import io.cairn.transport.MessagingService;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A restore through the API on one broker started with {@code data.restoreMode} and an empty data
 * directory (DESIGN.md §10, "Restore through the API"). It waits for a request; {@link #start}
 * restores the partitions this broker hosts from the backup store into its data directory ({@link
 * BackupRestorer}, on the executor given), then tells the broker to start them ({@link Starter}).
 * Their leaders check the state digest at the restored checkpoint as after every restore; {@link
 * #state()} reports each partition CHECKING until its state holds that checkpoint (VERIFIED), and
 * the broker COMPLETED once every partition it hosts is VERIFIED. Client commands are refused
 * ({@link #commandRefusal()}) until every broker of the cluster is COMPLETED: the restored broker
 * asks its peers every {@link #CLUSTER_CHECK_INTERVAL}.
 *
 * <p>A failed restore leaves the directory empty (the restorer's promise), so it can be asked
 * again; a restore that runs or ran to the end refuses another. Thread-safe.
 */
public final class ApiRestore {

  /** Starts the broker's partitions once its data directory is restored. */
  @FunctionalInterface
  public interface Starter {
    /**
     * @return the partitions started
     * @throws RuntimeException if they cannot start; the restore is then FAILED with its message
     */
    List<HostedPartition> start(RestoreResult restored);
  }

  /** A request that this broker's state refuses: a restore runs or ran already. */
  public static final class Refused extends RuntimeException {
    Refused(String message) {
      super(message);
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(ApiRestore.class);

  private final RestoreTarget target;
  private final BackupStore store;
  private final Clock clock;
  private final MeterRegistry registry;
  private final Executor executor;
  private final Starter starter;
  private final Peers peers;
  private final Map<Integer, PartitionProgress> progress = new ConcurrentSkipListMap<>();
  private volatile boolean clusterVerified;
  private volatile boolean closed;

  // guarded by this
  private Phase phase = Phase.WAITING;
  private String selection = "";
  private long backupId;
  private long restorePointId;
  private String detail = "";
  private long startedMillis;
  private long finishedMillis;
  private List<HostedPartition> partitions = List.of();
  private CompletableFuture<NodeRestoreState> planned = new CompletableFuture<>();

  /** The brokers of the cluster (this one is skipped), asked how their restores stand. */
  public record Peers(MessagingService transport, Set<Integer> nodeIds, Duration requestTimeout) {
    public Peers {
      Objects.requireNonNull(transport, "transport");
      nodeIds = Set.copyOf(nodeIds);
      Objects.requireNonNull(requestTimeout, "requestTimeout");
    }
  }

  /** How often a restored broker asks whether every broker passed its digest checks. */
  static final Duration CLUSTER_CHECK_INTERVAL = Duration.ofMillis(500);

  /**
   * @param target this broker's data directory, cluster id, node id, shape and version
   * @param executor where the restore runs (it blocks for the restore's length)
   * @param peers the brokers of the cluster
   */
  public ApiRestore(
      RestoreTarget target,
      BackupStore store,
      Clock clock,
      MeterRegistry registry,
      Executor executor,
      Starter starter,
      Peers peers) {
    this.target = Objects.requireNonNull(target, "target");
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.starter = Objects.requireNonNull(starter, "starter");
    this.peers = Objects.requireNonNull(peers, "peers");
  }

  /**
   * Starts the restore {@code request} selects. Completes once the backup (and restore point) is
   * resolved, with the state naming them, or once the restore failed (FAILED, with the reason).
   *
   * @throws Refused when a restore runs or ran to the end on this broker
   */
  public CompletableFuture<NodeRestoreState> start(RestoreRequest request) {
    BackupSelector selector = selector(request);
    CompletableFuture<NodeRestoreState> answer;
    synchronized (this) {
      if (phase != Phase.WAITING && phase != Phase.FAILED) {
        throw new Refused(
            "Expected node "
                + target.nodeId()
                + " to wait for a restore, but it is "
                + phase
                + " ("
                + selection
                + (detail.isEmpty() ? "" : ": " + detail)
                + ")");
      }
      if (phase == Phase.FAILED && !partitions.isEmpty()) {
        throw new Refused(
            "Expected node "
                + target.nodeId()
                + " to wait for a restore, but its data directory was restored and its"
                + " partitions run ("
                + detail
                + "): restart it with an empty data directory to restore again");
      }
      phase = Phase.RESTORING;
      selection = request.describe();
      backupId = 0;
      restorePointId = 0;
      detail = "";
      startedMillis = clock.millis();
      finishedMillis = 0;
      progress.clear();
      planned = new CompletableFuture<>();
      answer = planned;
    }
    LOG.info("Node {} restores {} (requested through the API)", target.nodeId(), selection);
    try {
      executor.execute(() -> run(selector));
    } catch (RejectedExecutionException e) {
      failed("the restore could not be started: " + e.getMessage());
    }
    return answer;
  }

  private static BackupSelector selector(RestoreRequest request) {
    return switch (request.kind()) {
      case LATEST -> BackupSelector.latest();
      case BACKUP_ID -> BackupSelector.exact(request.value());
      case CHECKPOINT_ID -> new BackupSelector.ToCheckpoint(request.value());
      case TIME -> new BackupSelector.ToTime(Instant.ofEpochMilli(request.value()));
      case STATUS -> throw new IllegalArgumentException("Expected a restore to start, not STATUS");
    };
  }

  private void run(BackupSelector selector) {
    RestoreResult result;
    try {
      BackupRestorer restorer =
          BackupRestorer.builder()
              .store(store)
              .config(RestoreConfig.defaults())
              .clock(clock)
              .listener(new Listener())
              .meterRegistry(registry)
              .build();
      result = restorer.restore(target, selector);
    } catch (RestoreException e) {
      // led by the problem, as the command line prints it: the section of the troubleshooting page
      failed(e.problem() + ": " + e.getMessage());
      return;
    } catch (IllegalArgumentException e) {
      failed(e.getMessage());
      return;
    } catch (RuntimeException e) {
      LOG.error("Node {}: the restore through the API failed", target.nodeId(), e);
      failed(e.toString());
      return;
    }
    synchronized (this) {
      backupId = result.backupId();
      restorePointId = result.restorePoint().orElse(0L);
      finishedMillis = clock.millis();
    }
    LOG.info(
        "Node {} restored {} ({} bytes); starting its partitions, whose leaders check the state"
            + " digest at checkpoint {}",
        target.nodeId(),
        selection,
        result.totalBytes(),
        result.checkpointId());
    try {
      List<HostedPartition> started = starter.start(result);
      synchronized (this) {
        partitions = List.copyOf(started);
        phase = Phase.CHECKING;
      }
    } catch (RuntimeException e) {
      LOG.error("Node {}: its restored partitions failed to start", target.nodeId(), e);
      failed("the restored partitions failed to start: " + e.getMessage());
      return;
    }
    scheduleClusterCheck();
  }

  /**
   * Why this broker refuses client commands now: a restored cluster takes none until every broker
   * reports each of its partitions VERIFIED, so that no command is processed on a cluster one of
   * whose partitions may still fail its digest check. Empty once they all did.
   */
  public Optional<String> commandRefusal() {
    if (clusterVerified) {
      return Optional.empty();
    }
    return Optional.of(
        "Expected the restored cluster to take commands, but node "
            + target.nodeId()
            + " waits for every partition's digest check (the restore's state: GET"
            + " /actuator/restore at the gateway)");
  }

  private void scheduleClusterCheck() {
    if (closed) {
      return;
    }
    CompletableFuture.runAsync(
        this::checkCluster,
        CompletableFuture.delayedExecutor(
            CLUSTER_CHECK_INTERVAL.toMillis(), TimeUnit.MILLISECONDS, executor));
  }

  /** Asks this broker's partitions and every peer; opens for commands once all are COMPLETED. */
  private void checkCluster() {
    List<CompletableFuture<Boolean>> done = new ArrayList<>();
    done.add(state().thenApply(own -> own.phase() == Phase.COMPLETED));
    for (int peer : peers.nodeIds()) {
      if (peer == target.nodeId()) {
        continue;
      }
      done.add(
          peers
              .transport()
              .sendAndReceive(
                  peer,
                  ApiDescriptor.TYPE_RESTORE,
                  RestoreCodec.encodeRequest(RestoreRequest.status()),
                  peers.requestTimeout())
              .thenApply(RestoreCodec::decodeResponse)
              // a peer that restarted after its restore holds data and processes: it does not hold
              // the cluster back
              .thenApply(
                  answer ->
                      answer instanceof ApiResponse.Ok<NodeRestoreState> ok
                          && (ok.body().phase() == Phase.COMPLETED
                              || ok.body().phase() == Phase.PROCESSING)));
    }
    CompletableFuture.allOf(done.toArray(CompletableFuture[]::new))
        .handle(
            (ignored, error) -> {
              boolean all = error == null && done.stream().allMatch(CompletableFuture::join);
              if (all) {
                clusterVerified = true;
                LOG.info(
                    "Node {}: every broker of the restored cluster passed its digest checks;"
                        + " client commands are taken",
                    target.nodeId());
              } else if (phaseNow() != Phase.FAILED) {
                scheduleClusterCheck();
              }
              return null;
            });
  }

  private synchronized Phase phaseNow() {
    return phase;
  }

  /** Stops asking the peers (the broker closes). */
  public void close() {
    closed = true;
  }

  private void failed(String reason) {
    CompletableFuture<NodeRestoreState> answer;
    synchronized (this) {
      phase = Phase.FAILED;
      detail = reason == null ? "unknown" : reason;
      answer = planned;
    }
    LOG.warn("Node {}: the restore of {} failed: {}", target.nodeId(), selection, detail);
    answer.complete(snapshot(List.of()));
  }

  /** How the restore stands now; once the partitions run, read from their states. */
  public CompletableFuture<NodeRestoreState> state() {
    List<HostedPartition> running;
    synchronized (this) {
      running = partitions;
      if (running.isEmpty()) {
        // not started (yet): the downloads' progress
        return CompletableFuture.completedFuture(snapshot(downloads()));
      }
    }
    List<CompletableFuture<PartitionRestoreState>> checks = new ArrayList<>();
    long expected = expectedCheckpointId();
    for (HostedPartition partition : running) {
      checks.add(check(partition, expected, restoredBytes(partition.partitionId())));
    }
    return CompletableFuture.allOf(checks.toArray(CompletableFuture[]::new))
        .thenApply(
            ignored -> {
              List<PartitionRestoreState> states =
                  checks.stream().map(CompletableFuture::join).toList();
              settle(states);
              return snapshot(states);
            });
  }

  private synchronized long expectedCheckpointId() {
    return restorePointId > 0 ? restorePointId : backupId;
  }

  /**
   * The partition's digest check, with the bytes its restore downloaded (so that a finished restore
   * still says how much it restored).
   */
  private static CompletableFuture<PartitionRestoreState> check(
      HostedPartition partition, long expected, long restoredBytes) {
    int partitionId = partition.partitionId();
    var health = partition.health();
    if (health.status() == PartitionHealthStatus.FAILED) {
      return CompletableFuture.completedFuture(
          partitionState(partitionId, "FAILED", restoredBytes, health.reason()));
    }
    return partition
        .partition()
        .readState(db -> CheckpointState.of(db).latestCheckpointId())
        .handle(
            (latest, error) ->
                partitionState(
                    partitionId,
                    latest != null && latest >= expected ? "VERIFIED" : "CHECKING",
                    restoredBytes,
                    ""));
  }

  /** What the restore downloaded for {@code partitionId}; 0 when it restored nothing there. */
  private long restoredBytes(int partitionId) {
    PartitionProgress downloaded = progress.get(partitionId);
    return downloaded == null ? 0 : downloaded.bytesDone();
  }

  private static PartitionRestoreState partitionState(
      int partitionId, String phase, long restoredBytes, String why) {
    return new PartitionRestoreState(partitionId, phase, restoredBytes, restoredBytes, 0, -1, why);
  }

  /** CHECKING becomes COMPLETED once every partition is verified, FAILED once one failed. */
  private void settle(List<PartitionRestoreState> states) {
    List<String> failures = new ArrayList<>();
    for (PartitionRestoreState state : states) {
      if (state.phase().equals("FAILED")) {
        failures.add("partition " + state.partitionId() + ": " + state.detail());
      }
    }
    boolean verified = states.stream().allMatch(state -> state.phase().equals("VERIFIED"));
    synchronized (this) {
      if (phase != Phase.CHECKING) {
        return;
      }
      if (!failures.isEmpty()) {
        phase = Phase.FAILED;
        detail = "the digest check failed on " + String.join("; ", failures);
        LOG.error("Node {}: {}", target.nodeId(), detail);
      } else if (verified) {
        phase = Phase.COMPLETED;
        LOG.info(
            "Node {}: every partition it hosts passed the digest check at checkpoint {}",
            target.nodeId(),
            expectedCheckpointId());
      }
    }
  }

  private List<PartitionRestoreState> downloads() {
    List<PartitionRestoreState> states = new ArrayList<>();
    for (PartitionProgress partition : progress.values()) {
      states.add(
          new PartitionRestoreState(
              partition.partitionId(),
              partition.phase().name(),
              partition.bytesDone(),
              partition.bytesTotal(),
              partition.bytesPerSecond(),
              partition.eta().map(eta -> Math.max(0, eta.toMillis())).orElse(-1L),
              ""));
    }
    return states;
  }

  private synchronized NodeRestoreState snapshot(List<PartitionRestoreState> states) {
    return new NodeRestoreState(
        target.nodeId(),
        phase,
        selection,
        backupId,
        restorePointId,
        detail,
        startedMillis,
        finishedMillis,
        states);
  }

  /** Keeps each partition's newest progress and answers the start once the plan is known. */
  private final class Listener implements RestoreListener {
    @Override
    public void onPlan(RestorePlan plan) {
      CompletableFuture<NodeRestoreState> answer;
      synchronized (ApiRestore.this) {
        backupId = plan.backupId();
        restorePointId =
            plan.partitions().stream()
                .mapToLong(PartitionPlan::checkpointId)
                .filter(id -> id != plan.backupId())
                .findFirst()
                .orElse(0L);
        answer = planned;
      }
      answer.complete(snapshot(List.of()));
    }

    @Override
    public void onProgress(PartitionProgress partition) {
      progress.put(partition.partitionId(), partition);
    }
  }

  /** What this broker restores into: its data directory, as its configuration describes it. */
  public static RestoreTarget target(BrokerConfig config, Path dataDirectory, String version) {
    BrokerConfig.Cluster cluster = config.cluster();
    return new RestoreTarget(
        dataDirectory,
        cluster.clusterId(),
        cluster.nodeId(),
        new ClusterShape(
            cluster.members().size(), cluster.partitionCount(), cluster.replicationFactor()),
        version);
  }

  /** Whether {@code directory} is absent or holds nothing: only such a directory is restored. */
  public static boolean isEmpty(Path directory) {
    try {
      return DurableFiles.isMissingOrEmpty(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("Expected to list the data directory " + directory, e);
    }
  }

  /** One phrase for the broker's health while it waits or restores. */
  public synchronized String describe() {
    return switch (phase) {
      case WAITING -> "waits for a restore request (POST /actuator/restore at the gateway)";
      case RESTORING -> "restores " + selection;
      case FAILED -> "the restore of " + selection + " failed: " + detail;
      default -> phase + " " + selection;
    };
  }

  /** The state of a broker that was not started in restore mode, or found data in its directory. */
  public static NodeRestoreState processing(int nodeId, String why) {
    return new NodeRestoreState(nodeId, Phase.PROCESSING, "", 0, 0, why, 0, 0, List.of());
  }

  /** For tests and logs. */
  @Override
  public synchronized String toString() {
    return "ApiRestore{node " + target.nodeId() + ", " + phase + ", " + selection + "}";
  }
}
