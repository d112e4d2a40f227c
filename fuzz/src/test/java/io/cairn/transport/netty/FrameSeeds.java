package io.cairn.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
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
        frame(FrameKind.REQUEST, FrameStatus.OK, 42, "raft-append", bytes("entries to append"));
    byte[] response = frame(FrameKind.RESPONSE, FrameStatus.OK, 42, null, bytes("appended"));
    return input(request.length + 6, request, response);
  }

  /** A one-way message and an answer that no handler took, split inside the message's payload. */
  public static byte[] messageAndRefusedResponse() {
    byte[] message =
        frame(
            FrameKind.MESSAGE, FrameStatus.OK, 0, "inter-partition", bytes("a transfer's credit"));
    byte[] refused =
        frame(FrameKind.RESPONSE, FrameStatus.NO_HANDLER, 7, null, bytes("no handler for type x"));
    return input(message.length - 4, message, refused);
  }

  /** The frames behind a first byte that makes the first read {@code split} bytes of them. */
  private static byte[] input(int split, byte[]... frames) {
    if (split >= 256) {
      throw new IllegalArgumentException("Expected a split below 256, but was " + split);
    }
    ByteArrayOutputStream input = new ByteArrayOutputStream();
    input.write(split); // the first read is (first byte % input length) bytes of the stream
    for (byte[] frame : frames) {
      input.writeBytes(frame);
    }
    return input.toByteArray();
  }

  /** One frame from {@code FrameEncoder}; messages carry request id 0. */
  private static byte[] frame(
      FrameKind kind, FrameStatus status, long requestId, String type, byte[] payload) {
    ByteBuf buffer =
        FrameEncoder.encode(
            UnpooledByteBufAllocator.DEFAULT,
            kind,
            status,
            requestId,
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
