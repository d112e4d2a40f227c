package io.cairn.raft;

/**
 * A Raft safety invariant would be broken (for example truncating a committed entry, or two leaders
 * in one term). The member stops (role FAILED) instead of continuing: an operator must look at the
 * partition's data before it may run again.
 */
public final class RaftSafetyException extends IllegalStateException {
  public RaftSafetyException(String message) {
    super(message);
  }
}
