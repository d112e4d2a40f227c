package io.cairn.raft.consensus;

import io.cairn.raft.protocol.RaftMessage;

/**
 * Where the decision code puts the messages it sends; the actor shell hands them to the network.
 */
@FunctionalInterface
public interface RaftOutbox {
  void send(int memberId, RaftMessage message);
}
