package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;

/**
 * The status byte of every broker response. Only {@link #OK} carries a body; every other status
 * carries a reason (and, for {@link #NOT_LEADER}, the leader the broker knows of). The codes are
 * part of the wire format and never change.
 */
public enum ResponseStatus {
  /** The request was handled; the body follows. */
  OK(0),
  /** This broker does not lead the partition; refresh the topology and retry at the leader. */
  NOT_LEADER(1),
  /** The partition is overloaded; retry later. */
  BACKPRESSURE(2),
  /** The partition is hosted here but cannot serve (recovering, failed, closing). */
  PARTITION_UNAVAILABLE(3),
  /** The broker did not get a response from the partition in time; the outcome is unknown. */
  TIMEOUT(4),
  /** The request was malformed or violated a rule; the reason says which. Retrying cannot help. */
  INVALID(5),
  /** The request conflicts with the current state (for example deleting a running backup). */
  CONFLICT(6),
  /** A dependency is unavailable (for example no backup store is configured or reachable). */
  UNAVAILABLE(7),
  /** The broker failed unexpectedly; the reason names the error. */
  INTERNAL_ERROR(8);

  private static final ResponseStatus[] BY_CODE = new ResponseStatus[9];

  static {
    for (ResponseStatus status : values()) {
      BY_CODE[status.code] = status;
    }
  }

  private final int code;

  ResponseStatus(int code) {
    this.code = code;
  }

  /** The stable code written to the wire (an unsigned byte). */
  public int code() {
    return code;
  }

  /**
   * @throws ProtocolException if no status has this code
   */
  public static ResponseStatus fromCode(int code) {
    if (code < 0 || code >= BY_CODE.length) {
      throw new ProtocolException(
          "Expected a response status code in [0, " + (BY_CODE.length - 1) + "], but was " + code);
    }
    return BY_CODE[code];
  }
}
