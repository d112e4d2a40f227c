package io.cairn.raft.state;

import io.cairn.raft.RaftRole;

/** The data a member keeps while it has one role; one class per role. */
public sealed interface RoleState
    permits InactiveState,
        FollowerState,
        PreCandidateState,
        CandidateState,
        LeaderState,
        FailedState {

  RaftRole role();

  /** The term in which the member took this role. */
  long term();

  /** The id of the leader this member knows of in its term, or -1. */
  default int leaderId() {
    return -1;
  }
}
