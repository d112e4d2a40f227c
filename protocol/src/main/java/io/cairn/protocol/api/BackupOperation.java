package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;

/** What a {@link BackupRequest} asks. The codes are part of the wire format and never change. */
public enum BackupOperation {
  /** Every partition status of one backup id (any node), unaggregated. */
  STATUS(0),
  /** One page of partition statuses of the backup ids matching a pattern. */
  LIST(1),
  /** Delete every partition's backup of one id from the store. */
  DELETE(2);

  private static final BackupOperation[] BY_CODE = new BackupOperation[3];

  static {
    for (BackupOperation operation : values()) {
      BY_CODE[operation.code] = operation;
    }
  }

  private final int code;

  BackupOperation(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /**
   * @throws ProtocolException if no operation has this code
   */
  public static BackupOperation fromCode(int code) {
    if (code < 0 || code >= BY_CODE.length) {
      throw new ProtocolException(
          "Expected a backup operation code in [0, " + (BY_CODE.length - 1) + "], but was " + code);
    }
    return BY_CODE[code];
  }
}
