package io.cairn.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/** Writes frames in the layout of {@link FrameDescriptor}. */
final class FrameEncoder {

  private static final byte[] NO_TYPE = new byte[0];

  private FrameEncoder() {}

  /**
   * Encodes one frame into a new buffer owned by the caller.
   *
   * @param typeBytes the checked UTF-8 type ({@link FrameDescriptor#typeBytes}), or {@code null}
   *     for none
   */
  static ByteBuf encode(
      ByteBufAllocator allocator,
      FrameKind kind,
      FrameStatus status,
      long requestId,
      int senderNodeId,
      byte[] typeBytes,
      byte[] payload) {
    byte[] type = typeBytes == null ? NO_TYPE : typeBytes;
    int frameLength = Math.toIntExact(FrameDescriptor.frameLength(type.length, payload.length));
    ByteBuf buffer = allocator.buffer(frameLength, frameLength);
    buffer.writeInt(frameLength);
    buffer.writeByte(FrameDescriptor.VERSION);
    buffer.writeByte(kind.code());
    buffer.writeByte(status.code());
    buffer.writeByte(type.length);
    buffer.writeLong(requestId);
    buffer.writeInt(senderNodeId);
    buffer.writeBytes(type);
    buffer.writeBytes(payload);
    return buffer;
  }
}
