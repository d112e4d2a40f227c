package io.cairn.tls;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * The TLS files of a local cluster in one directory: a new CA ({@code ca.crt}, {@code ca.key}) and,
 * for each endpoint name, {@code <name>.crt} and {@code <name>.key} signed by it, for {@code
 * localhost} and {@code 127.0.0.1}, valid for a year. What {@code cairn cluster up --secure} and
 * tests set up; a production cluster gets its certificates from its own CA.
 */
public final class LocalSecureFiles {

  private static final Duration VALIDITY = Duration.ofDays(365);

  /** Backdated a little so that clocks a few minutes apart agree the files are valid. */
  private static final Duration BACKDATE = Duration.ofMinutes(10);

  private final Path directory;
  private final LocalCertificateAuthority ca;
  private final Instant now;

  private LocalSecureFiles(Path directory, LocalCertificateAuthority ca, Instant now) {
    this.directory = directory;
    this.ca = ca;
    this.now = now;
  }

  /** Creates {@code directory} (if needed) with a new CA in it. */
  public static LocalSecureFiles create(Path directory, String clusterName, Instant now) {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Expected to create the TLS directory " + directory + ", but " + e.getMessage(), e);
    }
    LocalCertificateAuthority ca =
        LocalCertificateAuthority.create(
            clusterName + " local CA", now.minus(BACKDATE), now.plus(VALIDITY));
    ca.writeInto(directory);
    return new LocalSecureFiles(directory, ca, now);
  }

  /** The CA bundle every endpoint and client trusts. */
  public Path caFile() {
    return directory.resolve("ca.crt");
  }

  /**
   * Issues and writes the certificate and key of endpoint {@code name}.
   *
   * @param keyPrefix the configuration keys' prefix, for messages ({@code "security.tls."})
   * @return its files with the CA bundle: mutual TLS on either side
   */
  public TlsFiles issue(String name, String keyPrefix) {
    PemPair pair =
        ca.leaf(name, now.minus(BACKDATE), now.plus(VALIDITY)).issue().writeInto(directory, name);
    return TlsFiles.identityAndTrust(
        new TlsFile(keyPrefix + "certificateFile", pair.certificate()),
        new TlsFile(keyPrefix + "privateKeyFile", pair.privateKey()),
        new TlsFile(keyPrefix + "trustedCaFile", caFile()));
  }
}
