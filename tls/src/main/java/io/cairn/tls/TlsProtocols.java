package io.cairn.tls;

import java.util.List;

/**
 * The TLS versions Cairn speaks: 1.3 and 1.2, nothing older (TLS 1.0 and 1.1 are deprecated by RFC
 * 8996). The {@code SSLContext}s of {@link ServerTls} and {@link ClientTls} enable exactly these on
 * every socket and engine they make; netty users pass them to {@code
 * SslContextBuilder.protocols(...)}.
 */
public final class TlsProtocols {

  /** The enabled versions, newest first, as the JDK names them. */
  public static final List<String> ENABLED = List.of("TLSv1.3", "TLSv1.2");

  private TlsProtocols() {}
}
