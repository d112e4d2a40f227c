package io.cairn.benchmarks;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbConfig;
import io.cairn.engine.LedgerColumnFamily;
import io.cairn.engine.LedgerEngine;
import io.cairn.engine.LedgerEngineConfig;
import io.cairn.logstreams.LogStreamConfig;
import io.cairn.logstreams.raft.RaftLogStream;
import io.cairn.logstreams.raft.RaftLogStreamCluster;
import io.cairn.raft.RaftConfig;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.ThreadPoolActorScheduler;
import io.cairn.streamprocessor.CommandResponseWriter;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessor;
import io.cairn.streamprocessor.StreamProcessorColumnFamily;
import io.cairn.streamprocessor.StreamProcessorMode;
import io.cairn.streamprocessor.StreamProcessorPhase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;

/**
 * One ledger partition as a broker runs it, in one process: a threaded {@link RaftLogStreamCluster}
 * of {@code memberCount} raft members (netty on loopback, journals with the default configuration,
 * a {@link RaftLogStream} each), and per member its own RocksDB state and stream processor (the
 * leader processes, the others replay), every actor on one {@link ThreadPoolActorScheduler}.
 */
final class LedgerBenchmarkPartition implements AutoCloseable {

  static final int PARTITION_ID = RaftLogStreamCluster.PARTITION;
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

  private final Clock clock;
  private final RaftLogStreamCluster raft;
  private final List<Member> members = new ArrayList<>();
  private Member leader;

  LedgerBenchmarkPartition(
      Path directory, int memberCount, boolean digest, int threads, Clock clock) {
    this.clock = clock;
    raft =
        RaftLogStreamCluster.builder(directory)
            .members(memberCount)
            .threaded("ledger-bench", threads, clock)
            .raftConfig(RaftConfig.builder().electionTimeout(Duration.ofMillis(1000)).build())
            .journal(UnaryOperator.identity())
            .logStreams(LogStreamConfig.builder().maxInFlightAppends(1_000).build())
            .awaitTimeout(STARTUP_TIMEOUT)
            .seed(2000)
            .build();
    DbConfig dbConfig = DbConfig.builder().digestMaintained(digest).build();
    try {
      for (RaftLogStreamCluster.Member member : raft.members) {
        members.add(new Member(member, dbConfig));
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /**
   * Waits for a raft leader, then starts a leader stream processor there and followers elsewhere.
   *
   * @param responses where the leader's responses go
   */
  void start(CommandResponseWriter responses) {
    long deadline = clock.nanos() + STARTUP_TIMEOUT.toNanos();
    RaftLogStreamCluster.Member raftLeader = raft.awaitLeader();
    for (Member member : members) {
      if (member.raft == raftLeader) {
        leader = member;
      }
    }
    for (Member member : members) {
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
    return leader.raft.stream;
  }

  StreamProcessor leaderProcessor() {
    return leader.processor;
  }

  @Override
  public void close() {
    for (Member member : members) {
      if (member.processor != null) {
        member.processor.closeAsync().orTimeout(10, TimeUnit.SECONDS).handle((v, e) -> null).join();
      }
    }
    raft.close();
    members.forEach(m -> m.db.close());
  }

  /** One raft member's state and processor. */
  private final class Member {
    private final RaftLogStreamCluster.Member raft;
    private final CairnDb db;
    private StreamProcessor processor;

    private Member(RaftLogStreamCluster.Member raft, DbConfig dbConfig) {
      this.raft = raft;
      List<ColumnFamilyDefinition> families = new ArrayList<>(LedgerColumnFamily.all());
      families.addAll(StreamProcessorColumnFamily.all());
      db =
          CairnDb.open(
              raft.directory.resolve("state"), dbConfig, families, new SimpleMeterRegistry());
    }

    private void startProcessor(StreamProcessorMode mode, CommandResponseWriter responses) {
      LedgerEngine engine =
          LedgerEngine.builder()
              .partitionId(PARTITION_ID)
              .db(db)
              .config(LedgerEngineConfig.of(1))
              .clock(clock)
              .meterRegistry(new SimpleMeterRegistry())
              .build();
      processor =
          StreamProcessor.builder()
              .logStream(raft.stream)
              .db(db)
              .processors(engine.register(RecordProcessors.builder()).build())
              .responseWriter(responses)
              .mode(mode)
              .meterRegistry(new SimpleMeterRegistry())
              .build();
      LedgerBenchmarkPartition.this.raft.scheduler().start(processor).join();
    }
  }
}
