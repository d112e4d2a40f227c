package io.cairn.engine;

import io.cairn.db.CairnDb;
import io.cairn.db.DbConfig;
import io.cairn.db.StateDigest;
import io.cairn.logstreams.LogStreamConfig;
import io.cairn.logstreams.LogStreamReader;
import io.cairn.logstreams.raft.RaftLogStreamCluster;
import io.cairn.protocol.Record;
import io.cairn.raft.RaftRole;
import io.cairn.scheduler.Cancellable;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessor;
import io.cairn.streamprocessor.StreamProcessorMode;
import io.cairn.streamprocessor.StreamProcessorPhase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One ledger partition replicated by a 3-member raft group ({@link RaftLogStreamCluster}: real
 * journals, a seeded {@link io.cairn.transport.sim.SimNetwork}, one {@link
 * io.cairn.scheduler.DeterministicScheduler}), each member with its own RocksDB state and stream
 * processor. {@link #reconcile()} plays the broker's part on role changes, as the stream
 * processor's contract asks: a new leader closes its follower processor and starts a leader on the
 * same (committed-only) state; a member that stops leading discards its state and replays the
 * committed log as a follower from scratch.
 */
public final class RaftLedgerPartition implements AutoCloseable {

  /** A response a leader sent. */
  public record Response(int memberId, long requestId, Record record) {}

  private final RaftLogStreamCluster cluster;
  private final Path directory;
  private final LedgerEngineConfig engineConfig;
  private final InterPartitionSender sender;
  private final DbConfig dbConfig;
  private final List<Member> members = new ArrayList<>();
  private final List<Response> responses = new ArrayList<>();

  public RaftLedgerPartition(
      Path directory,
      long seed,
      LedgerEngineConfig engineConfig,
      InterPartitionSender sender,
      DbConfig dbConfig) {
    this.directory = directory;
    this.engineConfig = engineConfig;
    this.sender = sender;
    this.dbConfig = dbConfig;
    cluster = new RaftLogStreamCluster(directory.resolve("raft"), seed, LogStreamConfig.defaults());
    for (RaftLogStreamCluster.Member raftMember : cluster.members) {
      Member member = new Member(raftMember);
      members.add(member);
      member.start(StreamProcessorMode.FOLLOWER);
    }
  }

  public RaftLogStreamCluster raft() {
    return cluster;
  }

  public List<Member> members() {
    return members;
  }

  public List<Response> responses() {
    return responses;
  }

  /** The member whose processor processes as leader, or null. */
  public Member leader() {
    for (Member member : members) {
      if (member.mode == StreamProcessorMode.LEADER
          && member.processor.phase() == StreamProcessorPhase.PROCESSING
          && member.raft.raft.role() == RaftRole.LEADER) {
        return member;
      }
    }
    return null;
  }

  /** Runs the cluster for {@code duration}, then reconciles processors with roles. */
  public void run(Duration duration) {
    cluster.run(duration);
    reconcile();
  }

  /** Runs until a member processes as leader (at most 30 s simulated). */
  public Member awaitLeader() {
    for (int i = 0; i < 3_000; i++) {
      Member leader = leader();
      if (leader != null) {
        return leader;
      }
      run(Duration.ofMillis(10));
    }
    throw new AssertionError("Expected a processing leader within 30 s, but none");
  }

  /** Starts and stops processors so that each member's mode follows its raft role. */
  public void reconcile() {
    for (Member member : members) {
      boolean leads = member.raft.raft.role() == RaftRole.LEADER;
      boolean stopped =
          member.processor.phase() == StreamProcessorPhase.NOT_LEADER
              || member.processor.phase() == StreamProcessorPhase.FAILED;
      if (member.mode == StreamProcessorMode.LEADER && (!leads || stopped)) {
        member.stop();
        member.discardState();
        member.start(StreamProcessorMode.FOLLOWER);
      } else if (member.mode == StreamProcessorMode.FOLLOWER && leads) {
        member.stop();
        member.start(StreamProcessorMode.LEADER);
      }
    }
    cluster.runUntilIdle();
  }

  @Override
  public void close() {
    members.forEach(Member::stop);
    members.forEach(Member::closeState);
    cluster.close();
  }

  /** One member: its raft log stream and its ledger state. */
  public final class Member {
    private final RaftLogStreamCluster.Member raft;
    private final Path stateDirectory;
    private CairnDb db;
    private LedgerEngine engine;
    private StreamProcessor processor;
    private StreamProcessorMode mode;
    private Cancellable retries;
    private int leaderTerms;

    private Member(RaftLogStreamCluster.Member raft) {
      this.raft = raft;
      this.stateDirectory = directory.resolve("state-" + raft.id);
    }

    public int id() {
      return raft.id;
    }

    public RaftLogStreamCluster.Member raft() {
      return raft;
    }

    public StreamProcessor processor() {
      return processor;
    }

    public StreamProcessorMode mode() {
      return mode;
    }

    public LedgerState state() {
      return engine.state();
    }

    public StateDigest stateDigest() {
      return db.stateDigest();
    }

    /** How often this member started processing as leader. */
    public int leaderTerms() {
      return leaderTerms;
    }

    /** Every committed record of this member's log, in position order. */
    public List<Record> committedRecords() {
      List<Record> records = new ArrayList<>();
      try (LogStreamReader reader = raft.stream.newReader()) {
        while (reader.hasNext()) {
          records.add(reader.next());
        }
      }
      return records;
    }

    private void start(StreamProcessorMode startMode) {
      if (db == null) {
        db =
            CairnDb.open(
                stateDirectory,
                dbConfig,
                InMemoryLedgerCluster.families(),
                new SimpleMeterRegistry());
      }
      TestCheckpoints checkpoints = new TestCheckpoints(db);
      engine =
          LedgerEngine.builder()
              .partitionId(RaftLogStreamCluster.PARTITION)
              .db(db)
              .config(engineConfig)
              .sender(sender)
              .checkpointIds(checkpoints)
              .clock(cluster.clock())
              .meterRegistry(new SimpleMeterRegistry())
              .build();
      RecordProcessors processors =
          engine.register(checkpoints.register(RecordProcessors.builder())).build();
      processor =
          StreamProcessor.builder()
              .logStream(raft.stream)
              .db(db)
              .processors(processors)
              .responseWriter(
                  (streamId, requestId, record) ->
                      responses.add(new Response(raft.id, requestId, record)))
              .mode(startMode)
              .meterRegistry(new SimpleMeterRegistry())
              .build();
      mode = startMode;
      cluster.scheduler().start(processor);
      if (startMode == StreamProcessorMode.LEADER) {
        leaderTerms++;
        retries = engine.startCreditRetries(processor, raft.stream);
      }
    }

    private void stop() {
      if (retries != null) {
        retries.cancel();
        retries = null;
      }
      if (processor != null) {
        processor.closeAsync();
        cluster.runUntilIdle();
        processor = null;
      }
    }

    private void closeState() {
      if (db != null) {
        db.close();
        db = null;
      }
    }

    private void discardState() {
      closeState();
      InMemoryLedgerCluster.deleteRecursively(stateDirectory);
    }
  }
}
