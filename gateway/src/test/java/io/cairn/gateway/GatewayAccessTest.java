package io.cairn.gateway;

import static io.cairn.gateway.TestCredentials.withAuthorization;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.auth.AuthOutcome;
import io.cairn.auth.Role;
import io.cairn.gateway.v1.AdminServiceGrpc;
import io.cairn.gateway.v1.CreateAccountRequest;
import io.cairn.gateway.v1.GetTopologyRequest;
import io.cairn.gateway.v1.LedgerServiceGrpc;
import io.cairn.gateway.v1.ListBackupsRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.stub.StreamObserver;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway with {@code gateway.security.auth.enabled}, real API keys and tokens, over real gRPC
 * and HTTP: what needs which credentials, and what a refused caller is told.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class GatewayAccessTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private TestCredentials credentials;
  private GatewayHarness harness;

  @BeforeAll
  void start(@TempDir Path dir) {
    credentials = new TestCredentials(dir);
    harness = new GatewayHarness(3, 2, config -> config.auth(credentials.settings())).awaitReady();
  }

  @AfterAll
  void stop() {
    if (harness != null) {
      harness.close();
    }
  }

  private LedgerServiceGrpc.LedgerServiceBlockingStub ledger(String authorization) {
    return withAuthorization(harness.ledger, authorization);
  }

  private AdminServiceGrpc.AdminServiceBlockingStub admin(String authorization) {
    return withAuthorization(harness.admin, authorization);
  }

  private static Status refusal(Runnable call) {
    return catchThrowableOfType(call::run, StatusRuntimeException.class).getStatus();
  }

  private static void createAccount(LedgerServiceGrpc.LedgerServiceBlockingStub stub, String id) {
    stub.createAccount(CreateAccountRequest.newBuilder().setAccountId(id).build());
  }

  private static void listBackups(AdminServiceGrpc.AdminServiceBlockingStub stub) {
    stub.listBackups(ListBackupsRequest.getDefaultInstance());
  }

  private HttpResponse<String> listBackupsOverHttp(String authorization) throws Exception {
    return getOverHttp("/actuator/backups", authorization);
  }

  /** {@code GET path}, with {@code Authorization} unless it is null. */
  private HttpResponse<String> getOverHttp(String path, String authorization) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(harness.uri(path)).GET();
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return harness.send(request);
  }

  private static JsonNode problem(HttpResponse<String> response, int status) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    JsonNode body = JSON.readTree(response.body());
    assertThat(body.get("status").asInt()).isEqualTo(status);
    assertThat(body.get("instance").asText()).isEqualTo("/actuator/backups");
    return body;
  }

  @Test
  void shouldRefuseCallsWithoutCredentialsWithTheOnePublicMessage() throws Exception {
    int commands = harness.commandsReceived();
    Status ledger = refusal(() -> createAccount(harness.ledger, "alice"));
    Status admin = refusal(() -> listBackups(harness.admin));
    HttpResponse<String> http = listBackupsOverHttp(null);

    assertThat(ledger.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(ledger.getDescription()).isEqualTo(AuthOutcome.PUBLIC_MESSAGE);
    assertThat(admin.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(admin.getDescription()).isEqualTo(AuthOutcome.PUBLIC_MESSAGE);
    JsonNode body = problem(http, 401);
    assertThat(body.get("title").asText()).isEqualTo("Unauthorized");
    assertThat(body.get("detail").asText()).isEqualTo(AuthOutcome.PUBLIC_MESSAGE);
    assertThat(http.headers().firstValue("WWW-Authenticate"))
        .hasValue("ApiKey realm=\"cairn\", Bearer realm=\"cairn\"");
    assertThat(harness.commandsReceived()).isEqualTo(commands);
  }

  @Test
  void shouldAnswerAnUnknownKeyAndAWrongSecretAlike() throws Exception {
    Status unknown = refusal(() -> listBackups(admin(credentials.unknownKeyAuthorization())));
    Status wrong = refusal(() -> listBackups(admin(credentials.wrongSecretAuthorization())));
    Status garbage = refusal(() -> listBackups(admin("Basic dXNlcjpwYXNz")));
    HttpResponse<String> unknownHttp = listBackupsOverHttp(credentials.unknownKeyAuthorization());
    HttpResponse<String> wrongHttp = listBackupsOverHttp(credentials.wrongSecretAuthorization());

    assertThat(unknown.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(wrong.getCode()).isEqualTo(unknown.getCode());
    assertThat(garbage.getCode()).isEqualTo(unknown.getCode());
    assertThat(wrong.getDescription()).isEqualTo(unknown.getDescription());
    assertThat(garbage.getDescription()).isEqualTo(unknown.getDescription());
    assertThat(problem(unknownHttp, 401)).isEqualTo(problem(wrongHttp, 401));
  }

  @Test
  void shouldRefuseAClientKeyAnAdminCallNamingTheRole() throws Exception {
    Status grpc = refusal(() -> listBackups(admin(credentials.clientAuthorization())));
    HttpResponse<String> http = listBackupsOverHttp(credentials.clientAuthorization());

    assertThat(grpc.getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(grpc.getDescription())
        .isEqualTo(
            "Expected role admin for ListBackups, but the caller's roles are: client. Use"
                + " credentials with role admin");
    JsonNode body = problem(http, 403);
    assertThat(body.get("title").asText()).isEqualTo("Forbidden");
    assertThat(body.get("detail").asText()).isEqualTo(grpc.getDescription());
    assertThat(http.headers().firstValue("WWW-Authenticate")).isEmpty();
  }

  @Test
  void shouldLetAClientKeyUseTheLedger() {
    int commands = harness.commandsReceived();

    createAccount(ledger(credentials.clientAuthorization()), "client-key-account");

    assertThat(harness.commandsReceived()).isEqualTo(commands + 1);
  }

  @Test
  void shouldLetAnAdminKeyRunEverything() throws Exception {
    createAccount(ledger(credentials.adminAuthorization()), "admin-key-account");
    listBackups(admin(credentials.adminAuthorization()));
    assertThat(
            admin(credentials.adminAuthorization())
                .getTopology(GetTopologyRequest.getDefaultInstance())
                .getPartitionsCount())
        .isEqualTo(3);

    HttpResponse<String> http = listBackupsOverHttp(credentials.adminAuthorization());
    assertThat(http.statusCode()).as(http.body()).isEqualTo(200);
    HttpResponse<String> pause =
        harness.send(
            HttpRequest.newBuilder(harness.uri("/actuator/exporting/pause"))
                .header("Authorization", credentials.adminAuthorization())
                .POST(HttpRequest.BodyPublishers.noBody()));
    assertThat(pause.statusCode()).as(pause.body()).isEqualTo(204);
  }

  @Test
  void shouldKeepMetricsHealthAndReadinessOpen() throws Exception {
    // the console's files hold no data; what the page reads takes credentials
    assertThat(harness.httpGet("/console/").statusCode()).isEqualTo(200);
    assertThat(harness.httpGet("/console/console.js").statusCode()).isEqualTo(200);
    assertThat(getOverHttp("/actuator/topology", null).statusCode()).isEqualTo(401);
    assertThat(getOverHttp("/actuator/topology", credentials.clientAuthorization()).statusCode())
        .isEqualTo(403);
    assertThat(getOverHttp("/actuator/topology", credentials.adminAuthorization()).statusCode())
        .isEqualTo(200);
    assertThat(harness.httpGet("/metrics").statusCode()).isEqualTo(200);
    assertThat(harness.httpGet("/health").statusCode()).isEqualTo(200);
    assertThat(harness.httpGet("/ready").statusCode()).isEqualTo(200);
    assertThat(
            HealthGrpc.newBlockingStub(harness.channel)
                .withDeadlineAfter(30, TimeUnit.SECONDS)
                .check(HealthCheckRequest.getDefaultInstance())
                .getStatus())
        .isEqualTo(ServingStatus.SERVING);
  }

  @Test
  void shouldTreatReflectionAsAnAdminOperation() throws Exception {
    assertThat(reflect(null).getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(reflect(credentials.clientAuthorization()).getCode())
        .isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(reflect(credentials.adminAuthorization()).getCode()).isEqualTo(Status.Code.OK);
  }

  /** Lists the services through reflection; the status it ends with. */
  private Status reflect(String authorization) throws Exception {
    ServerReflectionGrpc.ServerReflectionStub stub =
        ServerReflectionGrpc.newStub(harness.channel).withDeadlineAfter(30, TimeUnit.SECONDS);
    if (authorization != null) {
      stub = withAuthorization(stub, authorization);
    }
    CompletableFuture<ServerReflectionResponse> answer = new CompletableFuture<>();
    StreamObserver<ServerReflectionRequest> requests =
        stub.serverReflectionInfo(
            new StreamObserver<>() {
              @Override
              public void onNext(ServerReflectionResponse value) {
                answer.complete(value);
              }

              @Override
              public void onError(Throwable t) {
                answer.completeExceptionally(t);
              }

              @Override
              public void onCompleted() {}
            });
    requests.onNext(ServerReflectionRequest.newBuilder().setListServices("").build());
    requests.onCompleted();
    try {
      answer.get(30, TimeUnit.SECONDS);
      return Status.OK;
    } catch (ExecutionException e) {
      return Status.fromThrowable(e.getCause());
    }
  }

  @Test
  void shouldAcceptATokenSignedByTheJwksKeyWithItsRole() throws Exception {
    listBackups(admin(credentials.bearer("alice@example.test", Role.ADMIN)));
    createAccount(ledger(credentials.bearer("shop", Role.CLIENT)), "token-account");
    HttpResponse<String> http = listBackupsOverHttp(credentials.bearer("bob", Role.ADMIN));

    assertThat(http.statusCode()).as(http.body()).isEqualTo(200);
    assertThat(refusal(() -> listBackups(admin(credentials.bearer("shop", Role.CLIENT)))).getCode())
        .isEqualTo(Status.Code.PERMISSION_DENIED);
  }

  @Test
  void shouldRefuseAnExpiredTokenAndOneSignedByAnotherKey() throws Exception {
    Status expired = refusal(() -> listBackups(admin(credentials.expiredBearer("a", Role.ADMIN))));
    Status foreign = refusal(() -> listBackups(admin(credentials.foreignBearer("a", Role.ADMIN))));
    HttpResponse<String> expiredHttp =
        listBackupsOverHttp(credentials.expiredBearer("a", Role.ADMIN));
    HttpResponse<String> foreignHttp =
        listBackupsOverHttp(credentials.foreignBearer("a", Role.ADMIN));

    assertThat(expired.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(expired.getDescription()).isEqualTo(AuthOutcome.PUBLIC_MESSAGE);
    assertThat(foreign.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(foreign.getDescription()).isEqualTo(AuthOutcome.PUBLIC_MESSAGE);
    problem(expiredHttp, 401);
    problem(foreignHttp, 401);
  }

  @Test
  void shouldCountRefusalsByTransportAndReason() throws Exception {
    double grpcBefore =
        harness.counter(
            GatewayMetrics.AUTH_REFUSALS, "transport", "grpc", "reason", "unauthenticated");
    double httpBefore =
        harness.counter(GatewayMetrics.AUTH_REFUSALS, "transport", "http", "reason", "forbidden");

    refusal(() -> listBackups(harness.admin));
    listBackupsOverHttp(credentials.clientAuthorization());

    assertThat(
            harness.counter(
                GatewayMetrics.AUTH_REFUSALS, "transport", "grpc", "reason", "unauthenticated"))
        .isEqualTo(grpcBefore + 1);
    assertThat(
            harness.counter(
                GatewayMetrics.AUTH_REFUSALS, "transport", "http", "reason", "forbidden"))
        .isEqualTo(httpBefore + 1);
    assertThat(harness.httpGet("/metrics").body())
        .contains("cairn_gateway_auth_refusals_total{node=\"1000\",reason=\"forbidden\"");
  }
}
