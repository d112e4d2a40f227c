package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;

/**
 * The health of a broker's replica of a partition. The codes equal the broker's partition health
 * codes and never change.
 */
public enum ReplicaHealth {
  /** Following or leading normally. */
  HEALTHY(0),
  /** Degraded but recovering by itself. */
  UNHEALTHY(1),
  /** Stopped for good; needs an operator. */
  FAILED(2);

  private static final ReplicaHealth[] BY_CODE = new ReplicaHealth[3];

  static {
    for (ReplicaHealth health : values()) {
      BY_CODE[health.code] = health;
    }
  }

  private final int code;

  ReplicaHealth(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /**
   * @throws ProtocolException if no health has this code
   */
  public static ReplicaHealth fromCode(int code) {
    if (code < 0 || code >= BY_CODE.length) {
      throw new ProtocolException(
          "Expected a replica health code in [0, " + (BY_CODE.length - 1) + "], but was " + code);
    }
    return BY_CODE[code];
  }
}
