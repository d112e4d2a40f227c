package io.cairn.broker.partition;

import io.cairn.logstreams.LogStreamConfig;
import io.cairn.logstreams.LogStreamReader;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.Record;
import io.cairn.raft.RaftConfig;
import io.cairn.raft.RaftRole;
import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.cairn.snapshot.SnapshotConfig;
import io.cairn.transport.MessagingService;
import io.cairn.transport.sim.SimNetwork;
import io.cairn.transport.sim.SimTesting;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Members of one partition on one thread: a {@link DeterministicScheduler} with simulated time, a
 * {@link SimNetwork}, and for each member a real {@link Partition} (journal, raft, RocksDB state,
 * snapshot store) in its own directory, with a {@link TestLedgerComponent}. Seeded: a test runs the
 * same way every time. Members can be stopped (closed, their endpoint crashed) and restarted from
 * their directories.
 */
final class PartitionCluster implements AutoCloseable {

  static final int PARTITION_ID = 1;
  static final String BROKER_VERSION = "0.1.0-test";
  static final Duration ELECTION_BOUND = Duration.ofSeconds(30);

  /** Fast raft timing, small segments (so compaction deletes some), snapshots on demand only. */
  static final PartitionConfig CONFIG =
      PartitionConfig.builder()
          .raft(
              RaftConfig.builder()
                  .electionTimeout(Duration.ofMillis(300))
                  .heartbeatInterval(Duration.ofMillis(50))
                  .requestTimeout(Duration.ofMillis(150))
                  .build())
          .logStream(LogStreamConfig.builder().maxBatchSizeBytes(4 * 1024).build())
          .snapshot(
              SnapshotConfig.builder()
                  .snapshotInterval(Duration.ofDays(1))
                  .replicationChunkSizeBytes(4 * 1024)
                  .build())
          .journalSegmentSizeBytes(16 * 1024)
          .journalPreallocateSegmentFiles(false)
          .build();

  final SimClock clock = new SimClock(10_000);
  final DeterministicScheduler scheduler = new DeterministicScheduler(clock);
  final SimNetwork network;
  private final Path directory;
  private final long seed;
  private final PartitionConfig config;
  private final BiFunction<PartitionCluster, Member, List<PartitionComponent>> components;
  private final List<Integer> ids = new ArrayList<>();
  private final Map<Integer, Member> members = new LinkedHashMap<>();

  /** One member: its partition while running, and what survives its restarts. */
  static final class Member {
    final int id;
    final TestLedgerComponent ledger = new TestLedgerComponent();
    final List<Record> responses = new CopyOnWriteArrayList<>();
    SimpleMeterRegistry registry;
    List<PartitionComponent> components = List.of();
    Partition partition;
    int starts;

    Member(int id) {
      this.id = id;
    }

    boolean isRunning() {
      return partition != null;
    }
  }

  PartitionCluster(Path directory, long seed, int size) {
    this(directory, seed, size, CONFIG);
  }

  PartitionCluster(Path directory, long seed, int size, PartitionConfig config) {
    this(directory, seed, size, config, (cluster, member) -> List.of(member.ledger));
  }

  /**
   * @param components the components of a member, each time it starts (its {@link Member#ledger}
   *     survives restarts); called after the cluster's scheduler and network exist
   */
  PartitionCluster(
      Path directory,
      long seed,
      int size,
      PartitionConfig config,
      BiFunction<PartitionCluster, Member, List<PartitionComponent>> components) {
    this.directory = directory;
    this.seed = seed;
    this.config = config;
    this.components = components;
    network = new SimNetwork(scheduler, seed);
    for (int id = 0; id < size; id++) {
      ids.add(id);
      network.endpoint(id);
      members.put(id, new Member(id));
    }
    for (int id : ids) {
      start(id, network.endpoint(id));
    }
  }

  Member member(int id) {
    return Objects.requireNonNull(members.get(id), "member " + id);
  }

  /** The components the member runs now (new ones at every start). */
  List<PartitionComponent> components(int id) {
    return member(id).components;
  }

  Partition partition(int id) {
    return Objects.requireNonNull(member(id).partition, "member " + id + " is stopped");
  }

  List<Partition> running() {
    return members.values().stream().filter(Member::isRunning).map(m -> m.partition).toList();
  }

  private void start(int id, MessagingService messaging) {
    Member member = member(id);
    member.registry = new SimpleMeterRegistry();
    member.starts++;
    member.components = components.apply(this, member);
    member.partition =
        Partition.builder()
            .partitionId(PARTITION_ID)
            .nodeId(id)
            .members(ids)
            .layout(PartitionLayout.of(dataDirectory(id), PARTITION_ID))
            .config(config)
            .messagingService(messaging)
            .scheduler(scheduler)
            .ioExecutor(scheduler.executor())
            .flushExecutor(scheduler.executor())
            .random(new SplittableRandom(seed * 31 + id * 7L + member.starts * 1_000_003L))
            .components(member.components)
            .exportedPositions(
                member.components.stream()
                    .filter(ExportedPositionSource.class::isInstance)
                    .map(ExportedPositionSource.class::cast)
                    .findFirst()
                    .orElse(null))
            .responseWriter((streamId, requestId, response) -> member.responses.add(response))
            .meterRegistry(member.registry)
            .brokerVersion(BROKER_VERSION)
            .open();
    await(member.partition.start(), "start of member " + id);
  }

  Path dataDirectory(int id) {
    return directory.resolve("node-" + id);
  }

  /** Closes the member's partition and crashes its network endpoint. */
  void stop(int id) {
    Member member = member(id);
    await(member.partition.closeAsync(), "close of member " + id);
    member.partition = null;
    network.crash(id);
  }

  /** Starts the member again from its directory, with a fresh network endpoint. */
  void restart(int id) {
    start(id, network.restart(id));
  }

  /** Runs until exactly one member leads, every running member follows it, and roles are taken. */
  Partition awaitLeader() {
    Partition[] found = new Partition[1];
    runUntil(
        () -> {
          List<Partition> leaders =
              running().stream()
                  .filter(p -> p.role() == PartitionRole.LEADER && p.raftRole() == RaftRole.LEADER)
                  .toList();
          if (leaders.size() != 1) {
            return false;
          }
          Partition leader = leaders.get(0);
          boolean settled =
              running().stream()
                  .allMatch(
                      p ->
                          p.leaderId() == leader.nodeId()
                              && (p == leader || p.role() == PartitionRole.FOLLOWER));
          found[0] = leader;
          return settled;
        },
        ELECTION_BOUND,
        "a leader that every member follows");
    return found[0];
  }

  /** Runs until a member other than {@code deposed} leads (raft and partition). */
  Partition awaitLeaderOtherThan(Partition deposed) {
    Partition[] found = new Partition[1];
    runUntil(
        () -> {
          for (Partition p : running()) {
            if (p != deposed
                && p.role() == PartitionRole.LEADER
                && p.raftRole() == RaftRole.LEADER) {
              found[0] = p;
              return true;
            }
          }
          return false;
        },
        ELECTION_BOUND,
        "a leader other than member " + deposed.nodeId());
    return found[0];
  }

  void run(Duration duration) {
    scheduler.runFor(duration);
  }

  /**
   * Runs in 5 ms steps until {@code condition} holds; fails after {@code bound} of simulated time.
   */
  void runUntil(BooleanSupplier condition, Duration bound, String what) {
    runUntil(condition, bound, what, () -> "it did not happen");
  }

  private void runUntil(
      BooleanSupplier condition, Duration bound, String what, Supplier<String> actual) {
    long deadline = clock.millis() + bound.toMillis();
    while (!condition.getAsBoolean()) {
      if (clock.millis() >= deadline) {
        throw new AssertionError(
            "Expected " + what + " within " + bound + " (seed " + seed + "), but " + actual.get());
      }
      scheduler.runFor(Duration.ofMillis(5));
    }
  }

  /**
   * Runs one task at a time until {@code condition} holds, to stop a member at an exact point (for
   * example right after a leader wrote a batch, before raft sent it).
   */
  void runTasksUntil(BooleanSupplier condition, Duration bound, String what) {
    long deadline = clock.millis() + bound.toMillis();
    while (!condition.getAsBoolean()) {
      if (clock.millis() >= deadline || !scheduler.runNext()) {
        throw new AssertionError(
            "Expected "
                + what
                + " within "
                + bound
                + " (seed "
                + seed
                + "), but it did not happen");
      }
    }
  }

  <T> T await(CompletableFuture<T> future, String what) {
    return SimTesting.runUntilDone(scheduler, future, 5_000_000, what + ", seed " + seed);
  }

  /**
   * Writes one command to {@code leader}'s log, as a client does: on backpressure it lets the
   * cluster run a little and tries again (bounded). Returns the command's position.
   */
  long write(Partition leader, Record command) {
    WriteResult result = leader.logStream().writer().tryWrite(command);
    for (int attempt = 0; result instanceof WriteResult.Backpressure && attempt < 200; attempt++) {
      scheduler.runFor(Duration.ofMillis(5));
      result = leader.logStream().writer().tryWrite(command);
    }
    if (!(result instanceof WriteResult.Written written)) {
      throw new AssertionError("Expected the command to be written, but: " + result);
    }
    return written.lowestPosition();
  }

  /** The state summary of a running member, or null while it has no stream processor. */
  StateSummary summaryOrNull(Partition partition) {
    CompletableFuture<StateSummary> summary = partition.stateSummary();
    try {
      return await(summary, "state summary of member " + partition.nodeId());
    } catch (IllegalStateException e) {
      return null; // in a transition
    }
  }

  /**
   * Runs until every running member holds the same state summary (digest and positions) and its
   * last processed position is at least {@code position}; returns that summary.
   */
  StateSummary awaitConverged(long position, Duration bound) {
    StateSummary[] result = new StateSummary[1];
    runUntil(
        () -> {
          StateSummary first = null;
          for (Partition p : running()) {
            StateSummary summary = summaryOrNull(p);
            if (summary == null || summary.lastProcessedPosition() < position) {
              return false;
            }
            if (first == null) {
              first = summary;
            } else if (!first.equals(summary)) {
              return false;
            }
          }
          result[0] = first;
          return true;
        },
        bound,
        "every member at the same state with position >= " + position,
        this::describeStates);
    return result[0];
  }

  private String describeStates() {
    StringBuilder states = new StringBuilder("the members are at:");
    for (Partition p : running()) {
      StateSummary summary = summaryOrNull(p);
      states
          .append(" member ")
          .append(p.nodeId())
          .append(' ')
          .append(p.role())
          .append(" (health ")
          .append(p.health().status())
          .append(") ")
          .append(summary == null ? "in a transition" : summary.toString())
          .append(';');
    }
    return states.toString();
  }

  /** Every committed record in {@code partition}'s log, in order. */
  static List<Record> committedRecords(Partition partition) {
    List<Record> records = new ArrayList<>();
    try (LogStreamReader reader = partition.logStream().newReader()) {
      while (reader.hasNext()) {
        records.add(reader.next());
      }
    }
    return records;
  }

  @Override
  public void close() {
    for (Member member : members.values()) {
      if (member.partition != null) {
        CompletableFuture<Void> closed = member.partition.closeAsync();
        try {
          await(closed, "close of member " + member.id);
        } catch (RuntimeException | AssertionError e) {
          // keep closing the others
        }
        member.partition = null;
      }
    }
    scheduler.close();
  }
}
