package io.cairn.streamprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbConfig;
import io.cairn.db.StateDigest;
import io.cairn.logstreams.LogStreamConfig;
import io.cairn.logstreams.LogStreamReader;
import io.cairn.logstreams.WriteResult;
import io.cairn.logstreams.raft.RaftLogStreamCluster;
import io.cairn.logstreams.raft.RaftLogStreamCluster.Member;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.raft.RaftRole;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stream processors on a real raft group (three members, simulated network, real journals and
 * RocksDB): a leader change in the middle of processing, with a follow-up batch that only the old
 * leader had, must end with every member in the same state and every command processed exactly
 * once.
 */
final class StreamProcessorOnRaftTest {

  private static final Duration STEP = Duration.ofMillis(5);

  @TempDir Path directory;
  private RaftLogStreamCluster cluster;
  private final List<PartitionOwner> owners = new ArrayList<>();

  @BeforeEach
  void startCluster() {
    cluster = new RaftLogStreamCluster(directory.resolve("raft"), 7, LogStreamConfig.defaults());
    for (Member member : cluster.members) {
      owners.add(new PartitionOwner(member, directory.resolve("state-" + member.id)));
    }
  }

  @AfterEach
  void stopCluster() {
    owners.forEach(PartitionOwner::stop);
    cluster.runUntilIdle();
    cluster.close();
    owners.forEach(PartitionOwner::closeState);
  }

  @Test
  void shouldConvergeAfterALeaderLosesAFollowUpBatch() {
    // given a leader that processed some commands
    Member first = cluster.awaitLeader();
    run(Duration.ofMillis(50));
    for (int i = 0; i < 5; i++) {
      write(first, new Record(command(AccountIntent.CREATE), new AccountValue("a" + i, 0)));
    }
    run(Duration.ofMillis(300));
    PartitionOwner firstOwner = owners.get(first.id);
    assertThat(firstOwner.processor.phase()).isEqualTo(StreamProcessorPhase.PROCESSING);

    // when a command commits, the leader processes it, and is cut off before its batch leaves
    long deposit =
        write(first, new Record(command(DepositIntent.DEPOSIT), new DepositValue("a0", 40)));
    long deadline = cluster.clock().millis() + 2_000;
    while (firstOwner.processor.lastProcessedPosition() < deposit) {
      assertThat(cluster.clock().millis()).isLessThan(deadline);
      cluster.run(Duration.ofMillis(1));
    }
    cluster.network().isolate(first.id);
    assertThat(TestLedger.balances(firstOwner.db)).containsEntry("a0", 40L);
    long lostBatchEnd = firstOwner.processor.lastWrittenPosition();
    for (Member other : cluster.members) {
      if (other != first) {
        assertThat(other.stream.lastWrittenPosition())
            .as("member %d must not have the batch", other.id)
            .isLessThan(lostBatchEnd);
      }
    }

    // and another member takes over; a client command reaches it before its processor starts, so
    // the re-processed batch lands at other positions than the lost one
    Member second = cluster.awaitLeaderOtherThan(first);
    write(second, new Record(command(AccountIntent.CREATE), new AccountValue("b", 0)));
    run(Duration.ofMillis(400));
    for (int i = 0; i < 5; i++) {
      write(second, new Record(command(DepositIntent.DEPOSIT), new DepositValue("a" + i, i + 1)));
    }
    run(Duration.ofMillis(400));
    cluster.network().heal();
    run(Duration.ofSeconds(3));

    // then every member has the same state, the lost batch was processed again exactly once ...
    Member leader = cluster.awaitLeader();
    run(Duration.ofMillis(500));
    StateDigest expected = owners.get(leader.id).db.stateDigest();
    for (PartitionOwner owner : owners) {
      assertThat(owner.processor.health().isHealthy()).isTrue();
      assertThat(owner.db.stateDigest()).as("member %d", owner.member.id).isEqualTo(expected);
    }
    assertThat(firstOwner.stateDiscards).isPositive();
    List<Record> log = readCommitted(leader);
    Map<Long, Integer> batchesBySource = new HashMap<>();
    for (Record record : log) {
      if (record.metadata().sourcePosition() != RecordMetadata.NO_POSITION
          && record.metadata().recordType() != RecordType.COMMAND) {
        batchesBySource.merge(record.metadata().sourcePosition(), 1, Integer::sum);
      }
    }
    for (Record record : log) {
      if (record.metadata().recordType() == RecordType.COMMAND) {
        assertThat(batchesBySource.get(record.position()))
            .as("follow-ups of the command at %d", record.position())
            .isEqualTo(1);
      }
    }
    // ... and the ledger shows every deposit once
    assertThat(TestLedger.balances(owners.get(leader.id).db))
        .isEqualTo(Map.of("a0", 41L, "a1", 2L, "a2", 3L, "a3", 4L, "a4", 5L, "b", 0L));
  }

  private static RecordMetadata command(io.cairn.protocol.Intent intent) {
    return RecordMetadata.builder().command(intent).build();
  }

  private long write(Member leader, Record record) {
    WriteResult result = leader.stream.writer().tryWrite(record);
    assertThat(result).isInstanceOf(WriteResult.Written.class);
    return ((WriteResult.Written) result).lowestPosition();
  }

  /** Runs in small steps; after each, every owner reacts to its member's role. */
  private void run(Duration duration) {
    long end = cluster.clock().millis() + duration.toMillis();
    while (cluster.clock().millis() < end) {
      cluster.run(STEP);
      owners.forEach(PartitionOwner::reconcile);
    }
  }

  private static List<Record> readCommitted(Member member) {
    List<Record> records = new ArrayList<>();
    try (LogStreamReader reader = member.stream.newReader()) {
      while (reader.hasNext()) {
        records.add(reader.next());
      }
    }
    return records;
  }

  /**
   * What a broker does for one partition on one member: a LEADER processor while the member leads a
   * term, a FOLLOWER processor otherwise; state of a LEADER processor is discarded when its
   * leadership ends (the README's rule), a follower's state is kept.
   */
  private final class PartitionOwner {
    private final Member member;
    private final Path stateDirectory;
    private CairnDb db;
    private StreamProcessor processor;
    private long leaderTerm = -1;
    private int stateDiscards;

    PartitionOwner(Member member, Path stateDirectory) {
      this.member = member;
      this.stateDirectory = stateDirectory;
    }

    void reconcile() {
      boolean leads = member.raft.role() == RaftRole.LEADER;
      long term = member.raft.term();
      if (processor != null && processor.mode() == StreamProcessorMode.LEADER) {
        if (!leads || term != leaderTerm || processor.phase() == StreamProcessorPhase.NOT_LEADER) {
          stop();
          closeState();
          deleteRecursively(stateDirectory);
          stateDiscards++;
        }
      } else if (processor != null && leads) {
        stop(); // a follower's state holds committed records only: the new leader keeps it
      }
      if (processor == null) {
        leaderTerm = leads ? term : -1;
        start(leads ? StreamProcessorMode.LEADER : StreamProcessorMode.FOLLOWER);
      }
    }

    private void start(StreamProcessorMode mode) {
      if (db == null) {
        List<ColumnFamilyDefinition> families = new ArrayList<>(TestLedger.FAMILIES);
        families.addAll(StreamProcessorColumnFamily.all());
        db = CairnDb.open(stateDirectory, DbConfig.defaults(), families, new SimpleMeterRegistry());
      }
      RecordProcessors.Builder builder = RecordProcessors.builder();
      TestLedger.register(db, builder, new ArrayList<>());
      processor =
          StreamProcessor.builder()
              .logStream(member.stream)
              .db(db)
              .processors(builder.build())
              .mode(mode)
              .meterRegistry(new SimpleMeterRegistry())
              .build();
      cluster.scheduler().start(processor);
    }

    void stop() {
      if (processor != null) {
        processor.closeAsync();
        cluster.runUntilIdle();
        processor = null;
      }
    }

    void closeState() {
      if (db != null) {
        db.close();
        db = null;
      }
    }
  }

  private static void deleteRecursively(Path path) {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(path)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
