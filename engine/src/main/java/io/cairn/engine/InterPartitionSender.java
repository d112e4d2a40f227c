package io.cairn.engine;

import io.cairn.protocol.Record;

/**
 * Sends an inter-partition command ({@code CREDIT APPLY} to a target partition, {@code CREDIT ACK}
 * or {@code CREDIT REFUND} back to the source) to the leader of another partition, whose {@link
 * InterPartitionReceiver} writes it to that partition's log.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>Best effort and asynchronous: the command may be delayed, dropped, duplicated or reordered;
 *       the engine re-sends unacknowledged credits and the receiving partition applies each credit
 *       once. Never block the caller (it is the partition's processing thread); hand the command to
 *       the transport and return.
 *   <li>{@code command} is a {@code COMMAND} without position whose metadata already carries {@code
 *       checkpointId}; the parameter repeats it so that an implementation can put it in a frame
 *       header without decoding. The command must reach the target's log with exactly this
 *       checkpoint id (DESIGN.md §7): the receiving partition takes that checkpoint first if its
 *       own is lower.
 *   <li>Unknown or unreachable partitions are not errors: drop the command (it is retried).
 *       Throwing is allowed but only counted and logged.
 * </ul>
 */
@FunctionalInterface
public interface InterPartitionSender {

  /** A sender that drops everything (a single partition never sends). */
  InterPartitionSender NONE = (targetPartitionId, command, checkpointId) -> {};

  /**
   * @param targetPartitionId the partition whose log gets the command
   * @param command the command, metadata and value, position unset
   * @param checkpointId the sender's checkpoint id stamped on the command (equal to {@code
   *     command.metadata().checkpointId()})
   */
  void send(int targetPartitionId, Record command, long checkpointId);
}
