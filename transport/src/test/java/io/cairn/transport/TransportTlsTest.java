package io.cairn.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.junit.jupiter.api.Test;

class TransportTlsTest {

  private final X509ExtendedKeyManager keyManager;
  private final X509ExtendedTrustManager trustManager;

  TransportTlsTest() throws Exception {
    keyManager = emptyKeyManager();
    trustManager = jdkTrustManager();
  }

  @Test
  void shouldRefuseProtocolsOlderThanTls12NamingThem() {
    assertThatThrownBy(
            () -> new TransportTls(keyManager, trustManager, List.of("TLSv1.3", "TLSv1.1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected TLS protocols among [TLSv1.3, TLSv1.2]")
        .hasMessageContaining("but was [TLSv1.3, TLSv1.1]")
        .hasMessageContaining("TlsProtocols.ENABLED");
  }

  @Test
  void shouldRefuseAnEmptyProtocolList() {
    assertThatThrownBy(() -> new TransportTls(keyManager, trustManager, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one, but was []");
  }

  @Test
  void shouldKeepItsOwnCopyOfTheProtocols() {
    List<String> protocols = new ArrayList<>(List.of("TLSv1.3"));
    TransportTls tls = new TransportTls(keyManager, trustManager, protocols);

    protocols.add("TLSv1.2");

    assertThat(tls.protocols()).containsExactly("TLSv1.3");
    assertThat(tls.toString())
        .isEqualTo(
            "TransportTls{protocols=[TLSv1.3], keyManager="
                + keyManager.getClass().getSimpleName()
                + ", trustManager="
                + trustManager.getClass().getSimpleName()
                + "}");
  }

  private static X509ExtendedKeyManager emptyKeyManager() throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    KeyManagerFactory factory = KeyManagerFactory.getInstance("PKIX");
    factory.init(store, new char[0]);
    return (X509ExtendedKeyManager) factory.getKeyManagers()[0];
  }

  private static X509ExtendedTrustManager jdkTrustManager() throws GeneralSecurityException {
    TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
    factory.init((KeyStore) null);
    return (X509ExtendedTrustManager) factory.getTrustManagers()[0];
  }
}
