package io.cairn.gateway.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.cairn.gateway.admin.ClusterRestore;
import io.cairn.httpendpoints.Exchange;
import io.cairn.httpendpoints.Problem;
import io.cairn.protocol.api.NodeRestoreState;
import io.cairn.protocol.api.RestorePointEntry;
import io.cairn.protocol.api.RestoreRequest;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The JSON of {@code /actuator/restore}. A request names exactly one of:
 *
 * <pre>
 * {"backupId": 5}   {"latest": true}   {"checkpointId": 12}   {"time": "2026-12-03T08:00:00Z"}
 * </pre>
 *
 * and the answer (also of GET) is the cluster's restore:
 *
 * <pre>
 * {"state": "IN_PROGRESS", "selection": "backup 5", "backupId": 5, "restorePointId": 0,
 *  "brokers": [{"nodeId": 0, "phase": "RESTORING", "detail": ""}],
 *  "partitions": [{"partitionId": 1, "nodeId": 0, "phase": "DOWNLOADING", "bytesDone": 1024,
 *                  "bytesTotal": 4096, "bytesPerSecond": 512, "etaMillis": 6000, "detail": ""}]}
 * </pre>
 */
final class RestoreJson {
  private static final String RULE =
      "a JSON object with exactly one of backupId (an integer >= 1), latest (true), checkpointId"
          + " (an integer >= 1) or time (an ISO-8601 instant such as 2026-12-03T08:00:00Z)";
  private static final Set<String> FIELDS = Set.of("backupId", "latest", "checkpointId", "time");

  private RestoreJson() {}

  /** Reads a start request; every problem names the field and the value. */
  static RestoreRequest parse(byte[] body) {
    if (body.length == 0) {
      throw Problem.badRequest("Expected " + RULE + ", but the body is empty");
    }
    JsonNode json;
    try {
      json = Exchange.json().readTree(body);
    } catch (JsonProcessingException e) {
      throw Problem.badRequest(
          "Expected " + RULE + ", but the body is not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw Problem.badRequest("Expected " + RULE + ", but the body could not be read: " + e);
    }
    if (json == null || !json.isObject()) {
      throw Problem.badRequest(
          "Expected " + RULE + ", but was " + ManagementHttpServer.shorten(String.valueOf(json)));
    }
    List<String> named = new ArrayList<>();
    for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!FIELDS.contains(name)) {
        throw Problem.badRequest(
            "Expected " + RULE + ", but the body has field " + ManagementHttpServer.shorten(name));
      }
      named.add(name);
    }
    if (named.size() != 1) {
      throw Problem.badRequest(
          "Expected "
              + RULE
              + ", but "
              + (named.isEmpty() ? "it names none" : "it names " + named));
    }
    String field = named.get(0);
    JsonNode value = json.get(field);
    return switch (field) {
      case "backupId" -> new RestoreRequest(RestoreRequest.Kind.BACKUP_ID, id(field, value));
      case "checkpointId" ->
          new RestoreRequest(RestoreRequest.Kind.CHECKPOINT_ID, id(field, value));
      case "latest" -> {
        if (!value.isBoolean() || !value.booleanValue()) {
          throw Problem.badRequest(
              "Expected latest to be true, but was "
                  + ManagementHttpServer.shorten(value.toString()));
        }
        yield new RestoreRequest(RestoreRequest.Kind.LATEST, 0);
      }
      default -> new RestoreRequest(RestoreRequest.Kind.TIME, time(value));
    };
  }

  private static long id(String field, JsonNode value) {
    if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 1) {
      throw Problem.badRequest(
          "Expected "
              + field
              + " to be an integer >= 1 and <= "
              + Long.MAX_VALUE
              + ", but was "
              + ManagementHttpServer.shorten(value.toString()));
    }
    return value.longValue();
  }

  private static long time(JsonNode value) {
    String rule = "time to be an ISO-8601 instant such as 2026-12-03T08:00:00Z";
    if (!value.isTextual()) {
      throw Problem.badRequest(
          "Expected " + rule + ", but was " + ManagementHttpServer.shorten(value.toString()));
    }
    Instant instant;
    try {
      instant = Instant.parse(value.textValue());
    } catch (DateTimeParseException e) {
      throw Problem.badRequest(
          "Expected "
              + rule
              + ", but was '"
              + ManagementHttpServer.shorten(value.textValue())
              + "'");
    }
    if (instant.toEpochMilli() < 1) {
      throw Problem.badRequest("Expected time after 1970-01-01T00:00:00Z, but was " + instant);
    }
    return instant.toEpochMilli();
  }

  /**
   * The JSON of {@code GET /actuator/restore-points}, newest first: {@code [{"checkpointId": 12,
   * "takenAt": "2026-12-03T08:00:00Z", "restorable": true, "detail": ""}]}.
   */
  static List<Map<String, Object>> points(List<RestorePointEntry> points) {
    List<Map<String, Object>> json = new ArrayList<>(points.size());
    for (RestorePointEntry point : points) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("checkpointId", point.checkpointId());
      entry.put("takenAt", Instant.ofEpochMilli(point.takenAtMillis()).toString());
      entry.put("restorable", point.restorable());
      entry.put("detail", point.detail());
      json.add(entry);
    }
    return json;
  }

  static Map<String, Object> of(ClusterRestore restore) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("state", restore.state().name());
    Optional<NodeRestoreState> leading = restore.leading();
    json.put("selection", leading.map(NodeRestoreState::selection).orElse(""));
    json.put("backupId", leading.map(NodeRestoreState::backupId).orElse(0L));
    json.put("restorePointId", leading.map(NodeRestoreState::restorePointId).orElse(0L));
    List<Map<String, Object>> brokers = new ArrayList<>();
    List<Map<String, Object>> partitions = new ArrayList<>();
    for (int nodeId : restore.brokers().keySet()) {
      Map<String, Object> broker = new LinkedHashMap<>();
      broker.put("nodeId", nodeId);
      broker.put("phase", restore.phaseOf(nodeId));
      broker.put("detail", restore.detailOf(nodeId));
      brokers.add(broker);
      for (NodeRestoreState.PartitionRestoreState partition :
          restore.brokers().get(nodeId).map(NodeRestoreState::partitions).orElse(List.of())) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("partitionId", partition.partitionId());
        entry.put("nodeId", nodeId);
        entry.put("phase", partition.phase());
        entry.put("bytesDone", partition.bytesDone());
        entry.put("bytesTotal", partition.bytesTotal());
        entry.put("bytesPerSecond", partition.bytesPerSecond());
        entry.put("etaMillis", partition.etaMillis());
        entry.put("detail", partition.detail());
        partitions.add(entry);
      }
    }
    json.put("brokers", brokers);
    json.put("partitions", partitions);
    return json;
  }
}
