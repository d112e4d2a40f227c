package io.cairn.broker.partition;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A partition's role and the term it was taken in, and the one place they change ({@link
 * #transition}). Written on the partition's thread, read anywhere.
 */
final class PartitionRoleState {

  private static final Logger LOG = LoggerFactory.getLogger(PartitionRoleState.class);

  private final int partitionId;
  private final int nodeId;
  private final PartitionMetrics metrics;
  private volatile PartitionRole role = PartitionRole.INACTIVE;
  private volatile long term;

  PartitionRoleState(int partitionId, int nodeId, PartitionMetrics metrics) {
    this.partitionId = partitionId;
    this.nodeId = nodeId;
    this.metrics = metrics;
    metrics.role(role);
  }

  PartitionRole role() {
    return role;
  }

  long term() {
    return term;
  }

  /** Whether the partition stopped for good (FAILED or CLOSED). */
  boolean isFinal() {
    return role == PartitionRole.FAILED || role == PartitionRole.CLOSED;
  }

  /**
   * Moves to {@code next}. Checks the move against the table in {@link PartitionRole} and its rules
   * — a LEADER's state is never kept (leaving LEADER for FOLLOWER or for a LEADER of a higher term
   * needs a rebuilt state), FOLLOWER to FOLLOWER only with a rebuilt state (raft installed a
   * snapshot) — then logs once (INFO, ERROR for FAILED) with partition, node and term, and updates
   * the gauge.
   *
   * @param rebuilt whether the state was rebuilt from a snapshot for the new role
   * @throws IllegalStateException if the move is not legal
   */
  void transition(PartitionRole next, long nextTerm, boolean rebuilt, String reason) {
    PartitionRole current = role;
    if (!isLegal(current, next, nextTerm, rebuilt)) {
      throw new IllegalStateException(
          "Expected a legal partition role transition, but "
              + current
              + " (term "
              + term
              + ") -> "
              + next
              + " (term "
              + nextTerm
              + ", rebuilt "
              + rebuilt
              + ") is not one (partition "
              + partitionId
              + " on node "
              + nodeId
              + ")");
    }
    role = next;
    term = nextTerm;
    metrics.role(next);
    if (next == PartitionRole.FAILED) {
      LOG.error(
          "Partition {} on node {}: {} -> FAILED in term {}: {}. Rebuild the partition from a"
              + " replica or restore it from a backup.",
          partitionId,
          nodeId,
          current,
          nextTerm,
          reason);
    } else {
      LOG.info(
          "Partition {} on node {}: {} -> {} in term {} ({})",
          partitionId,
          nodeId,
          current,
          next,
          nextTerm,
          reason);
    }
  }

  private boolean isLegal(
      PartitionRole current, PartitionRole next, long nextTerm, boolean rebuilt) {
    if (!current.canBecome(next)) {
      return false;
    }
    return switch (next) {
      case LEADER -> current != PartitionRole.LEADER || (nextTerm > term && rebuilt);
      case FOLLOWER -> current == PartitionRole.INACTIVE || rebuilt;
      case INACTIVE -> current != PartitionRole.INACTIVE;
      case FAILED, CLOSED -> true;
    };
  }
}
