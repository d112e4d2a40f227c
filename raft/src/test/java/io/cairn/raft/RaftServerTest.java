package io.cairn.raft;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cairn.raft.state.QuorumState;
import io.cairn.raft.storage.RaftMeta;
import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.LoggingContext;
import io.cairn.scheduler.SimClock;
import io.cairn.transport.sim.SimNetwork;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The actor shell on a deterministic scheduler and simulated network, three members. */
class RaftServerTest {

  private final SimClock clock = new SimClock(0);
  private final DeterministicScheduler scheduler = new DeterministicScheduler(clock);
  private final SimNetwork network = new SimNetwork(scheduler, 11);
  private final List<RaftServer> servers = new ArrayList<>();
  private final List<SimpleMeterRegistry> registries = new ArrayList<>();
  private final List<InMemoryMetaStore> metas = new ArrayList<>();
  private final List<InMemoryJournal> journals = new ArrayList<>();
  private final List<String> roleChanges = new ArrayList<>();

  @BeforeEach
  void startCluster() {
    for (int id = 0; id < 3; id++) {
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      InMemoryMetaStore meta = new InMemoryMetaStore();
      InMemoryJournal journal = new InMemoryJournal();
      journals.add(journal);
      RaftServer server =
          RaftServer.builder()
              .partitionId(1)
              .localNodeId(id)
              .members(List.of(0, 1, 2))
              .config(RaftSimulation.CONFIG)
              .journal(journal)
              .metaStore(meta)
              .snapshotStore(new InMemorySnapshotStore())
              .messagingService(network.endpoint(id))
              .random(new SplittableRandom(id))
              .meterRegistry(registry)
              .build();
      int member = id;
      server.addRoleListener(
          (role, term, leader) -> roleChanges.add(member + ":" + role + ":" + term));
      scheduler.start(server);
      servers.add(server);
      registries.add(registry);
      metas.add(meta);
    }
    scheduler.runFor(Duration.ofSeconds(2));
  }

  @AfterEach
  void close() {
    scheduler.close();
  }

  @Test
  void shouldElectOneLeaderThatEveryMemberKnows() {
    RaftServer leader = leader();

    for (RaftServer server : servers) {
      assertThat(server.leaderId()).isEqualTo(leader.localNodeId());
      assertThat(server.term()).isEqualTo(leader.term());
    }
    assertThat(roleChanges).contains(leader.localNodeId() + ":LEADER:" + leader.term());
    assertThat(metas.get(leader.localNodeId()).meta())
        .isEqualTo(new RaftMeta(leader.term(), leader.localNodeId()));
  }

  @Test
  void shouldAcknowledgeAppendOnLeaderAndCommitIt() {
    RaftServer leader = leader();

    CompletableFuture<AppendResult> append =
        leader.append(1, 3, new UnsafeBuffer("abc".getBytes()));
    scheduler.runUntilIdle();
    AppendResult.Appended appended = (AppendResult.Appended) append.join();
    CompletableFuture<Long> committed = leader.whenCommitted(appended);
    scheduler.runFor(Duration.ofMillis(100));

    assertThat(appended.lowestPosition()).isEqualTo(1);
    assertThat(appended.highestPosition()).isEqualTo(3);
    assertThat(appended.term()).isEqualTo(leader.term());
    assertThat(committed).isCompletedWithValue(appended.index());
    assertThat(servers).allSatisfy(s -> assertThat(s.commitIndex()).isEqualTo(appended.index()));
  }

  @Test
  void shouldFlushOnceForAppendsQueuedTogether() {
    RaftServer leader = leader();
    InMemoryJournal journal = journals.get(leader.localNodeId());
    int flushesBefore = journal.flushCount();

    List<CompletableFuture<AppendResult>> appends = new ArrayList<>();
    for (int i = 1; i <= 20; i++) {
      appends.add(leader.append(i, i, new UnsafeBuffer(new byte[] {(byte) i})));
    }
    scheduler.runUntilIdle();

    assertThat(appends)
        .allSatisfy(a -> assertThat(a.join()).isInstanceOf(AppendResult.Appended.class));
    assertThat(journal.flushCount() - flushesBefore).isEqualTo(1);
  }

  @Test
  void shouldAnswerNotLeaderWithLeaderIdOnFollower() {
    RaftServer leader = leader();
    RaftServer follower = servers.stream().filter(s -> s != leader).findFirst().orElseThrow();

    CompletableFuture<AppendResult> append = follower.append(1, 1, new UnsafeBuffer(new byte[1]));
    scheduler.runUntilIdle();

    assertThat(append.join())
        .isEqualTo(new AppendResult.NotLeader(leader.localNodeId(), leader.term()));
  }

  @Test
  void shouldPublishRoleTermCommitAndLatencyMetrics() {
    RaftServer leader = leader();
    CompletableFuture<AppendResult> append = leader.append(1, 1, new UnsafeBuffer(new byte[1]));
    scheduler.runFor(Duration.ofMillis(100));
    assertThat(append).isCompleted();

    SimpleMeterRegistry registry = registries.get(leader.localNodeId());
    String node = Integer.toString(leader.localNodeId());
    assertThat(
            registry.get(RaftMetrics.ROLE).tag("partition", "1").tag("node", node).gauge().value())
        .isEqualTo(RaftRole.LEADER.code());
    assertThat(registry.get(RaftMetrics.TERM).gauge().value()).isEqualTo(leader.term());
    assertThat(registry.get(RaftMetrics.COMMIT_INDEX).gauge().value())
        .isEqualTo(leader.commitIndex());
    assertThat(registry.get(RaftMetrics.ELECTIONS).counter().count()).isGreaterThanOrEqualTo(1);
    assertThat(registry.get(RaftMetrics.APPEND_LATENCY).timer().count()).isEqualTo(1);
    assertThat(registry.get(RaftMetrics.COMMIT_LATENCY).timer().count()).isEqualTo(1);
  }

  @Test
  void shouldElectNewLeaderAndKeepCommittedEntryWhenLeaderIsIsolated() {
    RaftServer leader = leader();
    long oldTerm = leader.term();
    CompletableFuture<AppendResult> append = leader.append(1, 1, new UnsafeBuffer(new byte[] {7}));
    scheduler.runFor(Duration.ofMillis(100));
    AppendResult.Appended appended = (AppendResult.Appended) append.join();

    network.isolate(leader.localNodeId());
    scheduler.runFor(Duration.ofSeconds(3));

    RaftServer next = leader();
    assertThat(next).isNotSameAs(leader);
    assertThat(next.node().log().termAt(appended.index())).isEqualTo(appended.term());
    // the isolated member stepped down and, thanks to pre-vote, never raised its term
    assertThat(leader.role()).isIn(RaftRole.FOLLOWER, RaftRole.PRE_CANDIDATE);
    assertThat(leader.term()).isEqualTo(oldTerm);

    network.heal();
    scheduler.runFor(Duration.ofSeconds(1));

    assertThat(leader()).isSameAs(next);
    assertThat(leader.term()).isEqualTo(next.term());
    assertThat(leader.leaderId()).isEqualTo(next.localNodeId());
  }

  @Test
  void shouldLogRoleChangesWithTheMembersNodeAndPartitionIdInTheMdc() {
    // given a listener on the role transitions' log
    Logger logger = (Logger) LoggerFactory.getLogger(QuorumState.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    Level level = logger.getLevel();
    logger.setLevel(Level.INFO);
    logger.addAppender(appender);
    try {
      // when the leader is cut off, so that every member changes its role
      network.isolate(leader().localNodeId());
      scheduler.runFor(Duration.ofSeconds(3));
    } finally {
      logger.detachAppender(appender);
      logger.setLevel(level);
    }

    // then each line carries the partition and the node that logged it (all share one thread)
    Pattern node = Pattern.compile("^Partition 1 node (\\d+)");
    assertThat(appender.list).hasSizeGreaterThanOrEqualTo(3);
    for (ILoggingEvent event : appender.list) {
      Matcher matcher = node.matcher(event.getFormattedMessage());
      assertThat(matcher.find()).as(event.getFormattedMessage()).isTrue();
      assertThat(event.getMDCPropertyMap())
          .as(event.getFormattedMessage())
          .containsEntry(LoggingContext.PARTITION_ID, "1")
          .containsEntry(LoggingContext.NODE_ID, matcher.group(1));
    }
    assertThat(
            appender.list.stream()
                .map(event -> event.getMDCPropertyMap().get(LoggingContext.NODE_ID))
                .distinct())
        .as("members that logged")
        .hasSizeGreaterThanOrEqualTo(2);
  }

  private RaftServer leader() {
    List<RaftServer> leaders = servers.stream().filter(s -> s.role() == RaftRole.LEADER).toList();
    assertThat(leaders).hasSize(1);
    return leaders.get(0);
  }
}
