package io.cairn.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.gateway.v1.TakeBackupRequest;
import io.cairn.protocol.api.ApiDescriptor;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The management HTTP endpoints over real HTTP, with RFC 7807 problem details. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class ManagementHttpTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private GatewayHarness harness;

  @BeforeAll
  void start() {
    harness = new GatewayHarness(3, 2, config -> config.httpMaxBodyBytes(1024)).awaitReady();
  }

  @AfterAll
  void stop() {
    harness.close();
  }

  @BeforeEach
  void reset() {
    harness.reset();
  }

  private static JsonNode json(HttpResponse<String> response) throws Exception {
    return JSON.readTree(response.body());
  }

  /** Checks an RFC 7807 problem and returns its detail. */
  private static String problem(HttpResponse<String> response, int status, String path)
      throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    JsonNode body = json(response);
    assertThat(body.get("type").asText()).isEqualTo("about:blank");
    assertThat(body.get("status").asInt()).isEqualTo(status);
    assertThat(body.get("title").asText()).isNotBlank();
    assertThat(body.get("instance").asText()).isEqualTo(path);
    return body.get("detail").asText();
  }

  @Test
  void shouldServePrometheusMetricsHealthAndReadiness() throws Exception {
    harness.ledger.createAccount(
        io.cairn.gateway.v1.CreateAccountRequest.newBuilder().setAccountId("somebody").build());
    harness.ledger.getAccount(
        io.cairn.gateway.v1.GetAccountRequest.newBuilder().setAccountId("somebody").build());
    HttpResponse<String> metrics = harness.httpGet("/metrics");
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
    assertThat(metrics.body())
        .contains("cairn_gateway_requests_total{node=\"1000\",operation=\"GetAccount\"")
        .contains("cairn_gateway_topology_partitions_leaderless{node=\"1000\"} 0.0");

    HttpResponse<String> health = harness.httpGet("/health");
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(json(health).get("status").asText()).isEqualTo("UP");

    HttpResponse<String> ready = harness.httpGet("/ready");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(json(ready).get("partitionCount").asInt()).isEqualTo(3);
  }

  @Test
  void shouldCountEveryRequestBeforeAnsweringIt() throws Exception {
    double before = harness.counter(GatewayMetrics.REQUESTS, "operation", "http-health");

    for (int i = 1; i <= 20; i++) {
      assertThat(harness.httpGet("/health").statusCode()).isEqualTo(200);

      // whoever got the answer finds the request counted already
      assertThat(harness.counter(GatewayMetrics.REQUESTS, "operation", "http-health"))
          .as("requests counted after answer %s", i)
          .isEqualTo(before + i);
    }
  }

  @Test
  void shouldNotBeReadyWhileAPartitionHasNoLeader() throws Exception {
    harness.broker(1).follow(2, 2);
    harness.refresh();

    assertThat(problem(harness.httpGet("/ready"), 503, "/ready"))
        .isEqualTo("Expected a known leader for every partition, but partitions [2] have none");
  }

  @Test
  void shouldTakeABackupWithAcceptedAndShowIt() throws Exception {
    HttpResponse<String> taken = harness.httpPost("/actuator/backups", "{\"backupId\": 7}");

    assertThat(taken.statusCode()).isEqualTo(202);
    assertThat(json(taken).get("message").asText())
        .isEqualTo(
            "A backup with id 7 has been scheduled. Use GET actuator/backups/7 to monitor the status.");
    assertThat(harness.cluster.checkpoint(3)).isEqualTo(7);
    assertThat(json(taken).get("backupId").asLong()).isEqualTo(7);
    assertThat(json(taken).get("partitions")).hasSize(3);
    JsonNode created = json(taken).get("partitions").get(2);
    assertThat(created.get("partitionId").asInt()).isEqualTo(3);
    assertThat(created.get("created").asBoolean()).isTrue();
    assertThat(created.get("checkpointId").asLong()).isEqualTo(7);
    assertThat(created.get("checkpointPosition").asLong()).isPositive();

    HttpResponse<String> shown = harness.httpGet("/actuator/backups/7");
    assertThat(shown.statusCode()).isEqualTo(200);
    JsonNode backup = json(shown);
    assertThat(backup.get("backupId").asLong()).isEqualTo(7);
    assertThat(backup.get("state").asText()).isEqualTo("COMPLETED");
    assertThat(backup.has("failureReason")).isFalse();
    assertThat(backup.get("details")).hasSize(3);
    JsonNode partition = backup.get("details").get(0);
    assertThat(partition.get("partitionId").asInt()).isEqualTo(1);
    assertThat(partition.get("state").asText()).isEqualTo("COMPLETED");
    assertThat(partition.get("brokerVersion").asText()).isEqualTo(FakeCluster.VERSION);
    assertThat(partition.get("checkpointPosition").asLong()).isPositive();
    assertThat(partition.get("createdAt").asText()).isEqualTo("2023-11-14T22:13:20.007Z");

    HttpResponse<String> listed = harness.httpGet("/actuator/backups");
    assertThat(listed.statusCode()).isEqualTo(200);
    assertThat(json(listed)).hasSize(1);
    assertThat(json(listed).get(0).get("backupId").asLong()).isEqualTo(7);
  }

  @Test
  void shouldAnswerConflictForANonIncreasingId() throws Exception {
    harness.admin.takeBackup(TakeBackupRequest.newBuilder().setBackupId(9).build());

    assertThat(
            problem(
                harness.httpPost("/actuator/backups", "{\"backupId\": 8}"),
                409,
                "/actuator/backups"))
        .startsWith(
            "Expected backupId higher than every existing backup id, but 8 is not higher"
                + " than 9");
  }

  @Test
  void shouldAnswerServiceUnavailableWithoutAllLeaders() throws Exception {
    harness.broker(0).follow(1, 2);
    harness.refresh();

    assertThat(
            problem(
                harness.httpPost("/actuator/backups", "{\"backupId\": 8}"),
                503,
                "/actuator/backups"))
        .contains("partitions [1] have none");
    assertThat(harness.commandsReceived()).isZero();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"backupId\": -4}|Expected backupId >= 1, but was -4",
        "{\"backupId\": 0}|Expected backupId >= 1, but was 0",
        "{}|Expected field backupId (an integer >= 1), but it is missing",
        "{\"backupId\": null}|Expected field backupId (an integer >= 1), but it is missing",
        "{\"backupId\": \"5\"}|Expected backupId to be an integer >= 1 and <= 9223372036854775807,"
            + " but was \"5\"",
        "{\"backupId\": 1.5}|Expected backupId to be an integer >= 1 and <= 9223372036854775807,"
            + " but was 1.5",
        "{\"backupId\": 99999999999999999999}|Expected backupId to be an integer >= 1 and <="
            + " 9223372036854775807, but was 99999999999999999999",
        "[5]|Expected a JSON object {\"backupId\": <integer >= 1>}, but was a JSON array",
        "backupId=5|Expected a JSON object {\"backupId\": <integer >= 1>}, but the body is not JSON"
      })
  void shouldRejectAMalformedTakeBackupBodyNamingTheField(String body, String detail)
      throws Exception {
    try (LogCapture logs = new LogCapture()) {
      assertThat(problem(harness.httpPost("/actuator/backups", body), 400, "/actuator/backups"))
          .startsWith(detail);
      assertThat(logs.atOrAbove(Level.INFO)).isEmpty();
    }
    assertThat(harness.commandsReceived()).isZero();
  }

  @Test
  void shouldRejectAnEmptyBody() throws Exception {
    assertThat(problem(harness.httpPost("/actuator/backups", ""), 400, "/actuator/backups"))
        .isEqualTo("Expected a JSON object {\"backupId\": <integer >= 1>}, but the body is empty");
  }

  @Test
  void shouldRejectAnOversizedBody() throws Exception {
    String body = "{\"backupId\": 5, \"padding\": \"" + "x".repeat(2000) + "\"}";

    assertThat(problem(harness.httpPost("/actuator/backups", body), 413, "/actuator/backups"))
        .startsWith("Expected a request body of at most 1024 bytes, but it was");
    assertThat(harness.commandsReceived()).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"abc", "-1", "0", "12x", "99999999999999999999"})
  void shouldRejectABadIdInThePath(String id) throws Exception {
    String path = "/actuator/backups/" + id;
    assertThat(problem(harness.httpGet(path), 400, path))
        .startsWith("Expected backupId in the path to be an integer >= 1")
        .contains("but was '" + id + "'");
    assertThat(harness.brokers.stream().mapToInt(b -> b.requests(ApiDescriptor.TYPE_BACKUP)).sum())
        .isZero();
  }

  @Test
  void shouldAnswerNotFoundForAMissingBackup() throws Exception {
    assertThat(problem(harness.httpGet("/actuator/backups/42"), 404, "/actuator/backups/42"))
        .startsWith("Expected backup 42 to exist, but no partition has it");
  }

  @Test
  void shouldDeleteWithNoContentAndRefuseOneInProgress() throws Exception {
    harness.httpPost("/actuator/backups", "{\"backupId\": 3}");
    harness.cluster.addBackup(FakeCluster.inProgress(0, 1, 4));

    HttpResponse<String> deleted = harness.httpDelete("/actuator/backups/3");
    assertThat(deleted.statusCode()).isEqualTo(204);
    assertThat(harness.httpGet("/actuator/backups/3").statusCode()).isEqualTo(404);

    assertThat(problem(harness.httpDelete("/actuator/backups/4"), 409, "/actuator/backups/4"))
        .contains("Expected no backup 4 in progress");
  }

  @Test
  void shouldPauseAndResumeExporting() throws Exception {
    assertThat(harness.httpPost("/actuator/exporting/pause", "").statusCode()).isEqualTo(204);
    assertThat(harness.brokers).allSatisfy(b -> assertThat(b.exportingPaused()).isTrue());

    assertThat(harness.httpPost("/actuator/exporting/resume", "").statusCode()).isEqualTo(204);
    assertThat(harness.brokers).allSatisfy(b -> assertThat(b.exportingPaused()).isFalse());
  }

  @Test
  void shouldAnswerMethodNotAllowedAndNotFound() throws Exception {
    HttpResponse<String> wrongMethod =
        harness.send(
            HttpRequest.newBuilder(harness.uri("/actuator/backups"))
                .PUT(HttpRequest.BodyPublishers.ofString("{}")));
    assertThat(problem(wrongMethod, 405, "/actuator/backups"))
        .isEqualTo("Expected method GET or POST on /actuator/backups, but was PUT");
    assertThat(wrongMethod.headers().firstValue("Allow")).hasValue("GET, POST");

    assertThat(
            problem(harness.httpGet("/actuator/exporting/pause"), 405, "/actuator/exporting/pause"))
        .contains("Expected method POST");

    assertThat(problem(harness.httpGet("/nothing/here"), 404, "/nothing/here"))
        .contains("but was /nothing/here");
  }

  @Test
  void shouldServeTheConsoleFromTheRootWithEveryFileItLoads() throws Exception {
    for (String path : new String[] {"/", "/console"}) {
      HttpResponse<String> redirect = harness.httpGet(path);
      assertThat(redirect.statusCode()).as(path).isEqualTo(302);
      // relative: behind a proxy's path prefix it stays under the prefix
      assertThat(redirect.headers().firstValue("Location")).as(path).hasValue("console/");
    }
    HttpResponse<String> page = harness.httpGet("/console/");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
    assertThat(page.headers().firstValue("Content-Security-Policy"))
        .hasValueSatisfying(
            csp -> assertThat(csp).contains("default-src 'none'", "script-src 'self'"));
    assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    // every file the page loads is there, with its type
    java.util.regex.Matcher loads =
        java.util.regex.Pattern.compile("(?:src|href)=\"(?!data:)([^\"#]+)\"").matcher(page.body());
    java.util.List<String> files = new java.util.ArrayList<>();
    while (loads.find()) {
      files.add(loads.group(1));
    }
    assertThat(files).containsExactlyInAnyOrder("console.css", "console.js");
    assertThat(harness.httpGet("/console/console.js").headers().firstValue("Content-Type"))
        .hasValue("text/javascript; charset=utf-8");
    assertThat(harness.httpGet("/console/console.css").headers().firstValue("Content-Type"))
        .hasValue("text/css; charset=utf-8");

    assertThat(problem(harness.httpGet("/console/secrets.txt"), 404, "/console/secrets.txt"))
        .isEqualTo(
            "Expected one of the console's files [index.html, console.css, console.js] under"
                + " /console/, but was 'secrets.txt'");
    assertThat(harness.httpGet("/console/..%2Fpom.xml").statusCode()).isEqualTo(404);
  }

  @Test
  void shouldAnswerTheTopologyWithEveryBrokerAndLeader() throws Exception {
    harness.broker(1).follow(2, 2);
    harness.refresh();
    HttpResponse<String> answer = harness.httpGet("/actuator/topology");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    JsonNode topology = json(answer);
    assertThat(topology.get("partitionCount").asInt()).isEqualTo(3);
    assertThat(topology.get("brokers")).hasSize(2);
    assertThat(topology.get("brokers").findValuesAsText("reachable")).containsOnly("true");
    assertThat(topology.get("partitions")).hasSize(3);
    JsonNode second = topology.get("partitions").get(1);
    assertThat(second.get("leaderNodeId").asInt()).isEqualTo(-1);
    assertThat(second.get("health").asText()).isEqualTo("UNREACHABLE");
    assertThat(topology.get("partitions").get(0).get("health").asText()).isEqualTo("HEALTHY");
  }

  @Test
  void shouldRefuseAChangeABrowserSendsFromAnotherSite() throws Exception {
    for (String origin : new String[] {"https://elsewhere.example", "null"}) {
      HttpResponse<String> refused =
          harness.send(
              HttpRequest.newBuilder(harness.uri("/actuator/backups"))
                  .header("Origin", origin)
                  .header("Content-Type", "text/plain")
                  .POST(HttpRequest.BodyPublishers.ofString("{\"backupId\": 9}")));
      assertThat(problem(refused, 403, "/actuator/backups"))
          .isEqualTo(
              "Expected POST requests from a browser to come from the gateway's own pages ("
                  + harness.uri("/").getRawAuthority()
                  + "), but this one came from origin '"
                  + origin
                  + "'; nothing was done");
    }
    assertThat(harness.cluster.checkpoint(1)).as("nothing taken").isZero();
    HttpResponse<String> foreignDelete =
        harness.send(
            HttpRequest.newBuilder(harness.uri("/actuator/backups/7"))
                .header("Origin", "https://elsewhere.example")
                .DELETE());
    assertThat(foreignDelete.statusCode()).isEqualTo(403);

    // the console's own page, and callers that send no Origin, are served
    HttpResponse<String> own =
        harness.send(
            HttpRequest.newBuilder(harness.uri("/actuator/backups"))
                .header("Origin", "http://" + harness.uri("/").getRawAuthority())
                .POST(HttpRequest.BodyPublishers.ofString("{\"backupId\": 9}")));
    assertThat(own.statusCode()).as(own.body()).isEqualTo(202);
    assertThat(harness.httpGet("/actuator/backups/9").statusCode()).isEqualTo(200);
  }
}
