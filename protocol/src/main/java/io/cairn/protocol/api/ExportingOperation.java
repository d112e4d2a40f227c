package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;

/** What a {@code cairn-exporting} request asks. The codes never change. */
public enum ExportingOperation {
  /** Pause exporting on every partition this broker leads (the paused flag survives restarts). */
  PAUSE(0),
  /** Resume exporting. */
  RESUME(1),
  /** Report whether exporting is paused. */
  STATUS(2);

  private static final ExportingOperation[] BY_CODE = new ExportingOperation[3];

  static {
    for (ExportingOperation operation : values()) {
      BY_CODE[operation.code] = operation;
    }
  }

  private final int code;

  ExportingOperation(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /**
   * @throws ProtocolException if no operation has this code
   */
  public static ExportingOperation fromCode(int code) {
    if (code < 0 || code >= BY_CODE.length) {
      throw new ProtocolException(
          "Expected an exporting operation code in [0, "
              + (BY_CODE.length - 1)
              + "], but was "
              + code);
    }
    return BY_CODE[code];
  }
}
