package io.cairn.restore;

/**
 * Told what a restore or verification does, for a terminal or for JSON events. Called from the
 * store's and the restore's threads, for several partitions at once: implementations must be
 * thread-safe, quick, and must not throw (a listener that throws is logged and ignored).
 */
public interface RestoreListener {

  /** Tells nothing. */
  RestoreListener NOOP = new RestoreListener() {};

  /** Once, after the backup was chosen and checked, before anything is written. */
  default void onPlan(RestorePlan plan) {}

  /** Progress of one partition. */
  default void onProgress(PartitionProgress progress) {}
}
