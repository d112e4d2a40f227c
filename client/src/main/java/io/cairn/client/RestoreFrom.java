package io.cairn.client;

import com.google.protobuf.Timestamp;
import io.cairn.gateway.v1.RestoreRequest;
import java.time.Instant;
import java.util.Objects;

/**
 * What a restore through the API restores: a backup, the newest backup, a restore point of the log
 * archive, or the newest restore point at or before a time.
 */
public final class RestoreFrom {

  private final RestoreRequest request;
  private final String description;

  private RestoreFrom(RestoreRequest request, String description) {
    this.request = request;
    this.description = description;
  }

  /** Backup {@code backupId}, which must be COMPLETED on every partition. */
  public static RestoreFrom backup(long backupId) {
    return new RestoreFrom(
        RestoreRequest.newBuilder().setBackupId(positive("backupId", backupId)).build(),
        "backup " + backupId);
  }

  /** The newest backup COMPLETED on every partition. */
  public static RestoreFrom latest() {
    return new RestoreFrom(RestoreRequest.newBuilder().setLatest(true).build(), "latest");
  }

  /** Restore point {@code checkpointId} of the log archive. */
  public static RestoreFrom checkpoint(long checkpointId) {
    return new RestoreFrom(
        RestoreRequest.newBuilder().setCheckpointId(positive("checkpointId", checkpointId)).build(),
        "restore point " + checkpointId);
  }

  /** The newest restore point at or before {@code time}. */
  public static RestoreFrom time(Instant time) {
    Objects.requireNonNull(time, "time");
    return new RestoreFrom(
        RestoreRequest.newBuilder()
            .setTime(
                Timestamp.newBuilder().setSeconds(time.getEpochSecond()).setNanos(time.getNano()))
            .build(),
        "the newest restore point at or before " + time);
  }

  private static long positive(String name, long value) {
    if (value < 1) {
      throw new IllegalArgumentException("Expected " + name + " >= 1, but was " + value);
    }
    return value;
  }

  RestoreRequest toProto() {
    return request;
  }

  @Override
  public String toString() {
    return description;
  }
}
