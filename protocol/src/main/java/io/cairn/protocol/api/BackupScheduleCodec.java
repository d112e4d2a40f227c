package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Encodes and decodes {@link ApiDescriptor#TYPE_BACKUP_SCHEDULE} messages: an empty request, and
 * the schedule's state as the OK body. A broker that does not run the schedule answers {@code
 * NOT_LEADER} naming the leader of partition 1 it knows of; one without a schedule configured
 * answers {@code CONFLICT}. Stateless.
 */
public final class BackupScheduleCodec {
  private static final String REQUEST = ApiDescriptor.TYPE_BACKUP_SCHEDULE + " request";
  private static final String RESPONSE = ApiDescriptor.TYPE_BACKUP_SCHEDULE + " response";

  private BackupScheduleCodec() {}

  public static byte[] encodeRequest() {
    return PayloadWriter.start().toBytes();
  }

  /**
   * @throws ProtocolException if the payload is not exactly one valid request
   */
  public static void decodeRequest(byte[] payload) {
    PayloadReader.start(payload, REQUEST).finish();
  }

  /** A failure detail longer than the protocol allows is cut. */
  public static byte[] encodeResponse(ApiResponse<BackupScheduleState> response) {
    PayloadWriter writer = PayloadWriter.startResponse(response);
    if (response instanceof ApiResponse.Ok<BackupScheduleState> ok) {
      BackupScheduleState state = ok.body();
      writer.writeInt(state.nodeId());
      writer.writeLong(state.intervalMillis());
      writer.writeLong(state.nextRunMillis());
      writer.writeLong(state.nextBackupId());
      writer.writeInt(state.consecutiveFailures());
      writer.writeBoolean(state.lastRun().isPresent());
      if (state.lastRun().isPresent()) {
        BackupScheduleState.LastRun run = state.lastRun().get();
        writer.writeLong(run.backupId());
        writer.writeLong(run.startedMillis());
        writer.writeLong(run.finishedMillis());
        writer.writeString(run.outcome(), 1, ApiDescriptor.NAME_MAX_BYTES, "outcome");
        writer.writeInt(run.attempt());
        writer.writeString(
            ApiStrings.truncate(run.detail(), ApiDescriptor.REASON_MAX_BYTES),
            0,
            ApiDescriptor.REASON_MAX_BYTES,
            "detail");
      }
      writer.writeBoolean(state.retention().isPresent());
      if (state.retention().isPresent()) {
        BackupScheduleState.Retention retention = state.retention().get();
        writer.writeInt(retention.maxCount());
        writer.writeLong(retention.maxAgeMillis());
        writer.writeInt(retention.minCount());
        writer.writeBoolean(retention.lastPass().isPresent());
        if (retention.lastPass().isPresent()) {
          BackupScheduleState.RetentionPass pass = retention.lastPass().get();
          writer.writeLong(pass.finishedMillis());
          writer.writeInt(pass.kept());
          writer.writeInt(pass.deletedIds().size());
          pass.deletedIds().forEach(writer::writeLong);
          writer.writeString(
              ApiStrings.truncate(pass.failure(), ApiDescriptor.REASON_MAX_BYTES),
              0,
              ApiDescriptor.REASON_MAX_BYTES,
              "retention failure");
          writer.writeInt(pass.locked().size());
          for (BackupScheduleState.LockedBackup locked : pass.locked()) {
            writer.writeLong(locked.backupId());
            writer.writeLong(locked.untilMillis());
          }
        }
      }
      writer.writeBoolean(state.markers().isPresent());
      if (state.markers().isPresent()) {
        BackupScheduleState.Markers markers = state.markers().get();
        writer.writeLong(markers.intervalMillis());
        writer.writeInt(markers.failuresInARow());
        writer.writeBoolean(markers.lastMarker().isPresent());
        if (markers.lastMarker().isPresent()) {
          BackupScheduleState.LastMarker last = markers.lastMarker().get();
          writer.writeLong(last.markerId());
          writer.writeLong(last.finishedMillis());
          writer.writeString(last.outcome(), 1, ApiDescriptor.NAME_MAX_BYTES, "marker outcome");
          writer.writeString(
              ApiStrings.truncate(last.detail(), ApiDescriptor.REASON_MAX_BYTES),
              0,
              ApiDescriptor.REASON_MAX_BYTES,
              "marker detail");
        }
      }
      writer.writeString(state.cron(), 0, BackupScheduleState.CRON_MAX_BYTES, "cron");
    }
    return writer.toBytes();
  }

  /**
   * @throws ProtocolException if the payload is not exactly one valid response
   */
  public static ApiResponse<BackupScheduleState> decodeResponse(byte[] payload) {
    PayloadReader reader = PayloadReader.start(payload, RESPONSE);
    return reader.readResponse(BackupScheduleCodec::readState);
  }

  private static BackupScheduleState readState(PayloadReader body) {
    int nodeId = body.readInt("node id");
    long interval = body.readLong("interval");
    long nextRun = body.readLong("next run");
    long nextBackupId = body.readLong("next backup id");
    int failures = body.readInt("consecutive failures");
    Optional<BackupScheduleState.LastRun> lastRun = Optional.empty();
    if (body.readBoolean("last run flag")) {
      long backupId = body.readLong("last backup id");
      long started = body.readLong("last run start");
      long finished = body.readLong("last run end");
      String outcome = body.readString(1, ApiDescriptor.NAME_MAX_BYTES, "outcome");
      int attempt = body.readInt("attempt");
      String detail = body.readString(0, ApiDescriptor.REASON_MAX_BYTES, "detail");
      lastRun =
          Optional.of(
              body.build(
                  () ->
                      new BackupScheduleState.LastRun(
                          backupId, started, finished, outcome, attempt, detail)));
    }
    Optional<BackupScheduleState.LastRun> last = lastRun;
    Optional<BackupScheduleState.Retention> retention =
        body.readBoolean("retention flag") ? Optional.of(readRetention(body)) : Optional.empty();
    Optional<BackupScheduleState.Markers> markers =
        body.readBoolean("markers flag") ? Optional.of(readMarkers(body)) : Optional.empty();
    String cron = body.readString(0, BackupScheduleState.CRON_MAX_BYTES, "cron");
    return body.build(
        () ->
            new BackupScheduleState(
                nodeId, interval, nextRun, nextBackupId, last, failures, retention, markers, cron));
  }

  private static BackupScheduleState.Markers readMarkers(PayloadReader body) {
    long interval = body.readLong("marker interval");
    int failures = body.readInt("marker failures in a row");
    Optional<BackupScheduleState.LastMarker> last = Optional.empty();
    if (body.readBoolean("last marker flag")) {
      long id = body.readLong("last marker id");
      long finished = body.readLong("last marker end");
      String outcome = body.readString(1, ApiDescriptor.NAME_MAX_BYTES, "marker outcome");
      String detail = body.readString(0, ApiDescriptor.REASON_MAX_BYTES, "marker detail");
      last =
          Optional.of(
              body.build(() -> new BackupScheduleState.LastMarker(id, finished, outcome, detail)));
    }
    Optional<BackupScheduleState.LastMarker> lastMarker = last;
    return body.build(() -> new BackupScheduleState.Markers(interval, lastMarker, failures));
  }

  private static BackupScheduleState.Retention readRetention(PayloadReader body) {
    int maxCount = body.readInt("retention maxCount");
    long maxAge = body.readLong("retention maxAge");
    int minCount = body.readInt("retention minCount");
    Optional<BackupScheduleState.RetentionPass> pass = Optional.empty();
    if (body.readBoolean("retention pass flag")) {
      long finished = body.readLong("retention pass end");
      int kept = body.readInt("retention kept");
      int count =
          body.readCount(BackupScheduleState.DELETED_IDS_MAX, Long.BYTES, "retention deleted ids");
      List<Long> ids = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        ids.add(body.readLong("deleted id"));
      }
      String failure = body.readString(0, ApiDescriptor.REASON_MAX_BYTES, "retention failure");
      int lockedCount =
          body.readCount(
              BackupScheduleState.DELETED_IDS_MAX, 2 * Long.BYTES, "retention locked backups");
      List<BackupScheduleState.LockedBackup> locked = new ArrayList<>(lockedCount);
      for (int i = 0; i < lockedCount; i++) {
        locked.add(
            new BackupScheduleState.LockedBackup(
                body.readLong("locked backup id"), body.readLong("locked until")));
      }
      pass =
          Optional.of(
              body.build(
                  () ->
                      new BackupScheduleState.RetentionPass(finished, kept, ids, failure, locked)));
    }
    Optional<BackupScheduleState.RetentionPass> last = pass;
    return body.build(() -> new BackupScheduleState.Retention(maxCount, maxAge, minCount, last));
  }
}
