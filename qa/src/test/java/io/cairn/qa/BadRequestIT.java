package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.client.BackupInfo;
import io.cairn.client.CairnClient;
import io.cairn.gateway.v1.CreateAccountRequest;
import io.cairn.gateway.v1.DeleteBackupRequest;
import io.cairn.gateway.v1.DepositRequest;
import io.cairn.gateway.v1.GetAccountRequest;
import io.cairn.gateway.v1.GetBackupRequest;
import io.cairn.gateway.v1.ListBackupsRequest;
import io.cairn.gateway.v1.TakeBackupRequest;
import io.cairn.gateway.v1.TransferRequest;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.qa.support.BrokerProbe;
import io.cairn.qa.support.Calls;
import io.grpc.Status;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Every malformed request — negative id, missing field, unknown account, oversize payload — sent
 * raw to the gateway (the Java client would refuse most of them before sending) gets a clear error
 * naming what is wrong, and changes nothing: no record is written to any partition, no balance and
 * no backup changes. Behind the gateway's check of a transfer's target on another partition, the
 * engine's refund is the backstop: checked with the transfer sent straight to a broker.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class BadRequestIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  private EmbeddedCluster cluster;
  private CairnClient client;
  private HttpClient http;
  private final Map<Integer, String> funded = new TreeMap<>();
  private Snapshot before;

  @BeforeAll
  void startCluster() {
    cluster =
        EmbeddedCluster.builder().brokers(3).partitions(3).replicationFactor(3).build().start();
    cluster.awaitHealthy();
    client = cluster.client();
    http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    for (int partition = 1; partition <= 3; partition++) {
      String account = accountOn(partition, "funded");
      client.createAccount(account);
      client.deposit(account, 1_000);
      funded.put(partition, account);
    }
  }

  @AfterAll
  void closeCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @BeforeEach
  void recordState() {
    before = snapshot();
  }

  @Test
  void shouldRefuseBadBackupIdsNamingTheFieldAndChangeNothing() throws Exception {
    for (long id : List.of(-1L, 0L, Long.MIN_VALUE)) {
      assertThat(
              Calls.grpcFailure(
                      Status.Code.INVALID_ARGUMENT,
                      () ->
                          cluster
                              .admin()
                              .takeBackup(TakeBackupRequest.newBuilder().setBackupId(id).build()))
                  .getDescription())
          .contains("backupId")
          .contains(Long.toString(id));
    }
    // an empty request is a missing id, which is 0
    assertThat(
            Calls.grpcFailure(
                    Status.Code.INVALID_ARGUMENT,
                    () -> cluster.admin().takeBackup(TakeBackupRequest.getDefaultInstance()))
                .getDescription())
        .contains("backupId >= 1");
    Calls.grpcFailure(
        Status.Code.INVALID_ARGUMENT,
        () -> cluster.admin().getBackup(GetBackupRequest.newBuilder().setBackupId(-7).build()));
    Calls.grpcFailure(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cluster.admin().deleteBackup(DeleteBackupRequest.newBuilder().setBackupId(-7).build()));
    assertThat(
            Calls.grpcFailure(
                    Status.Code.INVALID_ARGUMENT,
                    () ->
                        cluster
                            .admin()
                            .listBackups(ListBackupsRequest.newBuilder().setPageSize(-1).build()))
                .getDescription())
        .contains("pageSize");
    assertThat(
            Calls.grpcFailure(
                    Status.Code.INVALID_ARGUMENT,
                    () ->
                        cluster
                            .admin()
                            .listBackups(
                                ListBackupsRequest.newBuilder()
                                    .setPageToken("not-a-token")
                                    .build()))
                .getDescription())
        .contains("pageToken");

    // and over HTTP: problem details with 400 naming the field
    assertProblem(post("/actuator/backups", "{\"backupId\": -1}"), 400, "backupId");
    assertProblem(post("/actuator/backups", "{}"), 400, "backupId");
    assertProblem(post("/actuator/backups", "{\"backupId\": \"seven\"}"), 400, "backupId");
    assertProblem(post("/actuator/backups", "not json"), 400, "JSON");
    assertProblem(send("GET", "/actuator/backups/abc", null), 400, "abc");
    assertProblem(send("DELETE", "/actuator/backups/-3", null), 400, "-3");

    assertNothingChanged();
  }

  @Test
  void shouldRefuseMissingFieldsAndBadAmountsNamingEveryViolationAndChangeNothing() {
    assertThat(
            Calls.grpcFailure(
                    Status.Code.INVALID_ARGUMENT,
                    () -> cluster.ledger().createAccount(CreateAccountRequest.getDefaultInstance()))
                .getDescription())
        .contains("accountId");
    String both =
        Calls.grpcFailure(
                Status.Code.INVALID_ARGUMENT,
                () -> cluster.ledger().deposit(DepositRequest.getDefaultInstance()))
            .getDescription();
    assertThat(both).contains("accountId").contains("amount");
    assertThat(
            Calls.grpcFailure(
                    Status.Code.INVALID_ARGUMENT,
                    () ->
                        cluster
                            .ledger()
                            .deposit(
                                DepositRequest.newBuilder()
                                    .setAccountId(funded.get(1))
                                    .setAmount(-5)
                                    .build()))
                .getDescription())
        .contains("amount")
        .contains("-5");
    assertThat(
            Calls.grpcFailure(
                    Status.Code.INVALID_ARGUMENT,
                    () ->
                        cluster
                            .ledger()
                            .transfer(
                                TransferRequest.newBuilder()
                                    .setFromAccountId(funded.get(1))
                                    .setAmount(10)
                                    .build()))
                .getDescription())
        .contains("toAccountId");
    assertThat(
            Calls.grpcFailure(
                    Status.Code.INVALID_ARGUMENT,
                    () -> cluster.ledger().transfer(transfer(funded.get(1), funded.get(1), 10)))
                .getDescription())
        .contains("differ");
    Calls.grpcFailure(
        Status.Code.INVALID_ARGUMENT,
        () -> cluster.ledger().getAccount(GetAccountRequest.getDefaultInstance()));

    assertNothingChanged();
  }

  @Test
  void shouldRefuseUnknownAccountsNamingThemAndChangeNothing() {
    String unknown = accountOn(1, "unknown");
    assertThat(
            Calls.grpcFailure(
                    Status.Code.NOT_FOUND,
                    () ->
                        cluster
                            .ledger()
                            .deposit(
                                DepositRequest.newBuilder()
                                    .setAccountId(unknown)
                                    .setAmount(5)
                                    .build()))
                .getDescription())
        .contains(unknown);
    assertThat(
            Calls.grpcFailure(
                    Status.Code.NOT_FOUND,
                    () -> cluster.ledger().transfer(transfer(unknown, funded.get(2), 5)))
                .getDescription())
        .contains(unknown);
    assertThat(
            Calls.grpcFailure(
                    Status.Code.NOT_FOUND,
                    () ->
                        cluster
                            .ledger()
                            .getAccount(
                                GetAccountRequest.newBuilder().setAccountId(unknown).build()))
                .getDescription())
        .contains(unknown);
    // a target that does not exist on the source's own partition
    assertThat(
            Calls.grpcFailure(
                    Status.Code.NOT_FOUND,
                    () -> cluster.ledger().transfer(transfer(funded.get(1), unknown, 5)))
                .getDescription())
        .contains(unknown);
    // not bad requests, but refused just as cleanly
    Calls.grpcFailure(
        Status.Code.ALREADY_EXISTS,
        () ->
            cluster
                .ledger()
                .createAccount(
                    CreateAccountRequest.newBuilder().setAccountId(funded.get(3)).build()));
    assertThat(
            Calls.grpcFailure(
                    Status.Code.FAILED_PRECONDITION,
                    () -> cluster.ledger().transfer(transfer(funded.get(1), funded.get(2), 5_000)))
                .getDescription())
        .contains("INSUFFICIENT_FUNDS");

    // the engine refused these after they were written to the log (command, then rejection):
    // the state is what must not change
    assertStateUnchanged();
    Calls.grpcFailure(
        Status.Code.NOT_FOUND,
        () ->
            cluster
                .ledger()
                .getAccount(GetAccountRequest.newBuilder().setAccountId(unknown).build()));
  }

  @Test
  void shouldRefuseATransferToAnUnknownAccountOnAnotherPartitionAndChangeNothing() {
    String unknown = accountOn(1, "elsewhere");
    String source = funded.get(2);

    assertThat(
            Calls.grpcFailure(
                    Status.Code.NOT_FOUND,
                    () -> cluster.ledger().transfer(transfer(source, unknown, 5)))
                .getDescription())
        .contains("toAccountId")
        .contains("'" + unknown + "' does not exist on partition 1")
        .contains("Nothing was sent");

    // the gateway asked partition 1 and refused: no partition's log has a record of it
    assertNothingChanged();
  }

  /**
   * The engine's backstop behind the gateway's check: the same transfer sent straight to the source
   * partition's leader is accepted (DEBITED), the target refuses the credit and the source is
   * refunded. Runs last: the settlement writes records on two partitions, which the other tests'
   * log-position checks must not see.
   */
  @Test
  @Order(Integer.MAX_VALUE)
  void shouldRefundATransferToAnUnknownAccountThatBypassedTheGateway() {
    String unknown = accountOn(1, "bypass");
    String source = funded.get(2);
    Record command =
        new Record(
            RecordMetadata.builder().command(TransferIntent.CREATE).build(),
            new TransferValue(
                source,
                unknown,
                7,
                ValueDescriptor.NO_PARTITION_ID,
                ValueDescriptor.NO_PARTITION_ID));

    ApiResponse<Record> answer;
    try (BrokerProbe probe = new BrokerProbe(cluster)) {
      // resent only while the answer says it was not written (no leader there)
      answer =
          await("partition 2's leader accepts the transfer")
              .atMost(Duration.ofSeconds(30))
              .until(
                  () -> probe.command(cluster.awaitLeader(2), 2, command), BadRequestIT::written);
    }

    Record debited = ((ApiResponse.Ok<Record>) answer).body();
    assertThat(debited.metadata().intent())
        .as("answer %s", debited)
        .isEqualTo(TransferIntent.DEBITED);
    assertThat(((TransferValue) debited.value()).targetPartitionId()).isEqualTo(1);
    await("the refund of transfer " + debited.metadata().key())
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(this::assertStateUnchanged);
    Calls.grpcFailure(
        Status.Code.NOT_FOUND,
        () ->
            cluster
                .ledger()
                .getAccount(GetAccountRequest.newBuilder().setAccountId(unknown).build()));
  }

  private static boolean written(ApiResponse<Record> answer) {
    if (answer instanceof ApiResponse.Failure<Record> failure) {
      if (failure.status() == ResponseStatus.NOT_LEADER
          || failure.status() == ResponseStatus.PARTITION_UNAVAILABLE) {
        return false;
      }
      throw new AssertionError("Expected the command to be written, but got " + failure);
    }
    return true;
  }

  @Test
  void shouldRefuseOversizePayloadsAndChangeNothing() throws Exception {
    // an account id over the engine's 128 bytes
    String longId = "x".repeat(129);
    assertThat(
            Calls.grpcFailure(
                    Status.Code.INVALID_ARGUMENT,
                    () ->
                        cluster
                            .ledger()
                            .createAccount(
                                CreateAccountRequest.newBuilder().setAccountId(longId).build()))
                .getDescription())
        .contains("accountId")
        .contains("128");
    // a message over the gateway's 64 KiB limit
    String hugeId = "y".repeat(100_000);
    Calls.grpcFailure(
        Status.Code.RESOURCE_EXHAUSTED,
        () ->
            cluster
                .ledger()
                .createAccount(CreateAccountRequest.newBuilder().setAccountId(hugeId).build()));
    // an HTTP body over the gateway's 16 KiB limit
    HttpResponse<String> large =
        post("/actuator/backups", "{\"backupId\": 5, \"pad\": \"" + "z".repeat(20_000) + "\"}");
    assertThat(large.statusCode()).isEqualTo(413);
    // the gateway still serves
    assertThat(client.getAccount(funded.get(1)).balance()).isEqualTo(1_000);

    assertNothingChanged();
  }

  /** What a bad request must not change. */
  private record Snapshot(
      Map<String, Long> balances, List<BackupInfo> backups, Map<Integer, Long> nextPositions) {}

  private Snapshot snapshot() {
    Map<String, Long> balances = new TreeMap<>();
    funded.values().forEach(id -> balances.put(id, client.getAccount(id).balance()));
    return new Snapshot(balances, client.listAllBackups(), nextPositions());
  }

  /**
   * Per partition, how far the log moves for one account creation after the last probe: a creation
   * writes the same records each time, so the position after two probes tells whether anything else
   * was written in between.
   */
  private Map<Integer, Long> nextPositions() {
    Map<Integer, Long> next = new TreeMap<>();
    for (int partition = 1; partition <= 3; partition++) {
      long first = client.createAccount(accountOn(partition, "probe")).position();
      long second = client.createAccount(accountOn(partition, "probe")).position();
      next.put(partition, second + (second - first));
    }
    return next;
  }

  /** Refused by the gateway: nothing reached any partition's log, no state changed. */
  private void assertNothingChanged() {
    assertStateUnchanged();
    for (int partition = 1; partition <= 3; partition++) {
      assertThat(client.createAccount(accountOn(partition, "probe")).position())
          .as("position of the next record on partition %s: nothing written since", partition)
          .isEqualTo(before.nextPositions().get(partition));
    }
  }

  /** No balance and no backup changed. */
  private void assertStateUnchanged() {
    Map<String, Long> balances = new TreeMap<>();
    funded.values().forEach(id -> balances.put(id, client.getAccount(id).balance()));
    assertThat(balances).as("balances").isEqualTo(before.balances());
    assertThat(client.listAllBackups()).as("backups").isEqualTo(before.backups());
  }

  private int probes;

  /** A new account id on {@code partition}. */
  private String accountOn(int partition, String prefix) {
    while (true) {
      String id = prefix + "-" + probes++;
      if (cluster.partitionOf(id) == partition) {
        return id;
      }
    }
  }

  private static TransferRequest transfer(String from, String to, long amount) {
    return TransferRequest.newBuilder()
        .setFromAccountId(from)
        .setToAccountId(to)
        .setAmount(amount)
        .build();
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return send("POST", path, body);
  }

  private HttpResponse<String> send(String method, String path, String body) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(cluster.gatewayManagementUri() + path))
            .timeout(Duration.ofSeconds(20))
            .header("Content-Type", "application/json")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void assertProblem(HttpResponse<String> response, int status, String mention)
      throws Exception {
    assertThat(response.statusCode()).as("status of %s", response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
    JsonNode problem = JSON.readTree(response.body());
    assertThat(problem.get("status").asInt()).isEqualTo(status);
    assertThat(problem.get("detail").asText()).contains(mention);
  }
}
