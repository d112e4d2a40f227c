package io.cairn.backup;

/** Why a partition took a checkpoint: what asked for it (DESIGN.md §7, §9 "Markers"). */
public enum CheckpointOrigin {
  /** A {@code CREATE} from outside the partition: an operator's or the schedule's backup. */
  BACKUP,
  /** A {@code MARK} from the schedule: a restore point of the log archive, no backup. */
  MARKER,
  /**
   * A {@code CREATE} the cut interceptor wrote for a stamped inter-partition command: the
   * checkpoint reached this partition before what asked for it, which decides whether it is a
   * backup.
   */
  STAMPED
}
