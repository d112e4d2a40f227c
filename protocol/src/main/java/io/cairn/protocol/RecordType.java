package io.cairn.protocol;

/**
 * What a record is: a request to change state, a fact that changed it, or the refusal of a request.
 * The codes are part of the binary format and never change.
 */
public enum RecordType {
  /** A request to change state; processed by the partition leader. */
  COMMAND(1),
  /** A fact; applied to state by event appliers on leaders and followers alike. */
  EVENT(2),
  /** A refused command; carries the command's intent and a {@link RejectionType}. */
  REJECTION(3);

  private static final RecordType[] BY_CODE = new RecordType[4];

  static {
    for (RecordType type : values()) {
      BY_CODE[type.code] = type;
    }
  }

  private final int code;

  RecordType(int code) {
    this.code = code;
  }

  /** The stable code written to the binary format (an unsigned byte). */
  public int code() {
    return code;
  }

  /**
   * @throws ProtocolException if no record type has this code
   */
  public static RecordType fromCode(int code) {
    if (code < 0 || code >= BY_CODE.length || BY_CODE[code] == null) {
      throw new ProtocolException(
          "Expected a record type code (1 COMMAND, 2 EVENT, 3 REJECTION), but was " + code);
    }
    return BY_CODE[code];
  }
}
