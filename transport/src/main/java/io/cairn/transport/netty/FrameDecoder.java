package io.cairn.transport.netty;

import io.cairn.transport.TransportMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts the byte stream into {@link Frame}s (layout in {@link FrameDescriptor}). A frame that is
 * over the limit or malformed closes the connection with a WARN naming the reason; bytes after it
 * are discarded. Runs on the event loop and does nothing but decode.
 */
final class FrameDecoder extends ByteToMessageDecoder {

  private static final Logger LOG = LoggerFactory.getLogger(FrameDecoder.class);

  private final int localNodeId;
  private final int maxFrameSizeBytes;
  private final TransportMetrics metrics;
  private boolean discarding;

  FrameDecoder(int localNodeId, int maxFrameSizeBytes, TransportMetrics metrics) {
    this.localNodeId = localNodeId;
    this.maxFrameSizeBytes = maxFrameSizeBytes;
    this.metrics = metrics;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (discarding) {
      in.skipBytes(in.readableBytes());
      return;
    }
    if (in.readableBytes() < Integer.BYTES) {
      return;
    }
    int start = in.readerIndex();
    int frameLength = in.getInt(start + FrameDescriptor.FRAME_LENGTH_OFFSET);
    if (frameLength < FrameDescriptor.HEADER_LENGTH || frameLength > maxFrameSizeBytes) {
      reject(
          ctx,
          in,
          "Expected a frame length in ["
              + FrameDescriptor.HEADER_LENGTH
              + ", "
              + maxFrameSizeBytes
              + "] (maxFrameSizeBytes), but was "
              + frameLength);
      return;
    }
    if (in.readableBytes() < frameLength) {
      return;
    }
    byte version = in.getByte(start + FrameDescriptor.VERSION_OFFSET);
    if (version != FrameDescriptor.VERSION) {
      reject(ctx, in, "Expected frame version " + FrameDescriptor.VERSION + ", but was " + version);
      return;
    }
    byte kindCode = in.getByte(start + FrameDescriptor.KIND_OFFSET);
    FrameKind kind = FrameKind.of(kindCode);
    if (kind == null) {
      reject(ctx, in, "Expected frame kind 1, 2 or 3, but was " + kindCode);
      return;
    }
    byte statusCode = in.getByte(start + FrameDescriptor.STATUS_OFFSET);
    FrameStatus status = FrameStatus.of(statusCode);
    if (status == null || (kind != FrameKind.RESPONSE && status != FrameStatus.OK)) {
      reject(ctx, in, "Expected a valid status for a " + kind + " frame, but was " + statusCode);
      return;
    }
    int typeLength = in.getUnsignedByte(start + FrameDescriptor.TYPE_LENGTH_OFFSET);
    if (kind != FrameKind.RESPONSE && typeLength == 0) {
      reject(ctx, in, "Expected a type length >= 1 for a " + kind + " frame, but was 0");
      return;
    }
    if (FrameDescriptor.HEADER_LENGTH + typeLength > frameLength) {
      reject(
          ctx,
          in,
          "Expected a type length <= "
              + (frameLength - FrameDescriptor.HEADER_LENGTH)
              + " in a frame of "
              + frameLength
              + " bytes, but was "
              + typeLength);
      return;
    }
    long requestId = in.getLong(start + FrameDescriptor.REQUEST_ID_OFFSET);
    int senderNodeId = in.getInt(start + FrameDescriptor.SENDER_NODE_ID_OFFSET);
    String type =
        in.toString(start + FrameDescriptor.TYPE_OFFSET, typeLength, StandardCharsets.UTF_8);
    int payloadLength = frameLength - FrameDescriptor.HEADER_LENGTH - typeLength;
    byte[] payload = new byte[payloadLength];
    in.getBytes(start + FrameDescriptor.TYPE_OFFSET + typeLength, payload);
    in.skipBytes(frameLength);
    metrics.bytesReceived(frameLength);
    out.add(new Frame(kind, status, requestId, senderNodeId, type, payload));
  }

  private void reject(ChannelHandlerContext ctx, ByteBuf in, String reason) {
    discarding = true;
    in.skipBytes(in.readableBytes());
    metrics.invalidFrame();
    LOG.warn(
        "Closing connection {} of node {}: {}. Check that every member runs the same version"
            + " with the same maxFrameSizeBytes and that nothing else connects to this port",
        ctx.channel().remoteAddress(),
        localNodeId,
        reason);
    ctx.close();
  }
}
