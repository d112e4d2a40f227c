package io.cairn.gateway.http;

import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.ClusterBackupStatus;
import io.cairn.gateway.admin.ScheduleView;
import io.cairn.protocol.api.BackupScheduleState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON shape of a backup on the management endpoints, the one Zeebe's actuator answers with:
 *
 * <pre>
 * {"backupId": 5, "state": "COMPLETED", "failureReason": "...",  (only when not COMPLETED)
 *  "details": [{"partitionId": 1, "state": "COMPLETED", "failureReason": "...",
 *               "createdAt": "2026-01-01T00:00:00Z", "lastUpdatedAt": "...",
 *               "checkpointPosition": 42, "snapshotId": "...", "nodeId": 0,
 *               "brokerVersion": "0.1.0", "sizeBytes": 1024, "fileCount": 3,
 *               "stateDigest": "ab01..."}]}
 * </pre>
 */
final class BackupJson {
  private BackupJson() {}

  static Map<String, Object> of(ClusterBackupStatus status) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("backupId", status.checkpointId());
    json.put("state", status.statusCode().name());
    status.reason().ifPresent(reason -> json.put("failureReason", reason));
    List<Map<String, Object>> details = new ArrayList<>();
    status.partitions().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(entry -> details.add(partition(entry.getValue())));
    json.put("details", details);
    return json;
  }

  private static Map<String, Object> partition(BackupStatus status) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("partitionId", status.id().partitionId());
    json.put("state", status.statusCode().name());
    status.failureReason().ifPresent(reason -> json.put("failureReason", reason));
    status.createdAt().ifPresent(at -> json.put("createdAt", at.toString()));
    status.lastUpdatedAt().ifPresent(at -> json.put("lastUpdatedAt", at.toString()));
    json.put("nodeId", status.id().nodeId());
    if (status.descriptor().isPresent()) {
      BackupDescriptor descriptor = status.descriptor().get();
      json.put("checkpointPosition", descriptor.checkpointPosition());
      descriptor.snapshotId().ifPresent(id -> json.put("snapshotId", id));
      json.put("brokerVersion", descriptor.brokerVersion());
      json.put("sizeBytes", descriptor.sizeBytes());
      json.put("fileCount", descriptor.fileCount());
      json.put("stateDigest", descriptor.stateDigest());
    }
    return json;
  }

  /**
   * The backup schedule:
   *
   * <pre>
   * {"nodeId": 0, "interval": "PT1H", "nextRunAt": "2026-01-01T01:00:00Z",
   *  "nextBackupId": 1767229200000, "consecutiveFailures": 0,
   *  "lastRun": {"backupId": 1767225600000, "startedAt": "...", "finishedAt": "...",
   *              "outcome": "taken", "attempt": 1, "backupState": "COMPLETED",
   *              "detail": "..."},  (detail only when failed; backupState when the store answered)
   *  "retention": {"maxCount": 7, "maxAge": "P7D", "minCount": 1,  (each limit only when set)
   *                "lastPass": {"finishedAt": "...", "kept": 7, "deletedBackupIds": [...],
   *                             "failure": "..."}}}  (retention only when configured)
   * </pre>
   */
  static Map<String, Object> schedule(ScheduleView view) {
    BackupScheduleState state = view.state();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("nodeId", state.nodeId());
    json.put("interval", Duration.ofMillis(state.intervalMillis()).toString());
    if (!state.cron().isEmpty()) {
      json.put("cron", state.cron());
    }
    json.put("nextRunAt", Instant.ofEpochMilli(state.nextRunMillis()).toString());
    json.put("nextBackupId", state.nextBackupId());
    json.put("consecutiveFailures", state.consecutiveFailures());
    state
        .lastRun()
        .ifPresent(
            run -> {
              Map<String, Object> last = new LinkedHashMap<>();
              last.put("backupId", run.backupId());
              last.put("startedAt", Instant.ofEpochMilli(run.startedMillis()).toString());
              last.put("finishedAt", Instant.ofEpochMilli(run.finishedMillis()).toString());
              last.put("outcome", run.outcome());
              last.put("attempt", run.attempt());
              view.lastBackupState().ifPresent(code -> last.put("backupState", code.name()));
              if (!run.detail().isEmpty()) {
                last.put("detail", run.detail());
              }
              json.put("lastRun", last);
            });
    state
        .retention()
        .ifPresent(
            retention -> {
              Map<String, Object> policy = new LinkedHashMap<>();
              if (retention.maxCount() > 0) {
                policy.put("maxCount", retention.maxCount());
              }
              if (retention.maxAgeMillis() > 0) {
                policy.put("maxAge", Duration.ofMillis(retention.maxAgeMillis()).toString());
              }
              policy.put("minCount", retention.minCount());
              retention
                  .lastPass()
                  .ifPresent(
                      pass -> {
                        Map<String, Object> last = new LinkedHashMap<>();
                        last.put(
                            "finishedAt", Instant.ofEpochMilli(pass.finishedMillis()).toString());
                        last.put("kept", pass.kept());
                        last.put("deletedBackupIds", pass.deletedIds());
                        if (!pass.failure().isEmpty()) {
                          last.put("failure", pass.failure());
                        }
                        if (!pass.locked().isEmpty()) {
                          last.put(
                              "lockedBackups",
                              pass.locked().stream()
                                  .map(
                                      l ->
                                          Map.of(
                                              "backupId",
                                              l.backupId(),
                                              "lockedUntil",
                                              Instant.ofEpochMilli(l.untilMillis()).toString()))
                                  .toList());
                        }
                        policy.put("lastPass", last);
                      });
              json.put("retention", policy);
            });
    state
        .markers()
        .ifPresent(
            markers -> {
              Map<String, Object> marking = new LinkedHashMap<>();
              marking.put("interval", Duration.ofMillis(markers.intervalMillis()).toString());
              marking.put("failuresInARow", markers.failuresInARow());
              markers
                  .lastMarker()
                  .ifPresent(
                      last -> {
                        Map<String, Object> run = new LinkedHashMap<>();
                        run.put("markerId", last.markerId());
                        run.put(
                            "finishedAt", Instant.ofEpochMilli(last.finishedMillis()).toString());
                        run.put("outcome", last.outcome());
                        if (!last.detail().isEmpty()) {
                          run.put("detail", last.detail());
                        }
                        marking.put("lastMarker", run);
                      });
              json.put("markers", marking);
            });
    return json;
  }
}
