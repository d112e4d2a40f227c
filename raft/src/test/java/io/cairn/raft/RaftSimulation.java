package io.cairn.raft;

import io.cairn.journal.JournalConfig;
import io.cairn.journal.SegmentedJournal;
import io.cairn.raft.consensus.UnsafeOptions;
import io.cairn.raft.storage.FileRaftMetaStore;
import io.cairn.raft.storage.RaftMeta;
import io.cairn.raft.storage.RaftMetaStore;
import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.cairn.transport.sim.SimNetwork;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One seeded run of a raft group on one thread: a {@link DeterministicScheduler}, a {@link
 * SimNetwork} with delays, drops, duplicates and partitions, real {@link SegmentedJournal}s and
 * meta files in a temporary directory, and crashes that may lose what was not flushed. Every choice
 * comes from the seed, so a run is replayed exactly by running the seed again.
 *
 * <p>Phase 1 draws operations (client appends, crashes, restarts, partitions, heals, fault rates,
 * snapshots with compaction) and checks {@link RaftInvariants} after every step. Phase 2 stops the
 * faults and requires that, within a bounded simulated time, one leader leads everybody and every
 * member committed every entry ever committed.
 *
 * <p>A third of the seeds (multiples of 3) give the group a preferred leader, so leadership
 * transfers run under the same faults and the same invariants.
 */
final class RaftSimulation {

  static final RaftConfig CONFIG =
      RaftConfig.builder()
          .electionTimeout(Duration.ofMillis(300))
          .heartbeatInterval(Duration.ofMillis(50))
          .requestTimeout(Duration.ofMillis(150))
          .maxAppendBatchBytes(1024)
          .maxInFlightAppends(3)
          .build();

  private static final int PARTITION = 1;
  private static final Duration LIVENESS_BOUND = Duration.ofSeconds(30);

  /** The outcome of one run. */
  record Result(long seed, int members, int steps, List<String> violations, String stats) {
    boolean ok() {
      return violations.isEmpty();
    }
  }

  private final long seed;
  private final int memberCount;
  private final int steps;
  private final UnsafeOptions unsafe;
  private final Random random;
  private final SimClock clock = new SimClock(0);
  private final DeterministicScheduler scheduler = new DeterministicScheduler(clock);
  private final SimNetwork network;
  private final RaftInvariants invariants;
  private final List<Member> members = new ArrayList<>();
  private final List<AcknowledgedCommit> acknowledged = new ArrayList<>();
  private final Path root;
  private final int faultIntensity;
  private final int preferredLeader;
  private double transfersStarted;
  private double transfersCompleted;
  private long nextPosition = 1;
  private int appendsAttempted;
  private int crashes;
  private int snapshotsTaken;

  private record AcknowledgedCommit(long index, long term) {}

  RaftSimulation(long seed, int memberCount, int steps, UnsafeOptions unsafe) {
    this.seed = seed;
    this.memberCount = memberCount;
    this.steps = steps;
    this.unsafe = unsafe;
    // java.util.Random's first draws are alike for neighbouring seeds: mix the seed first
    this.random = new Random(new SplittableRandom(seed).nextLong());
    this.network = new SimNetwork(scheduler, seed * 7 + 1);
    this.invariants = new RaftInvariants(clock::millis);
    this.root = createRoot(seed);
    this.faultIntensity = 1 + random.nextInt(4);
    // not drawn from `random`: the runs of the other seeds stay exactly what they were
    this.preferredLeader = seed % 3 == 0 ? (int) Math.floorMod(seed / 3, memberCount) : -1;
  }

  /** Under /dev/shm when it exists (fsync is cheap on tmpfs), else java.io.tmpdir. */
  private static Path createRoot(long seed) {
    try {
      Path shm = Path.of("/dev/shm");
      Path base =
          Files.isDirectory(shm) && Files.isWritable(shm)
              ? shm
              : Path.of(System.getProperty("java.io.tmpdir"));
      return Files.createTempDirectory(base, "cairn-raft-sim-" + seed + "-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Result run() {
    try {
      // calm seeds reorder a little; stormy ones have delays near the heartbeat interval
      network.delay(
          Duration.ofMillis(1), Duration.ofMillis(new int[] {12, 12, 30, 60}[faultIntensity - 1]));
      for (int id = 0; id < memberCount; id++) {
        Member member = new Member(id);
        members.add(member);
        member.start();
      }
      for (int step = 0; step < steps && invariants.ok(); step++) {
        performRandomOperation();
        scheduler.runFor(Duration.ofMillis(1 + random.nextInt(20)));
        checkAfterStep();
      }
      if (invariants.ok()) {
        converge();
      }
      return new Result(seed, memberCount, steps, List.copyOf(invariants.violations()), stats());
    } finally {
      close();
    }
  }

  private void performRandomOperation() {
    int draw = random.nextInt(1000);
    int f = faultIntensity;
    if (draw < 300) {
      clientAppends(1 + random.nextInt(3));
    } else if (draw < 300 + 3 * f) {
      crash(randomMember(true));
    } else if (draw < 340 + 3 * f) {
      restart(randomMember(false));
    } else if (draw < 345 + 6 * f) {
      int a = random.nextInt(memberCount);
      int b = random.nextInt(memberCount);
      network.partition(a, b);
    } else if (draw < 347 + 7 * f) {
      network.isolate(random.nextInt(memberCount));
    } else if (draw < 357 + 7 * f) {
      network.heal();
    } else if (draw < 360 + 7 * f) {
      network.dropProbability(random.nextInt(1 + 2 * f) * 0.02);
      network.duplicateProbability(random.nextInt(1 + 2 * f) * 0.02);
    } else if (draw < 363 + 8 * f) {
      takeSnapshot(randomMember(true));
    } else if (draw < 500) {
      scheduler.runFor(Duration.ofMillis(random.nextInt(200)));
    }
    // otherwise: only the step's time slice
  }

  private Member randomMember(boolean alive) {
    List<Member> candidates = members.stream().filter(m -> m.alive == alive).toList();
    return candidates.isEmpty() ? null : candidates.get(random.nextInt(candidates.size()));
  }

  private void clientAppends(int count) {
    List<Member> leaders =
        members.stream().filter(m -> m.alive && m.server.role() == RaftRole.LEADER).toList();
    if (leaders.isEmpty()) {
      return;
    }
    Member leader = leaders.get(random.nextInt(leaders.size()));
    for (int i = 0; i < count; i++) {
      int records = 1 + random.nextInt(3);
      long lowest = nextPosition;
      long highest = lowest + records - 1;
      nextPosition = highest + 1;
      byte[] payload = new byte[8 + random.nextInt(120)];
      random.nextBytes(payload);
      appendsAttempted++;
      RaftServer server = leader.server;
      server
          .append(lowest, highest, new UnsafeBuffer(payload))
          .thenAccept(
              result -> {
                if (result instanceof AppendResult.Appended appended) {
                  server
                      .whenCommitted(appended)
                      .thenAccept(
                          index ->
                              acknowledged.add(new AcknowledgedCommit(index, appended.term())));
                }
              });
    }
  }

  private void crash(Member member) {
    if (member == null) {
      return;
    }
    crashes++;
    member.crash(random.nextBoolean());
  }

  private void restart(Member member) {
    if (member != null) {
      member.start();
    }
  }

  private void takeSnapshot(Member member) {
    if (member == null || member.server.node() == null) {
      return; // restarted in this step, not running yet
    }
    long commit = member.server.node().commitIndex();
    InMemorySnapshotStore store = member.snapshots;
    long previous = store.latest() == null ? 0 : store.latest().index();
    if (commit <= previous || !member.journal.mirror().holds(commit)) {
      return;
    }
    long term = member.journal.mirror().term(commit);
    byte[] content =
        RaftInvariants.snapshotContent(commit, invariants.prefixHash(commit), random.nextInt(100));
    store.take(commit, term, content);
    snapshotsTaken++;
    member.server.compact(commit + 1);
  }

  private void checkAfterStep() {
    for (Member member : members) {
      if (member.alive && member.server.node() != null) {
        invariants.checkCommitted(
            member.id, member.journal.mirror(), member.server.node().commitIndex());
      }
    }
    for (AcknowledgedCommit commit : acknowledged) {
      RaftInvariants.Committed entry = invariants.committed().get(commit.index());
      if (entry == null || entry.term() != commit.term()) {
        invariants
            .violations()
            .add(
                "acknowledged commit of index "
                    + commit.index()
                    + " term "
                    + commit.term()
                    + " is not the committed entry "
                    + entry);
      }
    }
    acknowledged.clear();
  }

  /** Faults stop; a leader must lead everybody and every member must commit everything. */
  private void converge() {
    network.heal();
    network.dropProbability(0);
    network.duplicateProbability(0);
    for (Member member : members) {
      if (!member.alive) {
        member.start();
      }
    }
    long deadline = clock.millis() + LIVENESS_BOUND.toMillis();
    while (clock.millis() < deadline && invariants.ok()) {
      scheduler.runFor(Duration.ofMillis(50));
      checkAfterStep();
      if (isConverged()) {
        return;
      }
    }
    if (invariants.ok()) {
      StringBuilder state = new StringBuilder();
      for (Member member : members) {
        state.append(
            String.format(
                " [member %d %s term %d leader %d commit %d last %d]",
                member.id,
                member.server.role(),
                member.server.term(),
                member.server.leaderId(),
                member.server.node().commitIndex(),
                member.server.node().log().lastIndex()));
      }
      invariants
          .violations()
          .add(
              "no convergence within "
                  + LIVENESS_BOUND
                  + " after faults stopped; max committed "
                  + invariants.maxCommitted()
                  + ";"
                  + state);
    }
  }

  private boolean isConverged() {
    Member leader = null;
    for (Member member : members) {
      if (member.server.role() == RaftRole.LEADER) {
        if (leader != null) {
          return false;
        }
        leader = member;
      }
    }
    if (leader == null) {
      return false;
    }
    long term = leader.server.term();
    long leaderCommit = leader.server.node().commitIndex();
    if (leaderCommit < leader.server.node().log().lastIndex()
        || leaderCommit < invariants.maxCommitted()) {
      return false;
    }
    for (Member member : members) {
      if (member.server.term() != term
          || member.server.leaderId() != leader.id
          || member.server.node().commitIndex() != leaderCommit) {
        return false;
      }
    }
    return true;
  }

  private String stats() {
    Member any = members.get(0);
    return String.format(
        "members=%d intensity=%d simulatedMs=%d appends=%d maxCommitted=%d crashes=%d snapshots=%d"
            + " installs=%d truncations=%d leaders=%d messages=%d dropped=%d term=%d preferred=%d"
            + " transfers=%d/%d",
        memberCount,
        faultIntensity,
        clock.millis(),
        appendsAttempted,
        invariants.maxCommitted(),
        crashes,
        snapshotsTaken,
        invariants.snapshotInstalls(),
        invariants.truncations(),
        invariants.leaderTerms(),
        network.sentCount(),
        network.droppedCount(),
        any.server == null ? -1 : any.server.term(),
        preferredLeader,
        (long)
            (transfersCompleted
                + members.stream().mapToDouble(m -> m.transfers("completed")).sum()),
        (long)
            (transfersStarted + members.stream().mapToDouble(m -> m.transfers("started")).sum()));
  }

  private void close() {
    scheduler.close();
    for (Member member : members) {
      member.closeStorage();
    }
    deleteRecursively(root);
  }

  private static void deleteRecursively(Path path) {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(path)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One member: its disk (journal directory, meta file, snapshot store) outlives its process. */
  private final class Member {
    private final int id;
    private final Path directory;
    private final InMemorySnapshotStore snapshots = new InMemorySnapshotStore(24);
    private SegmentedJournal segmented;
    private CheckedJournal journal;
    private RaftServer server;
    private SimpleMeterRegistry registry;
    private boolean alive;
    private int lives;
    private long lostAfterIndex = -1;
    private final SplittableRandom flushes;

    private Member(int id) {
      this.id = id;
      this.flushes = new SplittableRandom(seed * 31L + id);
      this.directory = root.resolve("member-" + id);
      try {
        Files.createDirectories(directory);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private void start() {
      segmented =
          SegmentedJournal.open(
              JournalConfig.builder()
                  .directory(directory.resolve("journal"))
                  .name("raft-partition-" + PARTITION)
                  .segmentSizeBytes(4 * 1024)
                  .indexDensity(8)
                  .preallocateSegmentFiles(false)
                  .build(),
              new SimpleMeterRegistry());
      if (lostAfterIndex >= 0 && segmented.getLastIndex() > lostAfterIndex) {
        segmented.deleteAfter(lostAfterIndex); // what the crash did not flush is gone
      }
      lostAfterIndex = -1;
      journal = new CheckedJournal(id, segmented, invariants);
      invariants.onRestart(id);
      RaftMetaStore meta =
          new RecordingMetaStore(id, new FileRaftMetaStore(directory.resolve("raft.meta")));
      registry = new SimpleMeterRegistry();
      RaftServer.Builder builder =
          RaftServer.builder()
              .partitionId(PARTITION)
              .localNodeId(id)
              .members(memberIds())
              .preferredLeader(preferredLeader)
              .config(CONFIG)
              .journal(journal)
              .metaStore(meta)
              .snapshotStore(snapshots)
              .messagingService(lives == 0 ? network.endpoint(id) : network.restart(id))
              .random(new SplittableRandom(seed * 1_000_003L + id * 7919L + lives))
              .meterRegistry(registry)
              .unsafeOptions(unsafe);
      if (flushes.nextBoolean()) {
        // fsyncs on "another thread": a task that runs after a random simulated delay, so appends,
        // answers and crashes happen while one is in flight
        builder.flushExecutor(
            task -> scheduler.schedule(Duration.ofMillis(flushes.nextInt(4)), task));
      }
      server = builder.build();
      server.addRoleListener(
          (role, term, leader) -> invariants.onRoleChange(id, role, term, leader));
      server.addCommitListener(
          new RaftCommitListener() {
            @Override
            public void onCommit(long commitIndex) {
              invariants.onCommit(id, commitIndex);
            }

            @Override
            public void onSnapshotInstalled(long index, long term) {
              invariants.onSnapshotInstalled(id, index, snapshots.latest().content());
            }
          });
      scheduler.start(server);
      lives++;
      alive = true;
    }

    private void crash(boolean loseUnflushed) {
      long durable = journal.durableIndex();
      transfersStarted += transfers("started");
      transfersCompleted += transfers("completed");
      network.crash(id);
      server.closeAsync();
      scheduler.runUntilIdle();
      segmented.close();
      lostAfterIndex = loseUnflushed ? durable : -1;
      alive = false;
    }

    /** This run's leadership transfers of the member (its meters go when it closes). */
    private double transfers(String result) {
      if (!alive || registry == null) {
        return 0;
      }
      var counter = registry.find(RaftMetrics.LEADERSHIP_TRANSFERS).tag("result", result).counter();
      return counter == null ? 0 : counter.count();
    }

    private void closeStorage() {
      if (segmented != null && segmented.isOpen()) {
        segmented.close();
      }
    }
  }

  private List<Integer> memberIds() {
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < memberCount; i++) {
      ids.add(i);
    }
    return ids;
  }

  /** Reports every stored term and vote to the checker. */
  private final class RecordingMetaStore implements RaftMetaStore {
    private final int member;
    private final RaftMetaStore delegate;

    private RecordingMetaStore(int member, RaftMetaStore delegate) {
      this.member = member;
      this.delegate = delegate;
    }

    @Override
    public RaftMeta load() {
      RaftMeta meta = delegate.load();
      invariants.onMetaStored(member, meta);
      return meta;
    }

    @Override
    public void store(RaftMeta meta) {
      delegate.store(meta);
      invariants.onMetaStored(member, meta);
    }

    @Override
    public void close() {
      delegate.close();
    }
  }
}
