package io.cairn.protocol;

/**
 * Why a command was rejected. {@link #NONE} on every record that is not a {@link
 * RecordType#REJECTION}. The codes are part of the binary format and never change.
 */
public enum RejectionType {
  /** Not a rejection. */
  NONE(0),
  /** A field of the command is outside its allowed range (for example a non-positive amount). */
  INVALID_ARGUMENT(1),
  /** The command refers to something that does not exist (for example an unknown account). */
  NOT_FOUND(2),
  /** The command would create something that exists already. */
  ALREADY_EXISTS(3),
  /** The source account's balance is lower than the transfer amount. */
  INSUFFICIENT_FUNDS(4),
  /** The command is valid but not allowed in the current state. */
  INVALID_STATE(5),
  /** Processing the command failed unexpectedly; the reason names the error. */
  PROCESSING_ERROR(6);

  private static final RejectionType[] BY_CODE = new RejectionType[7];

  static {
    for (RejectionType type : values()) {
      BY_CODE[type.code] = type;
    }
  }

  private final int code;

  RejectionType(int code) {
    this.code = code;
  }

  /** The stable code written to the binary format (an unsigned byte). */
  public int code() {
    return code;
  }

  /**
   * @throws ProtocolException if no rejection type has this code
   */
  public static RejectionType fromCode(int code) {
    if (code < 0 || code >= BY_CODE.length || BY_CODE[code] == null) {
      throw new ProtocolException(
          "Expected a rejection type code in [0, " + (BY_CODE.length - 1) + "], but was " + code);
    }
    return BY_CODE[code];
  }
}
