package io.cairn.transport.netty;

/** What a frame carries; the {@code kind} byte of {@link FrameDescriptor}. */
public enum FrameKind {
  REQUEST(1),
  RESPONSE(2),
  MESSAGE(3);

  private final byte code;

  FrameKind(int code) {
    this.code = (byte) code;
  }

  public byte code() {
    return code;
  }

  /** The kind of a code, or {@code null} when the code is unknown. */
  public static FrameKind of(byte code) {
    return switch (code) {
      case 1 -> REQUEST;
      case 2 -> RESPONSE;
      case 3 -> MESSAGE;
      default -> null;
    };
  }
}
