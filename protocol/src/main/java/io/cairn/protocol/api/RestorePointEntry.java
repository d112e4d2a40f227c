package io.cairn.protocol.api;

import java.util.Objects;

/**
 * One restore point of the log archive, as a broker lists it ({@link
 * ApiDescriptor#TYPE_RESTORE_POINTS}).
 *
 * @param checkpointId its checkpoint id, {@code >= 1}
 * @param takenAtMillis when its checkpoint was taken (epoch milliseconds, the latest over the
 *     partitions), {@code >= 0}
 * @param restorable recorded and archived on every partition
 * @param detail why it is not restorable; empty when it is
 */
public record RestorePointEntry(
    long checkpointId, long takenAtMillis, boolean restorable, String detail) {

  /** The most points one answer lists. */
  public static final int LIMIT_MAX = 1000;

  public RestorePointEntry {
    Objects.requireNonNull(detail, "detail");
    if (checkpointId < 1 || takenAtMillis < 0) {
      throw new IllegalArgumentException(
          "Expected a checkpoint id >= 1 and a time >= 0, but was "
              + checkpointId
              + " and "
              + takenAtMillis);
    }
    if (restorable != detail.isEmpty()) {
      throw new IllegalArgumentException(
          "Expected a detail exactly when the point is not restorable, but restorable is "
              + restorable
              + " and the detail '"
              + detail
              + "'");
    }
  }
}
