package io.cairn.transport.netty;

import io.cairn.tls.ClientAuth;
import io.cairn.tls.LocalCertificateAuthority;
import io.cairn.tls.PemPair;
import io.cairn.tls.ServerTls;
import io.cairn.tls.TlsFile;
import io.cairn.tls.TlsFiles;
import io.cairn.tls.TlsMaterialSource;
import io.cairn.tls.TlsProtocols;
import io.cairn.transport.TransportTls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The certificates of a transport TLS test, made by the tls module's {@link
 * LocalCertificateAuthority} and written into the test's directory (keys owner-only), and the
 * {@link TransportTls} a broker would build from them: one {@link ServerTls} with client
 * certificates required, whose key and trust managers serve both sides of the member.
 */
final class TransportPki {

  /** How often the members' TLS files are checked for changes, on the material's own clock. */
  static final Duration CHECK_INTERVAL = TlsMaterialSource.DEFAULT_CHECK_INTERVAL;

  final Path dir;
  final Instant now;
  final LocalCertificateAuthority ca;
  final Path caFile;

  /** A CA valid a week either side of the real now (handshakes check the system time). */
  TransportPki(Path dir, String caName) {
    this.dir = dir;
    this.now = Instant.now();
    this.ca =
        LocalCertificateAuthority.create(
            caName, now.minus(Duration.ofDays(7)), now.plus(Duration.ofDays(7)));
    this.caFile = dir.resolve(caName.replace(' ', '-') + ".crt");
    ca.writeCertificate(caFile);
  }

  /** A leaf valid an hour either side of now, naming localhost and 127.0.0.1. */
  LocalCertificateAuthority.Leaf leaf(String name) {
    return ca.leaf(name, now.minus(Duration.ofHours(1)), now.plus(Duration.ofHours(1)));
  }

  /** Issues a leaf and writes {@code <name>.crt} and {@code <name>.key}. */
  PemPair write(String name) {
    return leaf(name).issue().writeInto(dir, name);
  }

  /** A bundle file holding this CA's certificate and {@code other}'s. */
  Path bundleWith(TransportPki other) {
    Path bundle = dir.resolve("bundle-" + caFile.getFileName());
    try {
      Files.writeString(bundle, Files.readString(caFile) + Files.readString(other.caFile));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bundle;
  }

  /** Mutual TLS with this CA's bundle, material checked on the system clock. */
  TransportTls tls(PemPair identity) {
    return tls(identity, caFile, Clock.systemUTC());
  }

  /**
   * Mutual TLS with {@code bundle}; {@code clock} is the material's (validity, reload interval).
   */
  static TransportTls tls(PemPair identity, Path bundle, Clock clock) {
    return tls(serverTls(identity, bundle, clock));
  }

  static ServerTls serverTls(PemPair identity, Path bundle, Clock clock) {
    return ServerTls.load(
        TlsFiles.identityAndTrust(
            new TlsFile("transport.tls.certificateChainFile", identity.certificate()),
            new TlsFile("transport.tls.privateKeyFile", identity.privateKey()),
            new TlsFile("transport.tls.trustedCertificatesFile", bundle)),
        ClientAuth.REQUIRED,
        clock,
        CHECK_INTERVAL);
  }

  static TransportTls tls(ServerTls serverTls) {
    return new TransportTls(
        serverTls.keyManager(), serverTls.trustManager().orElseThrow(), TlsProtocols.ENABLED);
  }
}
