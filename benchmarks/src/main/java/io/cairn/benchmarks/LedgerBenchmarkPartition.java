package io.cairn.benchmarks;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbConfig;
import io.cairn.engine.LedgerColumnFamily;
import io.cairn.engine.LedgerEngine;
import io.cairn.engine.LedgerEngineConfig;
import io.cairn.journal.JournalConfig;
import io.cairn.journal.SegmentedJournal;
import io.cairn.logstreams.LogStreamConfig;
import io.cairn.logstreams.raft.RaftLogStream;
import io.cairn.raft.RaftConfig;
import io.cairn.raft.RaftRole;
import io.cairn.raft.RaftServer;
import io.cairn.raft.RaftSnapshot;
import io.cairn.raft.RaftSnapshotChunk;
import io.cairn.raft.RaftSnapshotReceiver;
import io.cairn.raft.RaftSnapshotStore;
import io.cairn.raft.storage.FileRaftMetaStore;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.ThreadPoolActorScheduler;
import io.cairn.streamprocessor.CommandResponseWriter;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessor;
import io.cairn.streamprocessor.StreamProcessorColumnFamily;
import io.cairn.streamprocessor.StreamProcessorMode;
import io.cairn.streamprocessor.StreamProcessorPhase;
import io.cairn.transport.TransportConfig;
import io.cairn.transport.netty.NettyMessagingService;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

/**
 * One ledger partition as a broker runs it, in one process: {@code memberCount} raft members (netty
 * on loopback, a {@link SegmentedJournal} with the default configuration, a {@link RaftLogStream}),
 * each with its own RocksDB state and stream processor (the leader processes, the others replay),
 * every actor on one {@link ThreadPoolActorScheduler}.
 */
final class LedgerBenchmarkPartition implements AutoCloseable {

  static final int PARTITION_ID = 1;
  private static final long STARTUP_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

  private final ThreadPoolActorScheduler scheduler;
  private final Clock clock;
  private final List<Member> members = new ArrayList<>();
  private Member leader;

  LedgerBenchmarkPartition(
      final Path directory,
      final int memberCount,
      final boolean digest,
      final int threads,
      final Clock clock)
      throws IOException {
    this.clock = clock;
    scheduler =
        new ThreadPoolActorScheduler("ledger-bench", threads, clock, new SimpleMeterRegistry());
    final List<Integer> ids = IntStream.range(0, memberCount).boxed().toList();
    final DbConfig dbConfig = DbConfig.builder().digestMaintained(digest).build();
    for (final int id : ids) {
      members.add(new Member(id, ids, directory.resolve("member-" + id), dbConfig));
    }
    for (final Member member : members) {
      for (final Member other : members) {
        member.messaging.setMemberAddress(other.id, other.messaging.localAddress());
      }
    }
    for (final Member member : members) {
      scheduler.start(member.raft).join();
    }
  }

  /**
   * Waits for a raft leader, then starts a leader stream processor there and followers elsewhere.
   *
   * @param responses where the leader's responses go
   */
  void start(final CommandResponseWriter responses) {
    final long deadline = clock.nanos() + STARTUP_TIMEOUT_NANOS;
    while (leader == null) {
      for (final Member member : members) {
        if (member.raft.role() == RaftRole.LEADER) {
          leader = member;
        }
      }
      if (clock.nanos() > deadline) {
        throw new IllegalStateException("Expected a raft leader within 60 s, but none was elected");
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
    for (final Member member : members) {
      member.startProcessor(
          member == leader ? StreamProcessorMode.LEADER : StreamProcessorMode.FOLLOWER,
          member == leader ? responses : CommandResponseWriter.NONE);
    }
    while (leader.processor.phase() != StreamProcessorPhase.PROCESSING) {
      if (clock.nanos() > deadline) {
        throw new IllegalStateException(
            "Expected the leader to process within 60 s, but it is " + leader.processor.phase());
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
  }

  /** The leader's log stream: clients write commands here. */
  RaftLogStream leaderStream() {
    return leader.stream;
  }

  StreamProcessor leaderProcessor() {
    return leader.processor;
  }

  @Override
  public void close() {
    for (final Member member : members) {
      if (member.processor != null) {
        member.processor.closeAsync().orTimeout(10, TimeUnit.SECONDS).handle((v, e) -> null).join();
      }
      member.stream.close();
      member.raft.closeAsync().orTimeout(10, TimeUnit.SECONDS).handle((v, e) -> null).join();
    }
    for (final Member member : members) {
      member.messaging.close();
      member.journal.close();
      member.db.close();
    }
    scheduler.close();
  }

  private final class Member {
    private final int id;
    private final SegmentedJournal journal;
    private final NettyMessagingService messaging;
    private final RaftServer raft;
    private final RaftLogStream stream;
    private final CairnDb db;
    private StreamProcessor processor;

    private Member(final int id, final List<Integer> ids, final Path home, final DbConfig dbConfig)
        throws IOException {
      this.id = id;
      Files.createDirectories(home);
      journal =
          SegmentedJournal.open(
              JournalConfig.builder()
                  .directory(home.resolve("journal"))
                  .name("raft-partition-" + PARTITION_ID)
                  .build(),
              new SimpleMeterRegistry());
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
      raft =
          RaftServer.builder()
              .partitionId(PARTITION_ID)
              .localNodeId(id)
              .members(ids)
              .config(RaftConfig.builder().electionTimeout(Duration.ofMillis(1000)).build())
              .journal(journal)
              .metaStore(new FileRaftMetaStore(home.resolve("raft-partition-1.meta")))
              .snapshotStore(new NoSnapshots())
              .messagingService(messaging)
              .random(new SplittableRandom(2000L + id))
              .meterRegistry(new SimpleMeterRegistry())
              .build();
      stream =
          RaftLogStream.open(
              raft,
              journal,
              clock,
              LogStreamConfig.builder().maxInFlightAppends(1_000).build(),
              new SimpleMeterRegistry());
      final List<ColumnFamilyDefinition> families = new ArrayList<>(LedgerColumnFamily.all());
      families.addAll(StreamProcessorColumnFamily.all());
      db = CairnDb.open(home.resolve("state"), dbConfig, families, new SimpleMeterRegistry());
    }

    private void startProcessor(
        final StreamProcessorMode mode, final CommandResponseWriter responses) {
      final LedgerEngine engine =
          LedgerEngine.builder()
              .partitionId(PARTITION_ID)
              .db(db)
              .config(LedgerEngineConfig.of(1))
              .clock(clock)
              .meterRegistry(new SimpleMeterRegistry())
              .build();
      processor =
          StreamProcessor.builder()
              .logStream(stream)
              .db(db)
              .processors(engine.register(RecordProcessors.builder()).build())
              .responseWriter(responses)
              .mode(mode)
              .meterRegistry(new SimpleMeterRegistry())
              .build();
      scheduler.start(processor).join();
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
