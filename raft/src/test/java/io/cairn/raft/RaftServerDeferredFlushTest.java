package io.cairn.raft;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.cairn.transport.sim.SimNetwork;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The actor shell with fsyncs on a flush executor (here: tasks that complete 5 simulated ms later),
 * three members on a deterministic scheduler and simulated network.
 */
class RaftServerDeferredFlushTest {

  private static final Duration FSYNC = Duration.ofMillis(5);

  private final SimClock clock = new SimClock(0);
  private final DeterministicScheduler scheduler = new DeterministicScheduler(clock);
  private final SimNetwork network = new SimNetwork(scheduler, 11);
  private final List<RaftServer> servers = new ArrayList<>();
  private final List<InMemoryJournal> journals = new ArrayList<>();

  @BeforeEach
  void startCluster() {
    for (int id = 0; id < 3; id++) {
      InMemoryJournal journal = new InMemoryJournal();
      journals.add(journal);
      RaftServer server =
          RaftServer.builder()
              .partitionId(1)
              .localNodeId(id)
              .members(List.of(0, 1, 2))
              .config(RaftSimulation.CONFIG)
              .journal(journal)
              .metaStore(new InMemoryMetaStore())
              .snapshotStore(new InMemorySnapshotStore())
              .messagingService(network.endpoint(id))
              .random(new SplittableRandom(id))
              .meterRegistry(new SimpleMeterRegistry())
              .flushExecutor(task -> scheduler.schedule(FSYNC, task))
              .build();
      scheduler.start(server);
      servers.add(server);
    }
    scheduler.runFor(Duration.ofSeconds(2));
  }

  @AfterEach
  void close() {
    scheduler.close();
  }

  @Test
  void shouldCompleteAppendsMadeWhileAFlushRunsAndCommitThemOnEveryMember() {
    RaftServer leader =
        servers.stream().filter(s -> s.role() == RaftRole.LEADER).findFirst().orElseThrow();
    InMemoryJournal journal = journals.get(leader.localNodeId());
    int flushesBefore = journal.flushCount();
    List<CompletableFuture<AppendResult>> appends = new ArrayList<>();
    appends.add(leader.append(1, 1, new UnsafeBuffer(new byte[] {1})));
    scheduler.runFor(Duration.ofMillis(1)); // the first flush is in flight now

    for (int i = 2; i <= 20; i++) {
      appends.add(leader.append(i, i, new UnsafeBuffer(new byte[] {(byte) i})));
      scheduler.runFor(Duration.ofMillis(1));
    }
    scheduler.runFor(Duration.ofMillis(200));

    // every append is flushed and acknowledged, none answered NotLeader for being late
    assertThat(appends)
        .allSatisfy(
            a ->
                assertThat(a)
                    .isCompletedWithValueMatching(r -> r instanceof AppendResult.Appended));
    long last = ((AppendResult.Appended) appends.get(19).join()).index();
    assertThat(servers).allSatisfy(s -> assertThat(s.commitIndex()).isEqualTo(last));
    assertThat(journals).allSatisfy(j -> assertThat(j.flushedIndex()).isEqualTo(last));
    // fsyncs of 5 ms for appends 1 ms apart: each flush covered several appends
    assertThat(journal.flushCount() - flushesBefore).isLessThanOrEqualTo(5);
  }
}
