package io.cairn.broker.partition;

import static io.cairn.broker.partition.TestLedgerComponent.command;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.raft.RaftConfig;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.ThreadPoolActorScheduler;
import io.cairn.transport.TransportConfig;
import io.cairn.transport.netty.NettyMessagingService;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same assembly on real threads (a thread-pool actor scheduler, an I/O thread pool) and netty
 * on loopback: three members process and converge, the leader is stopped and restarted, and every
 * member ends at the same state. Catches what a single-threaded run cannot: futures completing on
 * other threads, actors handing work to each other.
 */
final class PartitionNettyTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final List<Integer> MEMBERS = List.of(0, 1, 2);
  private static final PartitionConfig CONFIG =
      PartitionCluster.CONFIG.toBuilder()
          .raft(
              RaftConfig.builder()
                  .electionTimeout(Duration.ofMillis(600))
                  .heartbeatInterval(Duration.ofMillis(100))
                  .requestTimeout(Duration.ofMillis(300))
                  .build())
          .build();

  @TempDir Path directory;
  private ThreadPoolActorScheduler scheduler;
  private ExecutorService io;
  private final Map<Integer, NettyMessagingService> transports = new HashMap<>();
  private final Map<Integer, Partition> partitions = new HashMap<>();

  @BeforeEach
  void startScheduler() {
    scheduler =
        new ThreadPoolActorScheduler(
            "partition-test", 2, Clock.system(), new SimpleMeterRegistry());
    io = Executors.newFixedThreadPool(2);
  }

  @AfterEach
  void stopEverything() throws InterruptedException {
    for (final Partition partition : new ArrayList<>(partitions.values())) {
      partition.closeAsync().orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
    }
    transports.values().forEach(NettyMessagingService::close);
    scheduler.close();
    io.shutdown();
    assertThat(io.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void shouldConvergeOnRealThreadsAcrossALeaderRestart() {
    // given
    for (final int id : MEMBERS) {
      transports.put(id, transport(id));
    }
    connectTransports();
    for (final int id : MEMBERS) {
      start(id);
    }
    Partition leader = awaitLeader();
    write(leader, command(AccountIntent.CREATE, new AccountValue("a", 0), 1));
    long last = 0;
    for (int i = 1; i <= 200; i++) {
      last = write(leader, command(DepositIntent.DEPOSIT, new DepositValue("a", i), 10 + i));
    }
    awaitConverged(last);
    assertThat(leader.takeSnapshot().orTimeout(10, TimeUnit.SECONDS).join()).isPresent();

    // when the leader stops, the others go on, and it starts again
    final int stopped = leader.nodeId();
    partitions.remove(stopped).closeAsync().orTimeout(10, TimeUnit.SECONDS).join();
    transports.remove(stopped).close();
    leader = awaitLeader();
    for (int i = 1; i <= 50; i++) {
      last = write(leader, command(DepositIntent.DEPOSIT, new DepositValue("a", 1_000), 500 + i));
    }
    awaitConverged(last);
    transports.put(stopped, transport(stopped));
    connectTransports();
    start(stopped);

    // then every member holds the same state, every deposit counted once
    final StateSummary converged = awaitConverged(last);
    assertThat(converged.lastProcessedPosition()).isGreaterThanOrEqualTo(last);
    for (final Partition partition : partitions.values()) {
      assertThat(
              partition
                  .readState(TestLedgerComponent::balances)
                  .orTimeout(5, TimeUnit.SECONDS)
                  .join())
          .isEqualTo(Map.of("a", 20_100L + 50_000L));
      assertThat(partition.health().isHealthy()).isTrue();
    }
  }

  private NettyMessagingService transport(final int id) {
    final NettyMessagingService transport =
        new NettyMessagingService(
            TransportConfig.builder(id).bindPort(0).ioThreadCount(1).build(),
            Clock.system(),
            new SimpleMeterRegistry());
    transport.start();
    return transport;
  }

  private void connectTransports() {
    for (final NettyMessagingService from : transports.values()) {
      for (final Map.Entry<Integer, NettyMessagingService> to : transports.entrySet()) {
        from.setMemberAddress(to.getKey(), to.getValue().localAddress());
      }
    }
  }

  private void start(final int id) {
    final Partition partition =
        Partition.builder()
            .partitionId(1)
            .nodeId(id)
            .members(MEMBERS)
            .layout(PartitionLayout.of(directory.resolve("node-" + id), 1))
            .config(CONFIG)
            .messagingService(transports.get(id))
            .scheduler(scheduler)
            .ioExecutor(io)
            .random(new SplittableRandom(id))
            .components(List.of(new TestLedgerComponent()))
            .meterRegistry(new SimpleMeterRegistry())
            .brokerVersion(PartitionCluster.BROKER_VERSION)
            .open();
    partitions.put(id, partition);
    partition.start().orTimeout(10, TimeUnit.SECONDS).join();
  }

  private Partition awaitLeader() {
    final Partition[] leader = new Partition[1];
    await("a leader every member follows")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(20))
        .until(
            () -> {
              final List<Partition> leaders =
                  partitions.values().stream()
                      .filter(p -> p.role() == PartitionRole.LEADER)
                      .toList();
              if (leaders.size() != 1) {
                return false;
              }
              leader[0] = leaders.get(0);
              return partitions.values().stream()
                  .allMatch(
                      p ->
                          p.leaderId() == leader[0].nodeId()
                              && (p == leader[0] || p.role() == PartitionRole.FOLLOWER));
            });
    return leader[0];
  }

  private long write(final Partition leader, final Record record) {
    final long[] position = new long[1];
    await("the leader to accept a command")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(5))
        .until(
            () -> {
              final WriteResult result = leader.logStream().writer().tryWrite(record);
              if (result instanceof WriteResult.Written written) {
                position[0] = written.lowestPosition();
                return true;
              }
              return false;
            });
    return position[0];
  }

  private StateSummary awaitConverged(final long position) {
    final StateSummary[] summary = new StateSummary[1];
    await("every member at the same state with position >= " + position)
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(50))
        .ignoreExceptions()
        .until(
            () -> {
              final List<StateSummary> summaries = new ArrayList<>();
              for (final Partition partition : partitions.values()) {
                summaries.add(partition.stateSummary().get(5, TimeUnit.SECONDS));
              }
              summary[0] = summaries.get(0);
              return summaries.stream().distinct().count() == 1
                  && summary[0].lastProcessedPosition() >= position;
            });
    return summary[0];
  }
}
