package io.cairn.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.journal.Journal;
import io.cairn.journal.JournalConfig;
import io.cairn.journal.JournalReader;
import io.cairn.journal.JournalRecord;
import io.cairn.journal.SegmentedJournal;
import io.cairn.raft.log.RaftEntryCodec;
import io.cairn.raft.storage.FileRaftMetaStore;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.ThreadPoolActorScheduler;
import io.cairn.transport.MemberAddress;
import io.cairn.transport.TransportConfig;
import io.cairn.transport.netty.NettyMessagingService;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three members over netty on loopback, real segmented journals and meta files, a thread-pool actor
 * scheduler: 10,000 entries are appended while the leader is killed (closed abruptly) and restarted
 * twice. Every entry acknowledged as committed must be on every member afterwards.
 */
class RaftNettyIT {

  private static final int ENTRIES = 10_000;
  private static final int MAX_OUTSTANDING = 256;

  /** Generous: a slow machine must only make this test slower, never fail it. */
  private static final long TIMEOUT_SECONDS = 60;

  private static final RaftConfig CONFIG =
      RaftConfig.builder()
          .electionTimeout(Duration.ofMillis(600))
          .heartbeatInterval(Duration.ofMillis(100))
          .requestTimeout(Duration.ofMillis(300))
          .build();

  @TempDir Path directory;

  private final ThreadPoolActorScheduler scheduler =
      new ThreadPoolActorScheduler("raft-it", 2, Clock.system(), new SimpleMeterRegistry());
  private final Member[] members = new Member[3];
  private final Map<Long, Acknowledged> acknowledged = new ConcurrentHashMap<>();
  private final AtomicLong positions = new AtomicLong(1);

  private record Acknowledged(long index, long term, long hash) {}

  @AfterEach
  void tearDown() {
    for (Member member : members) {
      if (member != null) {
        member.kill();
      }
    }
    scheduler.close();
  }

  @Test
  void shouldKeepEveryCommittedEntryWhileLeaderIsKilledAndRestartedTwice() throws Exception {
    for (int id = 0; id < 3; id++) {
      members[id] = new Member(id);
      members[id].start();
    }
    introduceAll();

    Deque<CompletableFuture<Void>> outstanding = new ArrayDeque<>();
    int kills = 0;
    Member killed = null;
    int attempts = 0;
    long inFlightAtKills = 0;
    while (acknowledged.size() < ENTRIES) {
      long inFlight = outstanding.stream().filter(f -> !f.isDone()).count();
      if (kills < 2
          && acknowledged.size() >= (kills + 1) * ENTRIES / 3
          && killed == null
          && inFlight > 0) {
        // kill with appends in flight, not on a quiet cluster (else wait for the next append)
        killed = currentLeader().orElseGet(this::awaitLeader);
        inFlightAtKills += inFlight;
        killed.kill();
        kills++;
      } else if (killed != null && acknowledged.size() >= kills * ENTRIES / 3 + 500) {
        killed.start();
        introduceAll();
        killed = null;
      }
      Optional<Member> leader = currentLeader();
      if (leader.isEmpty()) {
        awaitLeader();
        continue;
      }
      while (outstanding.size() >= MAX_OUTSTANDING) {
        outstanding.poll().handle((v, e) -> null).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      }
      outstanding.add(append(leader.get().server));
      attempts++;
    }
    for (CompletableFuture<Void> future : outstanding) {
      future.handle((v, e) -> null).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
    if (killed != null) {
      killed.start();
      introduceAll();
    }

    long highest = acknowledged.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
    await("every member commits " + highest)
        .atMost(Duration.ofSeconds(TIMEOUT_SECONDS))
        .until(
            () ->
                java.util.Arrays.stream(members).allMatch(m -> m.server.commitIndex() >= highest));

    for (Member member : members) {
      member.server.closeAsync().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      Map<Long, Acknowledged> entries = member.readEntries();
      for (Acknowledged ack : acknowledged.values()) {
        assertThat(entries.get(ack.index()))
            .as("member %d entry %d (of %d attempts)", member.id, ack.index(), attempts)
            .isEqualTo(ack);
      }
    }
    System.out.printf(
        "RaftNettyIT: %d acknowledged commits of %d attempts, highest index %d, %d leader kills"
            + " with %d appends in flight%n",
        acknowledged.size(), attempts, highest, kills, inFlightAtKills);
    assertThat(kills).isEqualTo(2);
    assertThat(inFlightAtKills).as("appends in flight when leaders were killed").isPositive();
    assertThat(acknowledged).hasSizeGreaterThanOrEqualTo(ENTRIES);
  }

  private CompletableFuture<Void> append(RaftServer leader) {
    long position = positions.getAndIncrement();
    byte[] payload = ("record-" + position).getBytes();
    long hash = CheckedJournal.hash(new UnsafeBuffer(payload));
    return leader
        .append(position, position, new UnsafeBuffer(payload))
        .thenCompose(
            result -> {
              if (result instanceof AppendResult.Appended appended) {
                return leader
                    .whenCommitted(appended)
                    .thenAccept(
                        index ->
                            acknowledged.put(
                                index, new Acknowledged(index, appended.term(), hash)));
              }
              return CompletableFuture.completedFuture(null);
            });
  }

  private Optional<Member> currentLeader() {
    return java.util.Arrays.stream(members)
        .filter(m -> m.alive && m.server.role() == RaftRole.LEADER)
        .max(java.util.Comparator.comparingLong(m -> m.server.term()));
  }

  private Member awaitLeader() {
    return await("a leader")
        .atMost(Duration.ofSeconds(TIMEOUT_SECONDS))
        .until(this::currentLeader, Optional::isPresent)
        .orElseThrow();
  }

  private void introduceAll() {
    for (Member member : members) {
      if (member.alive) {
        for (Member other : members) {
          member.messaging.setMemberAddress(other.id, new MemberAddress("127.0.0.1", other.port));
        }
      }
    }
  }

  /** One member: its files outlive its process. */
  private final class Member {
    private final int id;
    private final Path home;
    private int port;
    private int lives;
    private boolean alive;
    private Journal journal;
    private NettyMessagingService messaging;
    private RaftServer server;

    private Member(int id) {
      this.id = id;
      this.home = directory.resolve("member-" + id);
    }

    /**
     * Starts the member on a fresh port (the one it had may belong to another process by now);
     * {@link #introduceAll()} then tells every member where it listens.
     */
    private void start() throws Exception {
      java.nio.file.Files.createDirectories(home);
      journal = openJournal();
      messaging =
          new NettyMessagingService(
              TransportConfig.builder(id)
                  .bindHost("127.0.0.1")
                  .bindPort(0)
                  .connectTimeout(Duration.ofSeconds(1))
                  .reconnectBackoffMin(Duration.ofMillis(20))
                  .reconnectBackoffMax(Duration.ofMillis(200))
                  .ioThreadCount(1)
                  .shutdownTimeout(Duration.ofSeconds(2))
                  .build(),
              Clock.system(),
              new SimpleMeterRegistry());
      messaging.start();
      port = messaging.localAddress().port();
      server =
          RaftServer.builder()
              .partitionId(1)
              .localNodeId(id)
              .members(List.of(0, 1, 2))
              .config(CONFIG)
              .journal(journal)
              .metaStore(new FileRaftMetaStore(home.resolve("raft.meta")))
              .snapshotStore(new InMemorySnapshotStore())
              .messagingService(messaging)
              .random(new SplittableRandom(id * 31L + lives++))
              .meterRegistry(new SimpleMeterRegistry())
              .build();
      scheduler.start(server).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      alive = true;
    }

    private Journal openJournal() {
      return SegmentedJournal.open(
          JournalConfig.builder()
              .directory(home.resolve("journal"))
              .name("raft-partition-1")
              .segmentSizeBytes(1024 * 1024)
              .preallocateSegmentFiles(false)
              .build(),
          new SimpleMeterRegistry());
    }

    /** Abrupt: the network goes first, then the process. */
    private void kill() {
      if (!alive) {
        return;
      }
      alive = false;
      messaging.close();
      server
          .closeAsync()
          .orTimeout(TIMEOUT_SECONDS, TimeUnit.SECONDS)
          .handle((v, e) -> null)
          .join();
      journal.close();
    }

    private Map<Long, Acknowledged> readEntries() {
      Map<Long, Acknowledged> entries = new HashMap<>();
      try (JournalReader reader = journal.openReader()) {
        reader.seekToFirst();
        while (reader.hasNext()) {
          JournalRecord record = reader.next();
          var entry = RaftEntryCodec.decode(record.data());
          entries.put(
              record.index(),
              new Acknowledged(record.index(), entry.term(), CheckedJournal.hash(entry.payload())));
        }
      }
      return entries;
    }
  }
}
