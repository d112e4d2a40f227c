package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;

/**
 * The role of a broker's replica of a partition, as its topology reports it. The codes equal the
 * broker's partition role codes and never change.
 */
public enum ReplicaRole {
  /** No stream processor runs (starting, or a transition is retried). */
  INACTIVE(0),
  /** Replicates and replays; does not process commands. */
  FOLLOWER(1),
  /** Processes commands. */
  LEADER(2),
  /** Stopped for good; needs an operator. */
  FAILED(3),
  /** Closed. */
  CLOSED(4);

  private static final ReplicaRole[] BY_CODE = new ReplicaRole[5];

  static {
    for (ReplicaRole role : values()) {
      BY_CODE[role.code] = role;
    }
  }

  private final int code;

  ReplicaRole(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /**
   * @throws ProtocolException if no role has this code
   */
  public static ReplicaRole fromCode(int code) {
    if (code < 0 || code >= BY_CODE.length) {
      throw new ProtocolException(
          "Expected a replica role code in [0, " + (BY_CODE.length - 1) + "], but was " + code);
    }
    return BY_CODE[code];
  }
}
