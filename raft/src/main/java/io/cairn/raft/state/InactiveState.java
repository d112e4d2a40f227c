package io.cairn.raft.state;

import io.cairn.raft.RaftRole;

/** Before start and after close. */
public record InactiveState(long term) implements RoleState {
  @Override
  public RaftRole role() {
    return RaftRole.INACTIVE;
  }
}
