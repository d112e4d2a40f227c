package io.cairn.logstreams.raft;

import io.cairn.journal.JournalConfig;
import io.cairn.journal.SegmentedJournal;
import io.cairn.logstreams.LogStreamConfig;
import io.cairn.raft.RaftConfig;
import io.cairn.raft.RaftRole;
import io.cairn.raft.RaftServer;
import io.cairn.raft.RaftSnapshot;
import io.cairn.raft.RaftSnapshotReceiver;
import io.cairn.raft.RaftSnapshotStore;
import io.cairn.raft.storage.FileRaftMetaStore;
import io.cairn.scheduler.ActorScheduler;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.cairn.scheduler.ThreadPoolActorScheduler;
import io.cairn.transport.MessagingService;
import io.cairn.transport.TransportConfig;
import io.cairn.transport.netty.NettyMessagingService;
import io.cairn.transport.sim.SimNetwork;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;

/**
 * One raft group in this JVM, the raft-level harness that tests and benchmarks build on: {@code N}
 * members, each with a real {@link SegmentedJournal} and meta store under {@code
 * <directory>/member-<id>}, a {@link RaftServer} and (unless turned off) a {@link RaftLogStream}
 * over them. No snapshot is ever taken, so the log is never compacted.
 *
 * <p>How the members run and talk is chosen once, in the {@link Builder}:
 *
 * <ul>
 *   <li>{@link Builder#simulated() simulated} (the default): every actor on one {@link
 *       DeterministicScheduler} over a {@link SimClock}, messages through a {@link SimNetwork}
 *       seeded like the members' randomness — a test runs the same way every time, and drives time
 *       with {@link #run}, {@link #runUntilIdle} and the waits;
 *   <li>{@link Builder#threaded threaded}: every actor on one {@link ThreadPoolActorScheduler},
 *       netty over loopback on ephemeral ports, the given clock — as a broker runs a partition (the
 *       benchmarks); the waits poll.
 * </ul>
 *
 * <p>Above this level, the stream processor's, the engine's and the benchmarks' ledger partitions
 * add state and processing per member. Use a simulated cluster from the thread that drives it.
 */
public final class RaftLogStreamCluster implements AutoCloseable {

  /** The partition of every member. */
  public static final int PARTITION = 1;

  /** The raft timings of a simulated cluster unless a test sets others: elections in ~1 s. */
  public static final RaftConfig RAFT_CONFIG =
      RaftConfig.builder()
          .electionTimeout(Duration.ofMillis(300))
          .heartbeatInterval(Duration.ofMillis(50))
          .requestTimeout(Duration.ofMillis(150))
          .build();

  /** Small segments, not preallocated: the journals of a test stay small. */
  public static final UnaryOperator<JournalConfig.Builder> SMALL_SEGMENTS =
      journal -> journal.segmentSizeBytes(64 * 1024).preallocateSegmentFiles(false);

  private static final Duration POLL = Duration.ofMillis(10);

  private final Runtime runtime;
  private final Duration awaitTimeout;

  /** The members, by id {@code 0..N-1}. */
  public final List<Member> members = new ArrayList<>();

  /** One member: its directory, journal (with its own meters), transport, raft server, stream. */
  public static final class Member {
    public final int id;
    public final Path directory;
    public final SegmentedJournal journal;

    /** The journal's meters only ({@code JournalMetrics}): appends and flushes of this member. */
    public final MeterRegistry journalMeters;

    public final MessagingService messaging;
    public final RaftServer raft;

    /**
     * This member's log stream; null if the cluster was built {@link Builder#withoutLogStreams}.
     */
    public final RaftLogStream stream;

    private Member(Builder settings, Runtime runtime, int id) {
      this.id = id;
      directory = settings.directory.resolve("member-" + id);
      try {
        Files.createDirectories(directory);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      journalMeters = new SimpleMeterRegistry();
      journal =
          SegmentedJournal.open(
              journalConfig(directory.resolve("journal"), settings.journal), journalMeters);
      messaging = runtime.endpoint(id);
      raft =
          RaftServer.builder()
              .partitionId(PARTITION)
              .localNodeId(id)
              .members(settings.memberIds())
              .config(settings.raftConfig)
              .journal(journal)
              .metaStore(new FileRaftMetaStore(directory.resolve("raft.meta")))
              .snapshotStore(new NoSnapshots())
              .messagingService(messaging)
              .random(new SplittableRandom(settings.seed * 31 + id))
              .meterRegistry(new SimpleMeterRegistry())
              .build();
      stream =
          settings.logStreamConfig == null
              ? null
              : RaftLogStream.open(
                  raft,
                  journal,
                  runtime.clock(),
                  settings.logStreamConfig,
                  new SimpleMeterRegistry());
    }

    @Override
    public String toString() {
      return "member " + id + " (" + raft.role() + " in term " + raft.term() + ")";
    }
  }

  /**
   * Three simulated members seeded with {@code seed}, each with a log stream configured by {@code
   * config}, {@link #RAFT_CONFIG} and {@link #SMALL_SEGMENTS}.
   */
  public RaftLogStreamCluster(Path directory, long seed, LogStreamConfig config) {
    this(builder(directory).seed(seed).logStreams(config));
  }

  private RaftLogStreamCluster(Builder builder) {
    runtime =
        builder.threaded
            ? new Threaded(builder)
            : new Simulated(new DeterministicScheduler(new SimClock(10_000)), builder.seed);
    awaitTimeout = builder.awaitTimeout;
    try {
      for (int id : builder.memberIds()) {
        Member member = new Member(builder, runtime, id);
        members.add(member);
        runtime.created(member);
      }
      runtime.startAll(members);
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
  }

  public static Builder builder(Path directory) {
    return new Builder(directory);
  }

  /** The journal configuration of a member (and of a benchmark's single-journal baseline). */
  public static JournalConfig journalConfig(
      Path directory, UnaryOperator<JournalConfig.Builder> tuning) {
    return tuning
        .apply(JournalConfig.builder().directory(directory).name("raft-partition-" + PARTITION))
        .build();
  }

  // ---- access -----------------------------------------------------------------------------------

  /** The clock every member sees. */
  public Clock clock() {
    return runtime.clock();
  }

  /** The scheduler of every member's actors; start a member's other actors (processors) here. */
  public ActorScheduler scheduler() {
    return runtime.scheduler();
  }

  /**
   * The simulated network: isolate, heal, cut, drop.
   *
   * @throws IllegalStateException if the cluster is threaded
   */
  public SimNetwork network() {
    return runtime.simulated().network;
  }

  public Member member(int id) {
    return members.get(id);
  }

  /** Some member other than {@code leader}. */
  public Member follower(Member leader) {
    return members.stream().filter(m -> m != leader).findFirst().orElseThrow();
  }

  /** Each member's role and term, for messages. */
  public Map<Integer, String> roles() {
    Map<Integer, String> roles = new LinkedHashMap<>();
    members.forEach(m -> roles.put(m.id, m.raft.role() + "@" + m.raft.term()));
    return roles;
  }

  // ---- driving ----------------------------------------------------------------------------------

  /** Simulated: runs the scheduler for {@code duration} of simulated time. Threaded: waits. */
  public void run(Duration duration) {
    runtime.run(duration);
  }

  /**
   * Runs every task due now, and what those schedule for now.
   *
   * @throws IllegalStateException if the cluster is threaded
   */
  public void runUntilIdle() {
    runtime.simulated().deterministic.runUntilIdle();
  }

  /** Runs until exactly one member leads and every member knows it; returns it. */
  public Member awaitLeader() {
    long deadline = clock().millis() + awaitTimeout.toMillis();
    while (clock().millis() < deadline) {
      run(POLL);
      List<Member> leaders =
          members.stream().filter(m -> m.raft.role() == RaftRole.LEADER).toList();
      if (leaders.size() == 1
          && members.stream().allMatch(m -> m.raft.leaderId() == leaders.get(0).id)) {
        return leaders.get(0);
      }
    }
    throw new AssertionError(
        "Expected a leader within " + awaitTimeout + ", but none was elected: roles " + roles());
  }

  /** Runs until a member other than {@code deposed} leads among the others. */
  public Member awaitLeaderOtherThan(Member deposed) {
    long deadline = clock().millis() + awaitTimeout.toMillis();
    while (clock().millis() < deadline) {
      run(POLL);
      for (Member member : members) {
        if (member != deposed && member.raft.role() == RaftRole.LEADER) {
          return member;
        }
      }
    }
    throw new AssertionError(
        "Expected a new leader within " + awaitTimeout + ", but roles are " + roles());
  }

  /** Runs until {@code member} no longer leads (an isolated leader steps down on its own). */
  public void awaitStepDown(Member member) {
    long deadline = clock().millis() + awaitTimeout.toMillis();
    while (member.raft.role() == RaftRole.LEADER) {
      if (clock().millis() >= deadline) {
        throw new AssertionError("Expected member " + member.id + " to step down, but it leads");
      }
      run(POLL);
    }
  }

  /**
   * Closes the log streams and the raft servers, then the transports and the scheduler, then the
   * journals; deletes nothing. Close what runs on top (processors) first.
   */
  @Override
  public void close() {
    for (Member member : members) {
      if (member.stream != null) {
        member.stream.close();
      }
    }
    runtime.close(members);
    members.forEach(m -> m.journal.close());
  }

  /** Never has a snapshot: nothing is compacted, and no member is ever sent a snapshot. */
  private static final class NoSnapshots implements RaftSnapshotStore {
    @Override
    public Optional<RaftSnapshot> latestSnapshot() {
      return Optional.empty();
    }

    @Override
    public long compactionBoundIndex() {
      return 1;
    }

    @Override
    public RaftSnapshotReceiver newReceiver(long index, long term) {
      throw new UnsupportedOperationException(
          "Expected no snapshot install in a cluster without snapshots, but one started at index "
              + index);
    }
  }

  // ---- how the members run ----------------------------------------------------------------------

  /** The scheduler, clock and network of the members. */
  private abstract static class Runtime {
    private final ActorScheduler scheduler;

    Runtime(ActorScheduler scheduler) {
      this.scheduler = scheduler;
    }

    final ActorScheduler scheduler() {
      return scheduler;
    }

    final Clock clock() {
      return scheduler.clock();
    }

    /** This member's transport, ready to be given to its raft server. */
    abstract MessagingService endpoint(int memberId);

    /** Member {@code member} was just made; the members after it are not yet. */
    abstract void created(Member member);

    /** Every member was made: starts those not started yet. */
    abstract void startAll(List<Member> members);

    abstract void run(Duration duration);

    /** Closes the members' actors, transports and the scheduler. */
    abstract void close(List<Member> members);

    Simulated simulated() {
      throw new IllegalStateException(
          "Expected a simulated cluster, but this one runs on threads and netty");
    }
  }

  private static final class Simulated extends Runtime {
    private final DeterministicScheduler deterministic;
    private final SimNetwork network;

    private Simulated(DeterministicScheduler deterministic, long seed) {
      super(deterministic);
      this.deterministic = deterministic;
      network = new SimNetwork(deterministic, seed);
    }

    @Override
    MessagingService endpoint(int memberId) {
      return network.endpoint(memberId);
    }

    /** Starts each member as it is made (its start runs with the next run call). */
    @Override
    void created(Member member) {
      deterministic.start(member.raft);
    }

    @Override
    void startAll(List<Member> members) {}

    @Override
    void run(Duration duration) {
      deterministic.runFor(duration);
    }

    @Override
    void close(List<Member> members) {
      deterministic.close();
      deterministic.runUntilIdle();
    }

    @Override
    Simulated simulated() {
      return this;
    }
  }

  private static final class Threaded extends Runtime {
    private final Duration startTimeout;

    private Threaded(Builder builder) {
      super(
          new ThreadPoolActorScheduler(
              builder.schedulerName, builder.threads, builder.clock, new SimpleMeterRegistry()));
      startTimeout = builder.awaitTimeout;
    }

    @Override
    MessagingService endpoint(int memberId) {
      NettyMessagingService messaging =
          new NettyMessagingService(
              TransportConfig.builder(memberId)
                  .bindHost("127.0.0.1")
                  .bindPort(0)
                  .ioThreadCount(1)
                  .build(),
              clock(),
              new SimpleMeterRegistry());
      messaging.start();
      return messaging;
    }

    @Override
    void created(Member member) {}

    /** Tells every transport the others' addresses, then starts the members one by one. */
    @Override
    void startAll(List<Member> members) {
      for (Member member : members) {
        for (Member other : members) {
          ((NettyMessagingService) member.messaging)
              .setMemberAddress(other.id, ((NettyMessagingService) other.messaging).localAddress());
        }
      }
      for (Member member : members) {
        try {
          scheduler().start(member.raft).get(startTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
          throw new IllegalStateException("Expected " + member + " to start, but " + e, e);
        }
      }
    }

    @Override
    void run(Duration duration) {
      LockSupport.parkNanos(duration.toNanos());
    }

    @Override
    void close(List<Member> members) {
      for (Member member : members) {
        CompletableFuture<Void> closed = member.raft.closeAsync();
        closed.orTimeout(10, TimeUnit.SECONDS).handle((v, e) -> null).join();
      }
      members.forEach(m -> m.messaging.close());
      scheduler().close();
    }
  }

  // ---- settings ---------------------------------------------------------------------------------

  /** The cluster's settings; the defaults are those of the three-argument constructor. */
  public static final class Builder {
    private final Path directory;
    private int memberCount = 3;
    private long seed = 1;
    private RaftConfig raftConfig = RAFT_CONFIG;
    private UnaryOperator<JournalConfig.Builder> journal = SMALL_SEGMENTS;
    private LogStreamConfig logStreamConfig = LogStreamConfig.defaults();
    private Duration awaitTimeout = Duration.ofSeconds(30);
    private boolean threaded;
    private String schedulerName;
    private int threads;
    private Clock clock;

    private Builder(Path directory) {
      this.directory = Objects.requireNonNull(directory, "directory");
    }

    public Builder members(int value) {
      memberCount = value;
      return this;
    }

    /** Seeds each member's randomness ({@code seed * 31 + id}) and the simulated network. */
    public Builder seed(long value) {
      seed = value;
      return this;
    }

    public Builder raftConfig(RaftConfig value) {
      raftConfig = Objects.requireNonNull(value, "raftConfig");
      return this;
    }

    /**
     * Tunes each member's journal configuration (directory and name are set); {@link
     * UnaryOperator#identity()} keeps the journal's defaults (128 MiB preallocated segments).
     */
    public Builder journal(UnaryOperator<JournalConfig.Builder> value) {
      journal = Objects.requireNonNull(value, "journal");
      return this;
    }

    public Builder logStreams(LogStreamConfig value) {
      logStreamConfig = Objects.requireNonNull(value, "logStreamConfig");
      return this;
    }

    /** Members without log streams: raft alone. */
    public Builder withoutLogStreams() {
      logStreamConfig = null;
      return this;
    }

    /** How long a wait (and, threaded, a member's start) may take on the cluster's clock. */
    public Builder awaitTimeout(Duration value) {
      awaitTimeout = Objects.requireNonNull(value, "awaitTimeout");
      return this;
    }

    /** One thread, a simulated clock and network (the default). */
    public Builder simulated() {
      threaded = false;
      return this;
    }

    /**
     * A thread pool named {@code name} with {@code threadCount} threads on {@code clockToUse}, and
     * netty over loopback.
     */
    public Builder threaded(String name, int threadCount, Clock clockToUse) {
      threaded = true;
      schedulerName = Objects.requireNonNull(name, "name");
      threads = threadCount;
      clock = Objects.requireNonNull(clockToUse, "clock");
      return this;
    }

    private List<Integer> memberIds() {
      List<Integer> ids = new ArrayList<>();
      for (int id = 0; id < memberCount; id++) {
        ids.add(id);
      }
      return List.copyOf(ids);
    }

    public RaftLogStreamCluster build() {
      return new RaftLogStreamCluster(this);
    }
  }
}
