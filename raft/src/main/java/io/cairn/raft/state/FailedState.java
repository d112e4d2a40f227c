package io.cairn.raft.state;

import io.cairn.raft.RaftRole;

/** Stopped for good because of {@code cause}. */
public record FailedState(long term, Throwable cause) implements RoleState {
  @Override
  public RaftRole role() {
    return RaftRole.FAILED;
  }
}
