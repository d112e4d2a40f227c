package io.cairn.raft.log;

/** What a raft entry carries. The code is stored in the entry header; never reuse a code. */
public enum RaftEntryType {
  /** Appended by every new leader in its term; carries no stream records. */
  INITIAL((byte) 1),
  /** A batch of stream records written by the application through the leader. */
  APPLICATION((byte) 2);

  private final byte code;

  RaftEntryType(byte code) {
    this.code = code;
  }

  public byte code() {
    return code;
  }

  /**
   * @throws IllegalArgumentException if the code is unknown
   */
  public static RaftEntryType fromCode(byte code) {
    for (RaftEntryType type : values()) {
      if (type.code == code) {
        return type;
      }
    }
    throw new IllegalArgumentException(
        "Expected a raft entry type code in [1, 2], but was " + code + " (raft entry header)");
  }
}
