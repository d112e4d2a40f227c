package io.cairn.transport.netty;

import java.nio.charset.StandardCharsets;

/**
 * Layout of a frame on the wire. All integers are big-endian; one frame per request, response or
 * one-way message.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |            frame length (int32, header included)              |  0
 *  +---------------+---------------+---------------+---------------+
 *  |    version    |     kind      |    status     |  type length  |  4
 *  +---------------+---------------+---------------+---------------+
 *  |                                                               |  8
 *  +                      request id (int64)                       +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                    sender node id (int32)                     | 16
 *  +---------------------------------------------------------------+
 *  |            type (UTF-8, type length bytes)                   ...  20
 *  +---------------------------------------------------------------+
 *  |            payload (frame length - 20 - type length bytes)   ...
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>version: {@link #VERSION}; a frame of another version closes the connection.
 *   <li>kind: 1 request, 2 response, 3 one-way message ({@link FrameKind}).
 *   <li>status: 0 for requests and messages; for responses 0 ok (payload = response), 1 no handler,
 *       2 handler failed (payload = UTF-8 error text) ({@link FrameStatus}).
 *   <li>type length: 1..255 for requests and messages; responses may leave it 0.
 *   <li>request id: chosen by the requester, echoed by the response; 0 for messages.
 *   <li>sender node id: the member that wrote the frame.
 * </ul>
 *
 * A frame whose length is below {@link #HEADER_LENGTH}, above the receiver's maxFrameSizeBytes, or
 * whose fields break these rules is malformed: the receiver logs a WARN and closes that connection.
 */
public final class FrameDescriptor {

  public static final byte VERSION = 1;

  public static final int FRAME_LENGTH_OFFSET = 0;
  public static final int VERSION_OFFSET = 4;
  public static final int KIND_OFFSET = 5;
  public static final int STATUS_OFFSET = 6;
  public static final int TYPE_LENGTH_OFFSET = 7;
  public static final int REQUEST_ID_OFFSET = 8;
  public static final int SENDER_NODE_ID_OFFSET = 16;
  public static final int TYPE_OFFSET = 20;

  /** Bytes before the type: every field of fixed size, the frame length included. */
  public static final int HEADER_LENGTH = TYPE_OFFSET;

  /** Longest type name, in UTF-8 bytes. */
  public static final int MAX_TYPE_LENGTH = 255;

  private FrameDescriptor() {}

  /** The whole frame's length for a type of {@code typeLength} bytes and a payload. */
  public static long frameLength(int typeLength, int payloadLength) {
    return (long) HEADER_LENGTH + typeLength + payloadLength;
  }

  /** The whole frame's length for {@code type} and a payload of {@code payloadLength} bytes. */
  public static long frameLength(String type, int payloadLength) {
    return frameLength(typeBytes(type).length, payloadLength);
  }

  /**
   * The UTF-8 bytes of a message type, checked.
   *
   * @throws IllegalArgumentException if the type is empty or longer than {@link #MAX_TYPE_LENGTH}
   *     bytes
   */
  public static byte[] typeBytes(String type) {
    if (type == null || type.isEmpty()) {
      throw new IllegalArgumentException("Expected a non-empty message type, but was " + type);
    }
    byte[] bytes = type.getBytes(StandardCharsets.UTF_8);
    if (bytes.length > MAX_TYPE_LENGTH) {
      throw new IllegalArgumentException(
          "Expected a message type of at most "
              + MAX_TYPE_LENGTH
              + " UTF-8 bytes, but was "
              + bytes.length
              + " ('"
              + type.substring(0, 32)
              + "...')");
    }
    return bytes;
  }
}
