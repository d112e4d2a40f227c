package io.cairn.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The management endpoints' backup JSON (Zeebe's actuator shape) → {@link BackupInfo}: {@code
 * {"backupId", "state", "failureReason"?, "details": [{"partitionId", "state", "failureReason"?,
 * "createdAt"?, "lastUpdatedAt"?, "checkpointPosition"?, "snapshotId"?, "nodeId", "brokerVersion"?,
 * "sizeBytes"?, "fileCount"?, "stateDigest"?}]}}; absent fields become empty text, 0 or {@code
 * null} instants.
 */
final class BackupJsonMapping {
  private BackupJsonMapping() {}

  static BackupInfo backup(JsonNode json) {
    List<PartitionBackupInfo> partitions = new ArrayList<>();
    for (JsonNode p : json.path("details")) {
      partitions.add(
          new PartitionBackupInfo(
              p.path("partitionId").asInt(),
              state(p.path("state").asText("")),
              p.path("failureReason").asText(""),
              p.path("checkpointPosition").asLong(0),
              p.path("snapshotId").asText(""),
              p.path("nodeId").asInt(-1),
              p.path("brokerVersion").asText(""),
              instant(p.path("createdAt")),
              instant(p.path("lastUpdatedAt")),
              p.path("sizeBytes").asLong(0),
              p.path("fileCount").asInt(0),
              p.path("stateDigest").asText("")));
    }
    return new BackupInfo(
        json.path("backupId").asLong(),
        state(json.path("state").asText("")),
        json.path("failureReason").asText(""),
        partitions);
  }

  static BackupState state(String name) {
    try {
      return BackupState.valueOf(name.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return BackupState.UNKNOWN;
    }
  }

  private static Instant instant(JsonNode node) {
    if (!node.isTextual()) {
      return null;
    }
    try {
      return Instant.parse(node.asText());
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
