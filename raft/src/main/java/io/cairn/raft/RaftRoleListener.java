package io.cairn.raft;

/**
 * Told, on the raft member's thread, whenever its role, its term or the leader it knows changes.
 */
@FunctionalInterface
public interface RaftRoleListener {

  /**
   * @param leaderId the leader of {@code term} as far as this member knows, or -1
   */
  void onRoleChange(RaftRole role, long term, int leaderId);
}
