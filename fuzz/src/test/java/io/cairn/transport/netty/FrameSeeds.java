package io.cairn.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * Valid frame streams for the seeds of {@link FrameDecoderFuzzTest}, written by the transport's own
 * encoder, which is internal to this package. An input's first byte says where the stream is split
 * in two reads; the rest is the stream.
 */
public final class FrameSeeds {

  private FrameSeeds() {}

  /** The fuzz test the seeds are for. */
  public static Class<?> test() {
    return FrameDecoderFuzzTest.class;
  }

  /** A request and its answer, the stream split inside the answer's header. */
  public static byte[] requestAndResponse() {
    byte[] request =
        frame(FrameKind.REQUEST, FrameStatus.OK, "raft-append", bytes("entries to append"));
    byte[] response = frame(FrameKind.RESPONSE, FrameStatus.OK, null, bytes("appended"));
    return input(request.length + 6, request, response);
  }

  /** A one-way message and an answer that no handler took, split inside the message's payload. */
  public static byte[] messageAndRefusedResponse() {
    byte[] message =
        frame(FrameKind.MESSAGE, FrameStatus.OK, "inter-partition", bytes("a transfer's credit"));
    byte[] refused =
        frame(FrameKind.RESPONSE, FrameStatus.NO_HANDLER, null, bytes("no handler for type x"));
    return input(message.length - 4, message, refused);
  }

  private static byte[] input(int split, byte[]... frames) {
    if (split >= 256) {
      throw new IllegalArgumentException("Expected a split below 256, but was " + split);
    }
    int length = 1;
    for (byte[] frame : frames) {
      length += frame.length;
    }
    byte[] input = new byte[length];
    // the first read is (first byte % input length) bytes of the stream
    input[0] = (byte) split;
    int offset = 1;
    for (byte[] frame : frames) {
      System.arraycopy(frame, 0, input, offset, frame.length);
      offset += frame.length;
    }
    return input;
  }

  private static byte[] frame(FrameKind kind, FrameStatus status, String type, byte[] payload) {
    ByteBuf buffer =
        FrameEncoder.encode(
            UnpooledByteBufAllocator.DEFAULT,
            kind,
            status,
            42,
            1,
            type == null ? null : FrameDescriptor.typeBytes(type),
            payload);
    try {
      return ByteBufUtil.getBytes(buffer);
    } finally {
      buffer.release();
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
