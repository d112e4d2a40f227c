package io.cairn.broker;

import static io.cairn.broker.GatewayClient.command;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.engine.PendingCredit;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RejectionType;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import io.cairn.protocol.api.AccountBalance;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.BackupEntries;
import io.cairn.protocol.api.BackupRequest;
import io.cairn.protocol.api.BackupState;
import io.cairn.protocol.api.BackupStatusEntry;
import io.cairn.protocol.api.BrokerTopology;
import io.cairn.protocol.api.CommandCodec;
import io.cairn.protocol.api.ExportingOperation;
import io.cairn.protocol.api.PartitionReplica;
import io.cairn.protocol.api.ReplicaHealth;
import io.cairn.protocol.api.ReplicaRole;
import io.cairn.protocol.api.ResponseStatus;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers, three partitions, replication factor 3, in one JVM: netty on loopback with
 * ephemeral ports, RocksDB and journals in temporary directories, a filesystem backup store; driven
 * over the gateway-facing API (cairn-command, cairn-query-account, cairn-topology, cairn-backup,
 * cairn-exporting) by a client on its own transport, like a gateway.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class BrokerClusterTest {

  private static final int PARTITIONS = 3;

  private BrokerTestCluster cluster;
  private GatewayClient client;

  @BeforeAll
  void startCluster(@TempDir Path directory) {
    cluster =
        BrokerTestCluster.builder(directory)
            .brokers(3)
            .partitions(PARTITIONS)
            .replicationFactor(3)
            .build();
    client = cluster.client();
    cluster.awaitReady();
  }

  @AfterAll
  void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void shouldReportEveryPartitionWithOneLeaderInTheTopology() {
    // A leader elected meanwhile (a slow machine can miss heartbeats) makes two brokers report
    // leading the same partition until the old one learns of the new term: ask again then.
    await("one leader per partition in the brokers' topologies")
        .atMost(BrokerTestCluster.TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(this::assertTopologyWithOneLeaderPerPartition);
  }

  private void assertTopologyWithOneLeaderPerPartition() {
    // when every broker is asked
    Map<Integer, List<Integer>> leadersByPartition = new HashMap<>();
    for (Broker broker : cluster.brokers()) {
      BrokerTopology topology =
          ((ApiResponse.Ok<BrokerTopology>) client.topology(broker.nodeId())).body();

      // then it reports itself and every partition it hosts
      assertThat(topology.nodeId()).isEqualTo(broker.nodeId());
      assertThat(topology.clusterId()).isEqualTo("test-cluster");
      assertThat(topology.brokerVersion()).isEqualTo(BrokerVersion.current()).isNotBlank();
      assertThat(topology.partitionCount()).isEqualTo(PARTITIONS);
      assertThat(topology.replicationFactor()).isEqualTo(3);
      assertThat(topology.replicas())
          .extracting(PartitionReplica::partitionId)
          .containsExactly(1, 2, 3);
      for (PartitionReplica replica : topology.replicas()) {
        assertThat(replica.health()).isEqualTo(ReplicaHealth.HEALTHY);
        assertThat(replica.healthReason()).isEmpty();
        assertThat(replica.role()).isIn(ReplicaRole.LEADER, ReplicaRole.FOLLOWER);
        if (replica.role() == ReplicaRole.LEADER) {
          assertThat(replica.term()).isPositive();
          leadersByPartition
              .computeIfAbsent(replica.partitionId(), p -> new ArrayList<>())
              .add(broker.nodeId());
        }
      }
    }
    // and each partition has exactly one leader
    assertThat(leadersByPartition).containsOnlyKeys(1, 2, 3);
    leadersByPartition.values().forEach(nodes -> assertThat(nodes).hasSize(1));
  }

  @Test
  void shouldProcessCommandsAndAnswerWithTheProcessorsResponses() {
    // given an account on each partition
    for (int partitionId = 1; partitionId <= PARTITIONS; partitionId++) {
      String id = LedgerAccountsForTest.on(partitionId, PARTITIONS, "cmd", 1).get(0);

      // when it is created, created again and credited
      Record created =
          client.execute(partitionId, command(AccountIntent.CREATE, new AccountValue(id, 0)));
      Record again =
          client.execute(partitionId, command(AccountIntent.CREATE, new AccountValue(id, 0)));
      Record deposited =
          client.execute(
              partitionId, command(DepositIntent.DEPOSIT, new DepositValue(id, 40 + partitionId)));

      // then the stream processor's responses come back
      assertThat(created.metadata().recordType()).isEqualTo(RecordType.EVENT);
      assertThat(created.metadata().intent()).isEqualTo(AccountIntent.CREATED);
      assertThat(created.position()).isPositive();
      assertThat(again.metadata().recordType()).isEqualTo(RecordType.REJECTION);
      assertThat(again.metadata().rejectionType()).isEqualTo(RejectionType.ALREADY_EXISTS);
      assertThat(again.metadata().rejectionReason())
          .contains("Expected accountId '" + id + "' to be new");
      assertThat(deposited.metadata().intent()).isEqualTo(DepositIntent.DEPOSITED);
      assertThat(deposited.position()).isGreaterThan(created.position());
      // and the leader's state answers queries
      assertThat(client.balance(partitionId, id))
          .isEqualTo(new AccountBalance(true, 40 + partitionId));
      String missing = LedgerAccountsForTest.on(partitionId, PARTITIONS, "missing", 1).get(0);
      assertThat(client.balance(partitionId, missing)).isEqualTo(AccountBalance.notFound());
    }
  }

  @Test
  void shouldRefuseWhatABrokerMustNotAccept() {
    String id = LedgerAccountsForTest.on(1, PARTITIONS, "refused", 1).get(0);
    Record create = command(AccountIntent.CREATE, new AccountValue(id, 0));
    // Leader-dependent answers are checked against the leader of the moment: should a new one
    // be elected in between (a slow machine can miss heartbeats), they are asked again.
    int[] leaderAsked = new int[1];
    await("partition 1's follower and leader to refuse")
        .atMost(BrokerTestCluster.TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(
            () -> {
              int leader = client.leaderOf(1);
              assertThat(leader).as("leader of partition 1").isNotNegative();
              int follower = (leader + 1) % 3;

              // a follower names the leader
              ApiResponse<Record> notLeader = client.sendCommand(follower, 1, create);
              assertThat(notLeader.status()).isEqualTo(ResponseStatus.NOT_LEADER);
              assertThat(((ApiResponse.Failure<Record>) notLeader).leaderNodeId())
                  .isEqualTo(leader);

              // inter-partition and backup-manager commands are not for clients
              ApiResponse<Record> credit =
                  client.sendCommand(
                      leader,
                      1,
                      command(
                          CreditIntent.APPLY,
                          new CreditValue((2L << 48) | 9, id, 1_000_000, 2, 1)));
              assertThat(credit.status()).isEqualTo(ResponseStatus.INVALID);
              assertThat(((ApiResponse.Failure<Record>) credit).reason())
                  .contains("CREDIT APPLY is sent only between partitions");
              ApiResponse<Record> confirm =
                  client.sendCommand(
                      leader,
                      1,
                      command(
                          CheckpointIntent.CONFIRM_BACKUP,
                          new CheckpointValue(
                              1, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP)));
              assertThat(confirm.status()).isEqualTo(ResponseStatus.INVALID);
              leaderAsked[0] = leader;
            });
    int leader = leaderAsked[0];

    // a partition that does not exist, a query on the wrong partition, garbage
    assertThat(client.sendCommand(leader, 9, create).status()).isEqualTo(ResponseStatus.INVALID);
    ApiResponse<AccountBalance> wrongPartition = client.query(leader, 2, id);
    assertThat(wrongPartition.status()).isEqualTo(ResponseStatus.INVALID);
    assertThat(((ApiResponse.Failure<AccountBalance>) wrongPartition).reason())
        .contains("belongs to partition 1 of 3");
    ApiResponse<Record> garbage =
        CommandCodec.decodeResponse(
            client.request(leader, ApiDescriptor.TYPE_COMMAND, new byte[] {1, 2, 3}));
    assertThat(garbage.status()).isEqualTo(ResponseStatus.INVALID);

    // exporting: pause, report and resume answer the paused flag after the operation
    assertThat(client.exporting(leader, ExportingOperation.PAUSE)).isEqualTo(ApiResponse.ok(true));
    assertThat(client.exporting(leader, ExportingOperation.STATUS)).isEqualTo(ApiResponse.ok(true));
    assertThat(client.exporting(leader, ExportingOperation.RESUME))
        .isEqualTo(ApiResponse.ok(false));
  }

  @Test
  void shouldCompleteCrossPartitionTransfersAndConserveMoney() {
    // given one funded account per partition
    List<String> accounts = new ArrayList<>();
    for (int partitionId = 1; partitionId <= PARTITIONS; partitionId++) {
      String id = LedgerAccountsForTest.on(partitionId, PARTITIONS, "xfer", 1).get(0);
      accounts.add(id);
      client.execute(partitionId, command(AccountIntent.CREATE, new AccountValue(id, 0)));
      client.execute(partitionId, command(DepositIntent.DEPOSIT, new DepositValue(id, 1_000)));
    }

    // when money moves around the ring, every transfer across partitions
    Map<String, Long> expected = new HashMap<>();
    accounts.forEach(id -> expected.put(id, 1_000L));
    for (int round = 1; round <= 4; round++) {
      for (int from = 0; from < PARTITIONS; from++) {
        int to = (from + round) % PARTITIONS;
        if (to == from) {
          continue;
        }
        long amount = 10L * round + from;
        Record debited =
            client.execute(from + 1, transfer(accounts.get(from), accounts.get(to), amount));
        assertThat(debited.metadata().intent()).isEqualTo(TransferIntent.DEBITED);
        expected.merge(accounts.get(from), -amount, Long::sum);
        expected.merge(accounts.get(to), amount, Long::sum);
      }
    }

    // then every credit arrives, nothing stays pending, and no money was made or lost
    await("every credit applied and acknowledged")
        .atMost(BrokerTestCluster.TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(
            () -> {
              for (int partitionId = 1; partitionId <= PARTITIONS; partitionId++) {
                assertThat(pendingCredits(partitionId)).as("pending on %s", partitionId).isEmpty();
              }
              for (int i = 0; i < PARTITIONS; i++) {
                assertThat(client.balance(i + 1, accounts.get(i)).balance())
                    .isEqualTo(expected.get(accounts.get(i)));
              }
            });
    assertThat(expected.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(3L * 1_000);
  }

  @Test
  void shouldCompleteABackupOfEveryPartitionTakenThroughCommands() throws IOException {
    // given some state on every partition
    for (int partitionId = 1; partitionId <= PARTITIONS; partitionId++) {
      String id = LedgerAccountsForTest.on(partitionId, PARTITIONS, "backup", 1).get(0);
      client.execute(partitionId, command(AccountIntent.CREATE, new AccountValue(id, 0)));
    }

    // when backup 7 is taken: CHECKPOINT CREATE(7) on every partition's leader
    for (int partitionId = 1; partitionId <= PARTITIONS; partitionId++) {
      Record created = client.execute(partitionId, checkpoint(7));
      assertThat(created.metadata().intent()).isEqualTo(CheckpointIntent.CREATED);
      assertThat(((CheckpointValue) created.value()).checkpointId()).isEqualTo(7);
    }

    // then cairn-backup reports every partition's backup 7 COMPLETED, from any broker
    List<BackupStatusEntry> completed = awaitCompleted(7);
    assertThat(completed).extracting(BackupStatusEntry::partitionId).containsExactly(1, 2, 3);
    for (BackupStatusEntry entry : completed) {
      assertThat(entry.details()).isPresent();
      assertThat(entry.details().get().numberOfPartitions()).isEqualTo(PARTITIONS);
      assertThat(entry.details().get().checkpointPosition()).isPositive();
      assertThat(entry.details().get().brokerVersion()).isEqualTo(BrokerVersion.current());
      assertThat(
              cluster
                  .backups()
                  .resolve("manifests")
                  .resolve(Integer.toString(entry.partitionId()))
                  .resolve("7")
                  .resolve(Integer.toString(entry.nodeId()))
                  .resolve("manifest.json"))
          .exists();
    }
    ApiResponse<BackupEntries> listed = client.backup(2, BackupRequest.list("*", "", 100));
    assertThat(((ApiResponse.Ok<BackupEntries>) listed).body().entries())
        .extracting(BackupStatusEntry::checkpointId)
        .contains(7L);

    // and a second backup can be taken and deleted
    for (int partitionId = 1; partitionId <= PARTITIONS; partitionId++) {
      client.execute(partitionId, checkpoint(8));
    }
    awaitCompleted(8);
    assertThat(client.backup(1, BackupRequest.delete(8)).status()).isEqualTo(ResponseStatus.OK);
    ApiResponse<BackupEntries> deleted = client.backup(0, BackupRequest.status(8));
    assertThat(((ApiResponse.Ok<BackupEntries>) deleted).body().entries()).isEmpty();
    assertThat(client.backup(0, BackupRequest.list("12x", "", 10)).status())
        .isEqualTo(ResponseStatus.INVALID);
    try (var files = Files.walk(cluster.backups().resolve("manifests"))) {
      assertThat(files.filter(p -> p.getFileName().toString().equals("manifest.json")).count())
          .isEqualTo(PARTITIONS);
    }
  }

  @Test
  void shouldServeMetricsHealthAndReadiness() throws Exception {
    Broker broker = cluster.broker(1);
    client.topology(1);
    String base = "http://127.0.0.1:" + broker.managementAddress().orElseThrow().getPort();
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    // A replica between roles (an election on a slow machine that missed heartbeats) makes the
    // broker report itself unhealthy for a moment: the answers are asked for again then.
    await("broker 1 to report itself healthy and ready over HTTP")
        .atMost(BrokerTestCluster.TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(() -> assertHealthyAndReadyOverHttp(http, base));

    assertThat(get(http, base + "/nothing").statusCode()).isEqualTo(404);
    HttpResponse<String> post =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/ready"))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(post.statusCode()).isEqualTo(405);
  }

  private static void assertHealthyAndReadyOverHttp(HttpClient http, String base)
      throws IOException, InterruptedException {
    HttpResponse<String> metrics = get(http, base + "/metrics");
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body())
        .contains("cairn_broker_partition_role{")
        .contains("cairn_broker_api_requests_total{")
        .contains("cairn_broker_health{node=\"1\"} 0.0");

    HttpResponse<String> health = get(http, base + "/health");
    assertThat(health.statusCode()).isEqualTo(200);
    JsonNode healthJson = new ObjectMapper().readTree(health.body());
    assertThat(healthJson.get("nodeId").asInt()).isEqualTo(1);
    assertThat(healthJson.get("status").asText()).isEqualTo("HEALTHY");
    assertThat(healthJson.get("partitions")).hasSize(PARTITIONS);
    for (JsonNode partition : healthJson.get("partitions")) {
      assertThat(partition.get("status").asText()).isEqualTo("HEALTHY");
      assertThat(partition.get("role").asText()).isIn("LEADER", "FOLLOWER");
    }

    HttpResponse<String> ready = get(http, base + "/ready");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(new ObjectMapper().readTree(ready.body()).get("ready").asBoolean()).isTrue();
  }

  private static HttpResponse<String> get(HttpClient http, String url)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private List<BackupStatusEntry> awaitCompleted(long checkpointId) {
    List<BackupStatusEntry> entries = new ArrayList<>();
    await("backup " + checkpointId + " COMPLETED on every partition")
        .atMost(BrokerTestCluster.TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              ApiResponse<BackupEntries> response =
                  client.backup(0, BackupRequest.status(checkpointId));
              if (!(response instanceof ApiResponse.Ok<BackupEntries> ok)) {
                return false;
              }
              entries.clear();
              entries.addAll(ok.body().entries());
              assertThat(entries)
                  .allSatisfy(e -> assertThat(e.state()).isNotEqualTo(BackupState.FAILED));
              return entries.size() == PARTITIONS
                  && entries.stream().allMatch(e -> e.state() == BackupState.COMPLETED);
            });
    return List.copyOf(entries);
  }

  private List<PendingCredit> pendingCredits(int partitionId) {
    HostedPartition leader = cluster.leaderReplica(partitionId);
    return leader
        .partition()
        .readState(db -> leader.ledger().engine().orElseThrow().state().pendingCredits())
        .orTimeout(10, TimeUnit.SECONDS)
        .join();
  }

  private static Record transfer(String from, String to, long amount) {
    return command(
        TransferIntent.CREATE,
        new TransferValue(
            from, to, amount, ValueDescriptor.NO_PARTITION_ID, ValueDescriptor.NO_PARTITION_ID));
  }

  private static Record checkpoint(long id) {
    return command(
        CheckpointIntent.CREATE,
        new CheckpointValue(id, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP));
  }
}
