package io.cairn.transport.netty;

/** Outcome carried by a response; the {@code status} byte of {@link FrameDescriptor}. */
public enum FrameStatus {
  /** The payload is the handler's response (always the status of requests and messages). */
  OK(0),
  /** The responder has no request handler for the type; the payload is UTF-8 text. */
  NO_HANDLER(1),
  /** The handler threw or failed its future; the payload is UTF-8 text. */
  HANDLER_FAILURE(2);

  private final byte code;

  FrameStatus(int code) {
    this.code = (byte) code;
  }

  public byte code() {
    return code;
  }

  /** The status of a code, or {@code null} when the code is unknown. */
  public static FrameStatus of(byte code) {
    return switch (code) {
      case 0 -> OK;
      case 1 -> NO_HANDLER;
      case 2 -> HANDLER_FAILURE;
      default -> null;
    };
  }
}
