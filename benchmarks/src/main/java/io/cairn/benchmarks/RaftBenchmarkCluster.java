package io.cairn.benchmarks;

import io.cairn.journal.Journal;
import io.cairn.journal.JournalConfig;
import io.cairn.journal.JournalMetrics;
import io.cairn.journal.SegmentedJournal;
import io.cairn.raft.RaftConfig;
import io.cairn.raft.RaftRole;
import io.cairn.raft.RaftServer;
import io.cairn.raft.RaftSnapshot;
import io.cairn.raft.RaftSnapshotReceiver;
import io.cairn.raft.RaftSnapshotStore;
import io.cairn.raft.storage.FileRaftMetaStore;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.ThreadPoolActorScheduler;
import io.cairn.transport.TransportConfig;
import io.cairn.transport.netty.NettyMessagingService;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A three-member raft group in one process, as a broker would run one partition: per member a
 * {@link NettyMessagingService} on a free loopback port, a {@link SegmentedJournal} with the
 * default configuration (128 MiB preallocated segments) and a {@link FileRaftMetaStore} under its
 * own directory; every member's actor on one {@link ThreadPoolActorScheduler}; default {@link
 * RaftConfig}. No snapshots are taken, so the log is never compacted. Closing stops everything and
 * deletes nothing.
 */
final class RaftBenchmarkCluster implements AutoCloseable {

  static final int MEMBERS = 3;
  static final int PARTITION_ID = 1;
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(30);

  private final ThreadPoolActorScheduler scheduler;
  private final List<Member> members = new ArrayList<>();

  /** Starts the members; returns once every actor started (not once a leader is elected). */
  RaftBenchmarkCluster(Path directory, int threads, Clock clock) throws Exception {
    scheduler =
        new ThreadPoolActorScheduler("raft-bench", threads, clock, new SimpleMeterRegistry());
    try {
      for (int id = 0; id < MEMBERS; id++) {
        members.add(new Member(id, directory.resolve("member-" + id), clock));
      }
      for (Member member : members) {
        for (Member other : members) {
          member.messaging.setMemberAddress(other.id, other.messaging.localAddress());
        }
      }
      for (Member member : members) {
        scheduler.start(member.server).get(STARTUP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      }
    } catch (Exception | Error e) {
      close();
      throw e;
    }
  }

  /** The journal configuration of every member (and of the single-node baseline). */
  static JournalConfig journalConfig(Path directory) {
    return JournalConfig.builder()
        .directory(directory)
        .name("raft-partition-" + PARTITION_ID)
        .build(); // defaults: 128 MiB preallocated segments, index density 100
  }

  /** Waits for the first member to become leader. */
  RaftServer awaitLeader() throws Exception {
    CompletableFuture<RaftServer> leader = new CompletableFuture<>();
    for (Member member : members) {
      member.server.addRoleListener(
          (role, term, leaderId) -> {
            if (role == RaftRole.LEADER) {
              leader.complete(member.server);
            }
          });
      if (member.server.role() == RaftRole.LEADER) {
        leader.complete(member.server);
      }
    }
    try {
      return leader.get(STARTUP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "Expected a leader within " + STARTUP_TIMEOUT + ", but roles are " + roles(), e);
    }
  }

  /** Each member's role and term, for error messages. */
  Map<Integer, String> roles() {
    Map<Integer, String> roles = new LinkedHashMap<>();
    members.forEach(m -> roles.put(m.id, m.server.role() + "@" + m.server.term()));
    return roles;
  }

  /** The appends, flushes and flush time each member's journal has counted so far. */
  FlushCounts flushCounts() {
    Map<Integer, long[]> counts = new LinkedHashMap<>();
    for (Member member : members) {
      Timer appends = member.journalRegistry.get(JournalMetrics.APPEND).timer();
      Timer flushes = member.journalRegistry.get(JournalMetrics.FLUSH).timer();
      counts.put(
          member.id,
          new long[] {
            appends.count(), flushes.count(), (long) flushes.totalTime(TimeUnit.NANOSECONDS)
          });
    }
    return new FlushCounts(counts);
  }

  @Override
  public void close() {
    for (Member member : members) {
      member.server.closeAsync().orTimeout(10, TimeUnit.SECONDS).handle((v, e) -> null).join();
    }
    for (Member member : members) {
      member.messaging.close();
      member.journal.close();
    }
    scheduler.close();
  }

  /** Appends and flushes counted by each member's journal metrics, at one moment. */
  record FlushCounts(Map<Integer, long[]> byMember) {

    /** Journal appends per flush on {@code member} between {@code before} and this. */
    double entriesPerFlushSince(FlushCounts before, int member) {
      long appends = byMember.get(member)[0] - before.byMember.get(member)[0];
      long flushes = byMember.get(member)[1] - before.byMember.get(member)[1];
      return flushes == 0 ? Double.NaN : (double) appends / flushes;
    }

    /** Mean flush duration on {@code member} between {@code before} and this, in ms. */
    double flushMsMeanSince(FlushCounts before, int member) {
      long flushes = byMember.get(member)[1] - before.byMember.get(member)[1];
      long nanos = byMember.get(member)[2] - before.byMember.get(member)[2];
      return flushes == 0 ? Double.NaN : nanos / 1e6 / flushes;
    }
  }

  /** One member's parts. */
  private static final class Member {
    private final int id;
    private final MeterRegistry journalRegistry = new SimpleMeterRegistry();
    private final Journal journal;
    private final NettyMessagingService messaging;
    private final RaftServer server;

    private Member(int id, Path home, Clock clock) throws IOException {
      this.id = id;
      Files.createDirectories(home);
      journal = SegmentedJournal.open(journalConfig(home.resolve("journal")), journalRegistry);
      messaging =
          new NettyMessagingService(
              TransportConfig.builder(id)
                  .bindHost("127.0.0.1")
                  .bindPort(0)
                  .ioThreadCount(1)
                  .build(),
              clock,
              new SimpleMeterRegistry());
      messaging.start();
      server =
          RaftServer.builder()
              .partitionId(PARTITION_ID)
              .localNodeId(id)
              .members(List.of(0, 1, 2))
              .config(RaftConfig.defaults())
              .journal(journal)
              .metaStore(new FileRaftMetaStore(home.resolve("raft-partition-1.meta")))
              .snapshotStore(new NoSnapshots())
              .messagingService(messaging)
              .random(new SplittableRandom(1000L + id))
              .meterRegistry(new SimpleMeterRegistry())
              .build();
    }
  }

  /** No snapshot is ever taken: the log is never compacted during a run. */
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
          "Expected no snapshot transfer in the benchmark, but one started at index " + index);
    }
  }
}
