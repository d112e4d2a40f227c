package io.cairn.client;

import java.time.Instant;
import java.util.Objects;

/**
 * A restore point of the log archive, as {@link CairnClient#restorePoints(int)} lists it.
 *
 * @param checkpointId its checkpoint id: restore to it with {@link RestoreFrom#checkpoint(long)}
 * @param takenAt when its checkpoint was taken (the latest of the partitions' clocks)
 * @param restorable recorded and archived on every partition (a restore to it also needs a backup
 *     COMPLETED at or below it)
 * @param detail why it is not restorable; empty when it is
 */
public record RestorePoint(long checkpointId, Instant takenAt, boolean restorable, String detail) {
  public RestorePoint {
    Objects.requireNonNull(takenAt, "takenAt");
    Objects.requireNonNull(detail, "detail");
  }
}
