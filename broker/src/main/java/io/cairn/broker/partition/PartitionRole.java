package io.cairn.broker.partition;

/**
 * What a partition runs on this broker. The code is the value of the {@code
 * cairn.broker.partition.role} gauge.
 *
 * <p>Transitions (only {@code PartitionRoleState#transition} changes the role, and it refuses any
 * other):
 *
 * <table>
 *   <caption>Legal transitions</caption>
 *   <tr><th>from \ to</th><th>FOLLOWER</th><th>LEADER</th><th>INACTIVE</th><th>FAILED</th>
 *       <th>CLOSED</th></tr>
 *   <tr><td>INACTIVE</td><td>raft follows (state recovered)</td><td>raft leads</td><td>–</td>
 *       <td>yes</td><td>yes</td></tr>
 *   <tr><td>FOLLOWER</td><td>only after a state rebuild (raft installed a snapshot)</td>
 *       <td>raft leads (the follower's state is reused)</td><td>a transition failed</td>
 *       <td>yes</td><td>yes</td></tr>
 *   <tr><td>LEADER</td><td>leadership lost (state rebuilt)</td><td>only a higher term (state
 *       rebuilt)</td><td>a transition failed</td><td>yes</td><td>yes</td></tr>
 *   <tr><td>FAILED</td><td>–</td><td>–</td><td>–</td><td>–</td><td>yes</td></tr>
 *   <tr><td>CLOSED</td><td>–</td><td>–</td><td>–</td><td>–</td><td>–</td></tr>
 * </table>
 */
public enum PartitionRole {
  /** No stream processor runs: not started yet, or a transition failed and is retried. */
  INACTIVE(0),
  /** A FOLLOWER stream processor replays the committed log into the state. */
  FOLLOWER(1),
  /** A LEADER stream processor replays, then processes commands; leader-only parts run. */
  LEADER(2),
  /** Stopped for good (stream processor or raft member failed, or state corrupt). */
  FAILED(3),
  /** Closed. */
  CLOSED(4);

  private final int code;

  PartitionRole(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** Whether {@code this -> next} is in the table above (ignoring the term and rebuild rules). */
  boolean canBecome(PartitionRole next) {
    return switch (this) {
      case INACTIVE -> next == FOLLOWER || next == LEADER || next == FAILED || next == CLOSED;
      case FOLLOWER, LEADER -> true; // same-role moves are checked by the caller
      case FAILED -> next == CLOSED;
      case CLOSED -> false;
    };
  }
}
