package io.cairn.tls;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;

/**
 * The certificates of a test: a cluster CA (and a foreign one on demand) whose files are written
 * into the test's directory, and the configuration keys that name them in messages.
 */
final class Pki {
  static final String CHAIN_KEY = "broker.tls.certificateChainFile";
  static final String KEY_KEY = "broker.tls.privateKeyFile";
  static final String CA_KEY = "broker.tls.trustedCertificatesFile";

  final Path dir;
  final Instant now;
  final LocalCertificateAuthority ca;
  final Path caFile;

  /** A CA valid a day either side of the real now (handshakes check the system time). */
  Pki(Path dir) {
    this(dir, "Cairn test CA");
  }

  Pki(Path dir, String caName) {
    this.dir = dir;
    this.now = Instant.now();
    this.ca =
        LocalCertificateAuthority.create(
            caName,
            now.minus(Duration.ofDays(1)),
            now.plus(Duration.ofDays(1)),
            KeyAlgorithm.EC_P256,
            new SecureRandom());
    this.caFile = dir.resolve(caName.replace(' ', '-') + ".crt");
    ca.writeCertificate(caFile);
  }

  /** A leaf valid an hour either side of now. */
  LocalCertificateAuthority.Leaf leaf(String name) {
    return ca.leaf(name, now.minus(Duration.ofHours(1)), now.plus(Duration.ofHours(1)));
  }

  IssuedCertificate issue(String name) {
    return leaf(name).issue();
  }

  /** Issues a leaf and writes {@code <name>.crt} and {@code <name>.key}. */
  PemPair write(String name) {
    return issue(name).writeInto(dir, name);
  }

  static TlsFile chain(Path path) {
    return new TlsFile(CHAIN_KEY, path);
  }

  static TlsFile key(Path path) {
    return new TlsFile(KEY_KEY, path);
  }

  TlsFile trust() {
    return new TlsFile(CA_KEY, caFile);
  }

  static TlsFiles identity(PemPair pair) {
    return TlsFiles.identity(chain(pair.certificate()), key(pair.privateKey()));
  }

  TlsFiles identityAndTrust(PemPair pair) {
    return TlsFiles.identityAndTrust(chain(pair.certificate()), key(pair.privateKey()), trust());
  }

  TlsFiles trustOnly() {
    return TlsFiles.trustOnly(trust());
  }
}
