package io.cairn.raft;

/**
 * An entry a caller waits for will never be committed (it was replaced by another leader's entry),
 * or its outcome cannot be known any more (the member closed or failed, or a snapshot replaced the
 * log). The caller decides whether to write it again.
 */
public final class RaftEntryNotCommittedException extends RuntimeException {

  public RaftEntryNotCommittedException(String message) {
    super(message, null, false, false);
  }
}
