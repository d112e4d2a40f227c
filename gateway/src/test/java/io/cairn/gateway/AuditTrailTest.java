package io.cairn.gateway;

import static io.cairn.gateway.TestCredentials.withAuthorization;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.auth.Role;
import io.cairn.gateway.security.AuditLog;
import io.cairn.gateway.v1.AdminServiceGrpc;
import io.cairn.gateway.v1.CreateAccountRequest;
import io.cairn.gateway.v1.GetBackupRequest;
import io.cairn.gateway.v1.LedgerServiceGrpc;
import io.cairn.gateway.v1.ListBackupsRequest;
import io.cairn.gateway.v1.RestoreRequest;
import io.cairn.gateway.v1.TakeBackupRequest;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit trail of a secured gateway, read from its logger {@value AuditLog#LOGGER}: one JSON
 * line for every admin call and every refusal, over gRPC and HTTP, none for allowed ledger calls,
 * and no secret in any.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class AuditTrailTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> FIELDS =
      List.of(
          "time",
          "principal",
          "method",
          "roles",
          "remote",
          "transport",
          "operation",
          "outcome",
          "status",
          "durationMs");

  private TestCredentials credentials;
  private GatewayHarness harness;
  private LogCapture audit;

  @BeforeAll
  void start(@TempDir Path dir) {
    audit = new LogCapture(AuditLog.LOGGER);
    credentials = new TestCredentials(dir);
    harness = new GatewayHarness(3, 2, config -> config.auth(credentials.settings())).awaitReady();
  }

  @AfterAll
  void stop() {
    if (harness != null) {
      harness.close();
    }
    audit.close();
  }

  @BeforeEach
  void clear() {
    audit.clear();
  }

  private AdminServiceGrpc.AdminServiceBlockingStub admin(String authorization) {
    return withAuthorization(harness.admin, authorization);
  }

  private LedgerServiceGrpc.LedgerServiceBlockingStub ledger(String authorization) {
    return withAuthorization(harness.ledger, authorization);
  }

  /** Every line written so far, parsed; each checked to hold the fields every line has. */
  private List<JsonNode> lines() {
    List<JsonNode> lines = new ArrayList<>();
    for (String message : audit.messages()) {
      assertThat(message).doesNotContain("\n");
      JsonNode line;
      try {
        line = JSON.readTree(message);
      } catch (IOException e) {
        throw new UncheckedIOException("not JSON: " + message, e);
      }
      List<String> names = new ArrayList<>();
      line.fieldNames().forEachRemaining(names::add);
      assertThat(names).as(message).startsWith(FIELDS.toArray(String[]::new));
      assertThat(Instant.parse(line.get("time").asText())).isBefore(Instant.now().plusSeconds(1));
      assertThat(line.get("remote").asText()).as(message).matches("127\\.0\\.0\\.1:[0-9]+");
      assertThat(line.get("durationMs").asLong()).isNotNegative();
      for (String secret : credentials.secrets()) {
        assertThat(message).doesNotContain(secret);
      }
      lines.add(line);
    }
    return lines;
  }

  private static void assertLine(
      JsonNode line,
      String principal,
      String method,
      String transport,
      String operation,
      String outcome,
      String status) {
    assertThat(line.get("principal").asText()).isEqualTo(principal);
    assertThat(line.get("method").asText()).isEqualTo(method);
    assertThat(line.get("transport").asText()).isEqualTo(transport);
    assertThat(line.get("operation").asText()).isEqualTo(operation);
    assertThat(line.get("outcome").asText()).isEqualTo(outcome);
    assertThat(line.get("status").asText()).isEqualTo(status);
  }

  @Test
  void shouldWriteOneLinePerAdminCallWhateverItsOutcome() {
    admin(credentials.adminAuthorization()).listBackups(ListBackupsRequest.getDefaultInstance());
    assertThatThrownBy(
            () ->
                admin(credentials.bearer("alice@example.test", Role.ADMIN))
                    .getBackup(GetBackupRequest.newBuilder().setBackupId(999).build()))
        .isInstanceOf(StatusRuntimeException.class);

    List<JsonNode> lines = lines();
    assertThat(lines).hasSize(2);
    assertLine(lines.get(0), "ops.admin", "api-key", "grpc", "ListBackups", "ok", "OK");
    assertThat(lines.get(0).get("roles").toString()).isEqualTo("[\"admin\"]");
    assertThat(lines.get(0).has("reason")).isFalse();
    assertLine(
        lines.get(1), "alice@example.test", "jwt", "grpc", "GetBackup", "failed", "NOT_FOUND");
  }

  @Test
  void shouldWriteNothingForAllowedLedgerCalls() {
    ledger(credentials.clientAuthorization())
        .createAccount(CreateAccountRequest.newBuilder().setAccountId("carol").build());
    ledger(credentials.adminAuthorization())
        .createAccount(CreateAccountRequest.newBuilder().setAccountId("dave").build());

    assertThat(lines()).isEmpty();
  }

  @Test
  void shouldWriteEveryRefusalWithItsReason() {
    assertThatThrownBy(
            () ->
                harness.ledger.createAccount(
                    CreateAccountRequest.newBuilder().setAccountId("erin").build()))
        .isInstanceOf(StatusRuntimeException.class);
    assertThatThrownBy(
            () ->
                admin(credentials.wrongSecretAuthorization())
                    .listBackups(ListBackupsRequest.getDefaultInstance()))
        .isInstanceOf(StatusRuntimeException.class);
    assertThatThrownBy(
            () ->
                admin(credentials.clientAuthorization())
                    .takeBackup(TakeBackupRequest.newBuilder().setBackupId(7).build()))
        .isInstanceOf(StatusRuntimeException.class);

    List<JsonNode> lines = lines();
    assertThat(lines).hasSize(3);
    assertLine(
        lines.get(0),
        "unauthenticated",
        "none",
        "grpc",
        "CreateAccount",
        "refused-unauthenticated",
        "UNAUTHENTICATED");
    assertThat(lines.get(0).get("reason").asText()).startsWith("missing: ");
    assertLine(
        lines.get(1),
        "unauthenticated",
        "none",
        "grpc",
        "ListBackups",
        "refused-unauthenticated",
        "UNAUTHENTICATED");
    assertThat(lines.get(1).get("reason").asText()).startsWith("wrong-secret: ");
    assertLine(
        lines.get(2),
        "billing-service",
        "api-key",
        "grpc",
        "TakeBackup",
        "refused-forbidden",
        "PERMISSION_DENIED");
    assertThat(lines.get(2).get("reason").asText())
        .isEqualTo(
            "forbidden: billing-service (api-key) holds roles [client], TakeBackup needs admin");
  }

  @Test
  void shouldAuditTheManagementEndpointsUnderTheirOperations() throws Exception {
    HttpResponse<String> taken =
        harness.send(
            HttpRequest.newBuilder(harness.uri("/actuator/backups"))
                .header("Authorization", credentials.bearer("ops.bob", Role.ADMIN))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"backupId\": 42}")));
    HttpResponse<String> refused = harness.httpDelete("/actuator/backups/42");
    harness.httpGet("/metrics");
    harness.httpGet("/health");

    assertThat(taken.statusCode()).as(taken.body()).isEqualTo(202);
    assertThat(refused.statusCode()).isEqualTo(401);
    List<JsonNode> lines = lines();
    assertThat(lines).hasSize(2);
    assertLine(lines.get(0), "ops.bob", "jwt", "http", "TakeBackup", "ok", "202");
    assertLine(
        lines.get(1),
        "unauthenticated",
        "none",
        "http",
        "DeleteBackup",
        "refused-unauthenticated",
        "401");
  }

  @Test
  void shouldAuditARestoreAndRefuseItToAClientKey() throws Exception {
    // the fake brokers hold data: the restore is refused, and audited as failed
    assertThatThrownBy(
            () ->
                admin(credentials.adminAuthorization())
                    .restore(RestoreRequest.newBuilder().setBackupId(1).build()))
        .isInstanceOf(StatusRuntimeException.class)
        .hasMessageContaining("holds data");
    assertThatThrownBy(
            () ->
                admin(credentials.clientAuthorization())
                    .restore(RestoreRequest.newBuilder().setBackupId(1).build()))
        .isInstanceOf(StatusRuntimeException.class)
        .hasMessageContaining("Expected role admin for Restore");
    HttpResponse<String> http =
        harness.send(
            HttpRequest.newBuilder(harness.uri("/actuator/restore"))
                .header("Authorization", credentials.clientAuthorization())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"backupId\": 1}")));
    assertThat(http.statusCode()).isEqualTo(403);

    List<JsonNode> lines = lines();
    assertThat(lines).hasSize(3);
    assertLine(
        lines.get(0), "ops.admin", "api-key", "grpc", "Restore", "failed", "FAILED_PRECONDITION");
    assertLine(
        lines.get(1),
        "billing-service",
        "api-key",
        "grpc",
        "Restore",
        "refused-forbidden",
        "PERMISSION_DENIED");
    assertLine(
        lines.get(2), "billing-service", "api-key", "http", "Restore", "refused-forbidden", "403");
  }

  @Test
  void shouldAuditAdminCallsAsAnonymousWithAuthenticationOff() {
    audit.clear();
    try (GatewayHarness open = new GatewayHarness().awaitReady()) {
      open.admin.listBackups(ListBackupsRequest.getDefaultInstance());
      open.ledger.createAccount(CreateAccountRequest.newBuilder().setAccountId("frank").build());
    }

    List<JsonNode> lines = lines();
    assertThat(lines).hasSize(1);
    assertLine(lines.get(0), "anonymous", "none", "grpc", "ListBackups", "ok", "OK");
  }
}
