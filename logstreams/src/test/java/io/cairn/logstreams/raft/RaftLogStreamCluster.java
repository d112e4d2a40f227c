package io.cairn.logstreams.raft;

import io.cairn.journal.JournalConfig;
import io.cairn.journal.SegmentedJournal;
import io.cairn.logstreams.LogStreamConfig;
import io.cairn.raft.RaftConfig;
import io.cairn.raft.RaftRole;
import io.cairn.raft.RaftServer;
import io.cairn.raft.RaftSnapshot;
import io.cairn.raft.RaftSnapshotChunk;
import io.cairn.raft.RaftSnapshotReceiver;
import io.cairn.raft.RaftSnapshotStore;
import io.cairn.raft.storage.FileRaftMetaStore;
import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.cairn.transport.sim.SimNetwork;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * A raft group of three members on one thread (a {@link DeterministicScheduler} and a {@link
 * SimNetwork}), each with a real journal in a temporary directory and a {@link RaftLogStream}.
 * Everything is seeded, so a test runs the same way every time. Public for the stream processor's
 * tests, which run processors over it.
 */
public final class RaftLogStreamCluster implements AutoCloseable {

  public static final int PARTITION = 1;
  public static final RaftConfig RAFT_CONFIG =
      RaftConfig.builder()
          .electionTimeout(Duration.ofMillis(300))
          .heartbeatInterval(Duration.ofMillis(50))
          .requestTimeout(Duration.ofMillis(150))
          .build();
  private static final Duration ELECTION_BOUND = Duration.ofSeconds(30);

  public final SimClock clock = new SimClock(10_000);
  public final DeterministicScheduler scheduler = new DeterministicScheduler(clock);
  public final SimNetwork network;
  public final List<Member> members = new ArrayList<>();

  /** One member: its journal, raft server and log stream. */
  public static final class Member {
    public final int id;
    public final SegmentedJournal journal;
    public final RaftServer raft;
    public final RaftLogStream stream;

    Member(
        final int id,
        final SegmentedJournal journal,
        final RaftServer raft,
        final RaftLogStream stream) {
      this.id = id;
      this.journal = journal;
      this.raft = raft;
      this.stream = stream;
    }
  }

  public RaftLogStreamCluster(final Path directory, final long seed, final LogStreamConfig config) {
    network = new SimNetwork(scheduler, seed);
    final List<Integer> ids = List.of(0, 1, 2);
    for (final int id : ids) {
      final Path memberDirectory = directory.resolve("member-" + id);
      final SegmentedJournal journal =
          SegmentedJournal.open(
              JournalConfig.builder()
                  .directory(memberDirectory.resolve("journal"))
                  .name("raft-partition-" + PARTITION)
                  .segmentSizeBytes(64 * 1024)
                  .preallocateSegmentFiles(false)
                  .build(),
              new SimpleMeterRegistry());
      final RaftServer raft =
          RaftServer.builder()
              .partitionId(PARTITION)
              .localNodeId(id)
              .members(ids)
              .config(RAFT_CONFIG)
              .journal(journal)
              .metaStore(new FileRaftMetaStore(memberDirectory.resolve("raft.meta")))
              .snapshotStore(new NoSnapshots())
              .messagingService(network.endpoint(id))
              .random(new SplittableRandom(seed * 31 + id))
              .meterRegistry(new SimpleMeterRegistry())
              .build();
      final RaftLogStream stream =
          RaftLogStream.open(raft, journal, clock, config, new SimpleMeterRegistry());
      scheduler.start(raft);
      members.add(new Member(id, journal, raft, stream));
    }
  }

  /** Runs until exactly one member leads and every member knows it; returns it. */
  public Member awaitLeader() {
    final long deadline = clock.millis() + ELECTION_BOUND.toMillis();
    while (clock.millis() < deadline) {
      scheduler.runFor(Duration.ofMillis(10));
      final List<Member> leaders =
          members.stream().filter(m -> m.raft.role() == RaftRole.LEADER).toList();
      if (leaders.size() == 1
          && members.stream().allMatch(m -> m.raft.leaderId() == leaders.get(0).id)) {
        return leaders.get(0);
      }
    }
    throw new AssertionError(
        "Expected a leader within " + ELECTION_BOUND + ", but none was elected");
  }

  /** Runs until a member other than {@code deposed} leads among the others. */
  public Member awaitLeaderOtherThan(final Member deposed) {
    final long deadline = clock.millis() + ELECTION_BOUND.toMillis();
    while (clock.millis() < deadline) {
      scheduler.runFor(Duration.ofMillis(10));
      for (final Member member : members) {
        if (member != deposed && member.raft.role() == RaftRole.LEADER) {
          return member;
        }
      }
    }
    throw new AssertionError("Expected a new leader within " + ELECTION_BOUND);
  }

  /** Runs until {@code member} no longer leads (an isolated leader steps down on its own). */
  public void awaitStepDown(final Member member) {
    final long deadline = clock.millis() + ELECTION_BOUND.toMillis();
    while (member.raft.role() == RaftRole.LEADER) {
      if (clock.millis() >= deadline) {
        throw new AssertionError("Expected member " + member.id + " to step down, but it leads");
      }
      scheduler.runFor(Duration.ofMillis(10));
    }
  }

  public Member follower(final Member leader) {
    return members.stream().filter(m -> m != leader).findFirst().orElseThrow();
  }

  public void run(final Duration duration) {
    scheduler.runFor(duration);
  }

  @Override
  public void close() {
    members.forEach(m -> m.stream.close());
    scheduler.close();
    scheduler.runUntilIdle();
    members.forEach(m -> m.journal.close());
  }

  /** A snapshot store that never has a snapshot; these tests never compact. */
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
    public RaftSnapshotReceiver newReceiver(final long index, final long term) {
      return new RaftSnapshotReceiver() {
        @Override
        public long index() {
          return index;
        }

        @Override
        public long term() {
          return term;
        }

        @Override
        public boolean accept(final RaftSnapshotChunk chunk) {
          return false;
        }

        @Override
        public boolean commit() {
          return false;
        }

        @Override
        public void abort() {}
      };
    }
  }
}
