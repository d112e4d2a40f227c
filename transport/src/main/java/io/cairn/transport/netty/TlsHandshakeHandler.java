package io.cairn.transport.netty;

import io.cairn.transport.TransportMetrics.TlsRole;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stage right after netty's {@link SslHandler}: reports a failed handshake of an accepted
 * connection, and keeps TLS failures from the frame stages (which would log them as unexpected
 * errors). The {@code SslHandler} itself closes a connection whose handshake failed and passes no
 * byte on before the handshake completed, so no frame is decoded or dispatched before it.
 *
 * <p>On a dialled connection a TLS failure after the handshake (TLS 1.3: the server refuses the
 * client's certificate only once the client has finished) is kept in the channel's {@link #REFUSAL}
 * attribute for {@link PeerConnection}, which reports it with the member's id and backs off; a
 * failed handshake there is reported by {@code PeerConnection} from the handshake future.
 */
final class TlsHandshakeHandler extends ChannelInboundHandlerAdapter {

  /** Why the peer closed a dialled TLS connection after its handshake; absent otherwise. */
  static final AttributeKey<String> REFUSAL = AttributeKey.valueOf("cairn.transport.tls.refusal");

  private static final Logger LOG = LoggerFactory.getLogger(TlsHandshakeHandler.class);

  private final int localNodeId;
  private final TlsRole role;
  private final SslHandler ssl;
  private final TlsRefusals refusals;

  TlsHandshakeHandler(int localNodeId, TlsRole role, SslHandler ssl, TlsRefusals refusals) {
    this.localNodeId = localNodeId;
    this.role = role;
    this.ssl = ssl;
    this.refusals = refusals;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    if (role == TlsRole.SERVER) {
      ssl.handshakeFuture()
          .addListener(
              handshake -> {
                if (!handshake.isSuccess()) {
                  refusals.serverHandshakeFailed(ctx.channel().remoteAddress(), handshake.cause());
                  ctx.close();
                }
              });
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (!TlsRefusals.isTlsFailure(cause)) {
      ctx.fireExceptionCaught(cause);
      return;
    }
    boolean handshakeDone = ssl.handshakeFuture().isSuccess();
    String reason = TlsRefusals.describe(cause);
    if (role == TlsRole.CLIENT && handshakeDone) {
      ctx.channel().attr(REFUSAL).setIfAbsent(reason);
    }
    LOG.debug(
        "Node {} closes TLS connection {} ({}): {}",
        localNodeId,
        ctx.channel().remoteAddress(),
        handshakeDone ? "after the handshake" : "during the handshake",
        reason);
    ctx.close();
  }
}
