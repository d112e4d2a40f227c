package io.cairn.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Timestamp;
import io.cairn.gateway.v1.GetRestoreStatusRequest;
import io.cairn.gateway.v1.ListRestorePointsRequest;
import io.cairn.gateway.v1.ListRestorePointsResponse;
import io.cairn.gateway.v1.RestoreRequest;
import io.cairn.gateway.v1.RestoreStatus;
import io.cairn.protocol.api.RestorePointEntry;
import io.cairn.protocol.api.RestoreRequest.Kind;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Restore through the API over real gRPC and HTTP against fake brokers that enforce the {@code
 * cairn-restore} messages: the first broker resolves the selection and the others are asked for
 * exactly what it resolved; a broker holding data or not answering refuses the restore before any
 * broker starts; every malformed body names the field.
 */
final class RestoreApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private GatewayHarness harness;

  @BeforeEach
  void start() {
    harness = new GatewayHarness(3, 3, builder -> builder).awaitReady();
  }

  @AfterEach
  void stop() {
    harness.close();
  }

  @Test
  void shouldAskTheOthersForWhatTheFirstBrokerResolved() {
    for (FakeBroker broker : harness.brokers) {
      broker.awaitRestore(5, 7);
    }
    assertThat(
            harness.admin.getRestoreStatus(GetRestoreStatusRequest.getDefaultInstance()).getState())
        .isEqualTo("WAITING");

    RestoreStatus started =
        harness.admin.restore(
            RestoreRequest.newBuilder()
                .setTime(Timestamp.newBuilder().setSeconds(1_700_000_000L))
                .build());

    assertThat(started.getState()).isEqualTo("IN_PROGRESS");
    assertThat(started.getBackupId()).isEqualTo(5);
    assertThat(started.getRestorePointId()).isEqualTo(7);
    assertThat(started.getBrokersList()).extracting(b -> b.getPhase()).containsOnly("RESTORING");
    assertThat(harness.broker(0).restoreStarts())
        .containsExactly(new io.cairn.protocol.api.RestoreRequest(Kind.TIME, 1_700_000_000_000L));
    for (int node = 1; node < 3; node++) {
      assertThat(harness.broker(node).restoreStarts())
          .as("node %s", node)
          .containsExactly(new io.cairn.protocol.api.RestoreRequest(Kind.CHECKPOINT_ID, 7));
    }
    // a second restore is refused, naming the brokers that restore already
    assertThatThrownBy(
            () -> harness.admin.restore(RestoreRequest.newBuilder().setBackupId(5).build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION))
        .hasMessageContaining("broker 0 is RESTORING");
  }

  @Test
  void shouldRestoreTheSameBackupEverywhereWhenTheFirstResolvedLatestToABackup() throws Exception {
    for (FakeBroker broker : harness.brokers) {
      broker.awaitRestore(9, 0);
    }
    HttpResponse<String> answer = harness.httpPost("/actuator/restore", "{\"latest\": true}");

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
    JsonNode json = JSON.readTree(answer.body());
    assertThat(json.get("state").asText()).isEqualTo("IN_PROGRESS");
    assertThat(json.get("backupId").asLong()).isEqualTo(9);
    assertThat(json.get("brokers")).hasSize(3);
    assertThat(harness.broker(0).restoreStarts())
        .containsExactly(new io.cairn.protocol.api.RestoreRequest(Kind.LATEST, 0));
    assertThat(harness.broker(2).restoreStarts())
        .containsExactly(new io.cairn.protocol.api.RestoreRequest(Kind.BACKUP_ID, 9));
    assertThat(JSON.readTree(harness.httpGet("/actuator/restore").body()).get("state").asText())
        .isEqualTo("IN_PROGRESS");
  }

  @Test
  void shouldRefuseBeforeStartingAnythingWhenABrokerHoldsDataOrIsDown() throws Exception {
    harness.broker(0).awaitRestore(1, 0);
    harness.broker(2).awaitRestore(1, 0);
    HttpResponse<String> holding = harness.httpPost("/actuator/restore", "{\"backupId\": 1}");
    assertThat(holding.statusCode()).isEqualTo(409);
    assertThat(holding.body())
        .contains("broker 1 holds data")
        .contains("data.restoreMode")
        .contains("Nothing was started");

    harness.broker(1).awaitRestore(1, 0);
    harness.broker(2).stop();
    HttpResponse<String> down = harness.httpPost("/actuator/restore", "{\"backupId\": 1}");
    assertThat(down.statusCode()).isEqualTo(503);
    assertThat(down.body()).contains("broker 2 did not answer");
    for (FakeBroker broker : harness.brokers) {
      assertThat(broker.restoreStarts()).as("node %s", broker.nodeId()).isEmpty();
    }
    JsonNode status = JSON.readTree(harness.httpGet("/actuator/restore").body());
    assertThat(status.get("state").asText()).isEqualTo("IN_PROGRESS");
    assertThat(status.get("brokers").get(2).get("phase").asText()).isEqualTo("UNREACHABLE");
  }

  @Test
  void shouldNameTheFieldOfEveryMalformedRequest() throws Exception {
    for (FakeBroker broker : harness.brokers) {
      broker.awaitRestore(1, 0);
    }
    for (List<String> bad :
        List.of(
            List.of("", "the body is empty"),
            List.of("[]", "but was []"),
            List.of("{}", "it names none"),
            List.of("{\"backupId\": 1, \"checkpointId\": 2}", "it names [backupId, checkpointId]"),
            List.of("{\"backupId\": -3}", "backupId to be an integer >= 1"),
            List.of("{\"backupId\": \"7\"}", "backupId to be an integer >= 1"),
            List.of("{\"checkpointId\": 1.5}", "checkpointId to be an integer >= 1"),
            List.of("{\"latest\": false}", "latest to be true"),
            List.of("{\"time\": \"noon\"}", "time to be an ISO-8601 instant"),
            List.of("{\"time\": 5}", "time to be an ISO-8601 instant"),
            List.of("{\"id\": 1}", "the body has field id"))) {
      HttpResponse<String> answer = harness.httpPost("/actuator/restore", bad.get(0));
      assertThat(answer.statusCode()).as(bad.get(0)).isEqualTo(400);
      assertThat(JSON.readTree(answer.body()).get("detail").asText())
          .as(bad.get(0))
          .contains(bad.get(1));
    }
    assertThatThrownBy(() -> harness.admin.restore(RestoreRequest.getDefaultInstance()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT))
        .hasMessageContaining("backup_id, latest, checkpoint_id or time");
    assertThatThrownBy(
            () -> harness.admin.restore(RestoreRequest.newBuilder().setCheckpointId(0).build()))
        .hasMessageContaining("checkpoint_id >= 1, but was 0");
    for (FakeBroker broker : harness.brokers) {
      assertThat(broker.restoreStarts()).isEmpty();
    }
  }

  @Test
  void shouldListTheRestorePointsOneBrokerReadsOverGrpcAndHttp() throws Exception {
    List<RestorePointEntry> points =
        List.of(
            new RestorePointEntry(1_767_225_602_000L, 1_767_225_602_123L, false, "not archived"),
            new RestorePointEntry(1_767_225_601_000L, 1_767_225_601_045L, true, ""));
    for (FakeBroker broker : harness.brokers) {
      broker.restorePoints(points);
    }

    ListRestorePointsResponse listed =
        harness.admin.listRestorePoints(ListRestorePointsRequest.getDefaultInstance());

    assertThat(listed.getRestorePointsList())
        .extracting(p -> p.getCheckpointId(), p -> p.getRestorable(), p -> p.getDetail())
        .containsExactly(
            tuple(1_767_225_602_000L, false, "not archived"), tuple(1_767_225_601_000L, true, ""));
    assertThat(listed.getRestorePoints(1).getTakenAt())
        .isEqualTo(Timestamp.newBuilder().setSeconds(1_767_225_601L).setNanos(45_000_000).build());
    // one broker answers (the store is shared), asked for the default of 100
    assertThat(harness.brokers.stream().flatMap(b -> b.restorePointLimits().stream()))
        .containsExactly(100);

    HttpResponse<String> answer = harness.httpGet("/actuator/restore-points");
    assertThat(answer.statusCode()).isEqualTo(200);
    JsonNode json = JSON.readTree(answer.body());
    assertThat(json).hasSize(2);
    assertThat(json.get(1).get("checkpointId").asLong()).isEqualTo(1_767_225_601_000L);
    assertThat(json.get(1).get("takenAt").asText()).isEqualTo("2026-01-01T00:00:01.045Z");
    assertThat(json.get(1).get("restorable").asBoolean()).isTrue();
    assertThat(json.get(0).get("detail").asText()).isEqualTo("not archived");

    // a limit out of range is refused by the gateway, naming the field; no broker is asked
    assertThatThrownBy(
            () ->
                harness.admin.listRestorePoints(
                    ListRestorePointsRequest.newBuilder().setLimit(1001).build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT))
        .hasMessageContaining("Expected limit in [1, 1000] (0 for 100), but was 1001");
    assertThat(harness.brokers.stream().flatMap(b -> b.restorePointLimits().stream())).hasSize(2);
  }
}
