package io.cairn.transport.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Last stage of every pipeline: routes decoded frames; closes the channel on errors. */
final class FrameHandler extends SimpleChannelInboundHandler<Frame> {

  private static final Logger LOG = LoggerFactory.getLogger(FrameHandler.class);

  private final int localNodeId;
  private final InboundDispatcher dispatcher;
  private final PendingRequests pending;

  FrameHandler(int localNodeId, InboundDispatcher dispatcher, PendingRequests pending) {
    this.localNodeId = localNodeId;
    this.dispatcher = dispatcher;
    this.pending = pending;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, Frame frame) {
    switch (frame.kind()) {
      case REQUEST -> dispatcher.onRequest(ctx.channel(), frame);
      case MESSAGE -> dispatcher.onMessage(frame);
      case RESPONSE -> pending.onResponse(frame);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof IOException) {
      LOG.debug(
          "Node {} closes connection {}: {}",
          localNodeId,
          ctx.channel().remoteAddress(),
          cause.toString());
    } else {
      LOG.warn(
          "Node {} closes connection {} after an unexpected error",
          localNodeId,
          ctx.channel().remoteAddress(),
          cause);
    }
    ctx.close();
  }
}
