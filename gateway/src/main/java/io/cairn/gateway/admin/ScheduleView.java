package io.cairn.gateway.admin;

import io.cairn.backupapi.ClusterBackupStatusCode;
import io.cairn.protocol.api.BackupScheduleState;
import java.util.Objects;
import java.util.Optional;

/**
 * The backup schedule as the gateway answers it: the state the broker running it reports, and the
 * cluster state of the last run's backup in the store (so an operator sees whether it completed).
 *
 * @param state the broker's report
 * @param lastBackupState the last run's backup across the partitions; {@code DOES_NOT_EXIST} once
 *     retention deleted it or when it was never taken; empty without a last run, or when the store
 *     did not answer
 */
public record ScheduleView(
    BackupScheduleState state, Optional<ClusterBackupStatusCode> lastBackupState) {
  public ScheduleView {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(lastBackupState, "lastBackupState");
  }
}
