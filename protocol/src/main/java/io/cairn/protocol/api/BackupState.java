package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;

/**
 * The state of one partition's backup in the store, as the backup-api's status code. The codes are
 * part of the wire format and never change.
 */
public enum BackupState {
  DOES_NOT_EXIST(0),
  IN_PROGRESS(1),
  COMPLETED(2),
  FAILED(3);

  private static final BackupState[] BY_CODE = new BackupState[4];

  static {
    for (BackupState state : values()) {
      BY_CODE[state.code] = state;
    }
  }

  private final int code;

  BackupState(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /**
   * @throws ProtocolException if no state has this code
   */
  public static BackupState fromCode(int code) {
    if (code < 0 || code >= BY_CODE.length) {
      throw new ProtocolException(
          "Expected a backup state code in [0, " + (BY_CODE.length - 1) + "], but was " + code);
    }
    return BY_CODE[code];
  }
}
