package io.cairn.broker;

import static io.cairn.broker.GatewayClient.command;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.broker.api.limit.CommandLimitMetrics;
import io.cairn.broker.api.limit.CommandLimiter;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.CommandCodec;
import io.cairn.protocol.api.CommandRequest;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.scheduler.Clock;
import io.cairn.transport.TransportConfig;
import io.cairn.transport.netty.NettyMessagingService;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The partition's limit of client commands in flight on a real three-broker cluster (netty, raft,
 * RocksDB): a burst far below capacity is taken whole; a leader that cannot commit admits its limit
 * and refuses the rest at once, and answers what it admitted once it can commit again.
 */
final class BrokerCommandLimitTest {

  private static final int PARTITION = 1;
  private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(90);

  @TempDir Path directory;
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @AfterEach
  void closeEverything() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
  }

  @Test
  void shouldAnswerABurstOf200DepositsWithoutBackpressure() throws Exception {
    // given three brokers, one partition replicated on all, and an account
    BrokerTestCluster cluster = cluster(Map.of());
    String account = account(cluster);
    Broker leader = leaderBroker(cluster);
    NettyMessagingService raw = rawClient(leader);

    // when 200 deposits arrive at once
    List<CompletableFuture<byte[]>> burst = new ArrayList<>();
    for (int i = 1; i <= 200; i++) {
      burst.add(deposit(raw, leader.nodeId(), account, i));
    }

    // then every one is answered OK: none is shed, none times out
    Map<ResponseStatus, Integer> statuses = new TreeMap<>();
    List<String> refusals = new ArrayList<>();
    for (CompletableFuture<byte[]> future : burst) {
      ApiResponse<Record> response =
          CommandCodec.decodeResponse(future.get(ANSWER_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
      statuses.merge(response.status(), 1, Integer::sum);
      if (response instanceof ApiResponse.Failure<Record> failure && refusals.size() < 3) {
        refusals.add(failure.reason());
      }
    }
    assertThat(statuses)
        .as("answers, e.g. %s", refusals)
        .containsExactly(Map.entry(ResponseStatus.OK, 200));
    assertThat(cluster.client().balance(PARTITION, account).balance()).isEqualTo(200 * 201 / 2);
    CommandLimiter limiter = leader.commandLimiter(PARTITION).orElseThrow();
    assertThat(limiter.rejected()).isZero();
    assertThat(limiter.inFlight()).isZero();
    assertThat(
            leader
                .meterRegistry()
                .get(CommandLimitMetrics.REJECTED)
                .tag("partition", "1")
                .functionCounter()
                .count())
        .isZero();
  }

  @Test
  void shouldRefuseTheExcessAtOnceWhileTheLeaderCannotCommitAndAnswerTheAdmittedOnesAfter()
      throws Exception {
    // given three brokers whose commands may wait long (and whose followers wait long before
    // they stand for election: a restarted one hears from the leader first), an account, and a
    // leader that cannot commit: both followers are stopped
    BrokerTestCluster cluster =
        cluster(
            Map.of(
                "CAIRN_PROCESSING_COMMANDTIMEOUT", "120s",
                "CAIRN_RAFT_ELECTIONTIMEOUT", "4s"));
    String account = account(cluster);
    Broker leader = leaderBroker(cluster);
    NettyMessagingService raw = rawClient(leader);
    List<Integer> followers = new ArrayList<>();
    for (Broker broker : cluster.brokers()) {
      if (broker != leader) {
        followers.add(broker.nodeId());
      }
    }
    followers.forEach(cluster::stop);
    HostedPartition partition = leader.partitions().get(PARTITION).orElseThrow();
    long committed = partition.partition().logStream().commitPosition();
    CommandLimiter limiter = leader.commandLimiter(PARTITION).orElseThrow();
    int limit = limiter.limit();
    assertThat(limiter.inFlight()).isZero();

    // when the limit and 300 more deposits of 1 arrive
    List<CompletableFuture<byte[]>> burst = new ArrayList<>();
    for (int i = 0; i < limit + 300; i++) {
      burst.add(deposit(raw, leader.nodeId(), account, 1));
    }

    // then 300 are refused at once, while nothing could commit; the others wait
    await("300 answers")
        .atMost(ANSWER_TIMEOUT)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> burst.stream().filter(CompletableFuture::isDone).count() >= 300);
    List<ApiResponse<Record>> early = new ArrayList<>();
    for (CompletableFuture<byte[]> future : burst) {
      if (future.isDone()) {
        early.add(CommandCodec.decodeResponse(future.join()));
      }
    }
    assertThat(partition.partition().logStream().commitPosition()).isEqualTo(committed);
    assertThat(early).hasSize(300);
    assertThat(early)
        .allSatisfy(
            response -> {
              assertThat(response.status()).isEqualTo(ResponseStatus.BACKPRESSURE);
              assertThat(((ApiResponse.Failure<Record>) response).reason())
                  .startsWith(
                      "Expected fewer than "
                          + limit
                          + " commands in flight on partition 1, but "
                          + limit
                          + " are (node "
                          + leader.nodeId())
                  .endsWith("retry later");
            });
    assertThat(limiter.inFlight()).isEqualTo(limit);
    assertThat(limiter.rejected()).isEqualTo(300);

    // and a backup's checkpoint is not refused although clients filled the limit
    CompletableFuture<byte[]> checkpoint =
        raw.sendAndReceive(
            leader.nodeId(),
            ApiDescriptor.TYPE_COMMAND,
            CommandCodec.encodeRequest(
                new CommandRequest(
                    PARTITION,
                    command(
                        CheckpointIntent.CREATE,
                        new CheckpointValue(
                            5, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP)))),
            ANSWER_TIMEOUT);
    assertThat(limiter.rejected()).isEqualTo(300);

    // when one follower comes back: a quorum again
    cluster.restart(followers.get(0));

    // then every admitted deposit is answered OK (none timed out), and the checkpoint taken
    Map<ResponseStatus, Integer> statuses = new TreeMap<>();
    List<String> refusals = new ArrayList<>();
    for (CompletableFuture<byte[]> future : burst) {
      ApiResponse<Record> response =
          CommandCodec.decodeResponse(future.get(ANSWER_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
      statuses.merge(response.status(), 1, Integer::sum);
      if (response instanceof ApiResponse.Failure<Record> failure
          && !early.contains(response)
          && refusals.size() < 3) {
        refusals.add(failure.reason());
      }
    }
    assertThat(statuses)
        .as("answers, e.g. %s", refusals)
        .containsExactly(
            Map.entry(ResponseStatus.OK, limit), Map.entry(ResponseStatus.BACKPRESSURE, 300));
    ApiResponse<Record> created =
        CommandCodec.decodeResponse(checkpoint.get(ANSWER_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
    assertThat(created.status()).as("%s", created).isEqualTo(ResponseStatus.OK);
    assertThat(((ApiResponse.Ok<Record>) created).body().metadata().intent())
        .isEqualTo(CheckpointIntent.CREATED);
    assertThat(limiter.inFlight()).isZero();
    assertThat(cluster.client().balance(PARTITION, account).balance()).isEqualTo(limit);
  }

  private BrokerTestCluster cluster(Map<String, String> env) {
    BrokerTestCluster cluster =
        BrokerTestCluster.builder(directory).brokers(3).replicationFactor(3).env(env).build();
    closeables.add(cluster);
    cluster.awaitReady();
    return cluster;
  }

  private static String account(BrokerTestCluster cluster) {
    String account = LedgerAccountsForTest.on(PARTITION, 1, "limit", 1).get(0);
    cluster
        .client()
        .execute(PARTITION, command(AccountIntent.CREATE, new AccountValue(account, 0)));
    return account;
  }

  private static Broker leaderBroker(BrokerTestCluster cluster) {
    HostedPartition leader = cluster.leaderReplica(PARTITION);
    for (Broker broker : cluster.brokers()) {
      if (broker.partitions().get(PARTITION).map(p -> p == leader).orElse(false)) {
        return broker;
      }
    }
    throw new AssertionError("no broker hosts the leader of partition " + PARTITION);
  }

  private NettyMessagingService rawClient(Broker broker) {
    NettyMessagingService transport =
        new NettyMessagingService(
            TransportConfig.builder(GatewayClient.NODE_ID + 1)
                .bindPort(0)
                .ioThreadCount(1)
                .member(broker.nodeId(), broker.transportAddress())
                .build(),
            Clock.system(),
            new SimpleMeterRegistry());
    transport.start();
    closeables.add(transport);
    return transport;
  }

  private static CompletableFuture<byte[]> deposit(
      NettyMessagingService transport, int nodeId, String account, long amount) {
    return transport.sendAndReceive(
        nodeId,
        ApiDescriptor.TYPE_COMMAND,
        CommandCodec.encodeRequest(
            new CommandRequest(
                PARTITION, command(DepositIntent.DEPOSIT, new DepositValue(account, amount)))),
        ANSWER_TIMEOUT);
  }
}
