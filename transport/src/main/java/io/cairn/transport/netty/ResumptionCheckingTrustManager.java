package io.cairn.transport.netty;

import io.netty.handler.ssl.ResumableX509ExtendedTrustManager;
import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The member's trust manager, asked again when a peer resumes a TLS session. The JDK resumes a
 * session without asking the trust manager, so a peer holding a session ticket would skip the
 * checks a new handshake makes against the material in use (a CA removed from the bundle, a
 * certificate expired since); netty calls {@link ResumableX509ExtendedTrustManager}'s methods then,
 * and this one runs the full chain check again (the handshake session is gone by then, so without
 * the engine: no host check, which the session had passed when it was made).
 */
final class ResumptionCheckingTrustManager extends X509ExtendedTrustManager
    implements ResumableX509ExtendedTrustManager {

  /** The JDK's authType for a server check whose key exchange is not known (TLS 1.3's). */
  private static final String UNKNOWN_AUTH_TYPE = "UNKNOWN";

  private final X509ExtendedTrustManager delegate;

  ResumptionCheckingTrustManager(X509ExtendedTrustManager delegate) {
    this.delegate = delegate;
  }

  @Override
  public void resumeClientTrusted(X509Certificate[] chain, SSLEngine engine)
      throws CertificateException {
    delegate.checkClientTrusted(chain, keyAlgorithm(chain));
  }

  @Override
  public void resumeServerTrusted(X509Certificate[] chain, SSLEngine engine)
      throws CertificateException {
    delegate.checkServerTrusted(chain, UNKNOWN_AUTH_TYPE);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    delegate.checkClientTrusted(chain, authType, socket);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    delegate.checkServerTrusted(chain, authType, socket);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    delegate.checkClientTrusted(chain, authType, engine);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    delegate.checkServerTrusted(chain, authType, engine);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    delegate.checkClientTrusted(chain, authType);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    delegate.checkServerTrusted(chain, authType);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return delegate.getAcceptedIssuers();
  }

  private static String keyAlgorithm(X509Certificate[] chain) throws CertificateException {
    if (chain == null || chain.length == 0) {
      throw new CertificateException(
          "Expected the resumed session to hold the peer's certificate chain, but it is empty");
    }
    return chain[0].getPublicKey().getAlgorithm();
  }
}
