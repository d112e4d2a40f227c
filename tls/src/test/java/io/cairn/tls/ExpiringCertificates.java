package io.cairn.tls;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateExpiredException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import javax.net.ssl.SSLContext;

/**
 * The certificates of a test about expiry, for the tests of every listener (this module's
 * test-jar): a CA valid a day either side of now, its certificate written into the test's
 * directory; leaves of it that are valid for an hour, expired a day ago, or expire {@link
 * #SHORT_VALIDITY} after they are issued, each written as an endpoint's files; and clients that
 * trust the CA.
 *
 * <p>Handshakes check validity on the system clock (the JDK's PKIX trust manager takes no clock of
 * ours), so a test waits in real time for a short-lived certificate to expire ({@link
 * Issued#awaitExpiry()}). Each {@link #trustingClient()} is a new context with an empty session
 * cache: its first handshake checks the server's certificate rather than resuming a session made
 * while the certificate was valid.
 */
public final class ExpiringCertificates {

  /**
   * How long a short-lived leaf is valid at least: long enough for a listener to start and serve a
   * client once on a loaded machine in a JVM that has not loaded its classes yet (up to 4 s on two
   * busy cores), short enough to wait for.
   */
  public static final Duration SHORT_VALIDITY = Duration.ofSeconds(8);

  /** Leaves are valid from a minute before they are issued. */
  private static final Duration BACKDATE = Duration.ofMinutes(1);

  private final Path dir;
  private final LocalCertificateAuthority ca;
  private final Path caFile;

  /**
   * A new CA named {@code Expiry test CA}, its certificate written to {@code dir/ca.crt} ({@code
   * dir} created when missing).
   */
  public ExpiringCertificates(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.dir = dir;
    Instant now = Instant.now();
    this.ca =
        LocalCertificateAuthority.create(
            "Expiry test CA", now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(1)));
    this.caFile = dir.resolve("ca.crt");
    ca.writeCertificate(caFile);
  }

  /** The CA bundle: what every endpoint and client of the test trusts. */
  public Path caFile() {
    return caFile;
  }

  /** A leaf valid for an hour from now. */
  public Issued valid(String name, String keyPrefix) {
    Instant now = Instant.now();
    return issue(name, keyPrefix, now.minus(BACKDATE), now.plus(Duration.ofHours(1)));
  }

  /** A leaf that expired a day ago, after being valid for a week. */
  public Issued expired(String name, String keyPrefix) {
    Instant now = Instant.now();
    return issue(name, keyPrefix, now.minus(Duration.ofDays(8)), now.minus(Duration.ofDays(1)));
  }

  /**
   * A leaf that expires {@link #SHORT_VALIDITY} from now, rounded up to the second (certificates
   * carry whole seconds).
   */
  public Issued shortLived(String name, String keyPrefix) {
    Instant now = Instant.now();
    Instant notAfter = now.plus(SHORT_VALIDITY).truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
    return issue(name, keyPrefix, now.minus(BACKDATE), notAfter);
  }

  /**
   * A JDK client context that trusts the CA and presents no certificate: what an HTTPS client of
   * the cluster holds. A new one each call.
   */
  public SSLContext trustingClient() {
    return trustingClientTls().sslContext();
  }

  /** The client side that trusts the CA, for netty and gRPC clients. A new one each call. */
  public ClientTls trustingClientTls() {
    return ClientTls.load(
        TlsFiles.trustOnly(new TlsFile("test.trustedCaFile", caFile)),
        Clock.systemUTC(),
        TlsMaterialSource.DEFAULT_CHECK_INTERVAL);
  }

  /**
   * Whether {@code failure} or one of its causes is the JDK's refusal of a certificate that has
   * expired; false for any other failure (another CA, a host name, a closed connection).
   */
  public static boolean refusedAsExpired(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof CertificateExpiredException) {
        return true;
      }
      if (cause.getCause() == cause) {
        return false;
      }
    }
    return false;
  }

  private Issued issue(String name, String keyPrefix, Instant notBefore, Instant notAfter) {
    IssuedCertificate leaf = ca.leaf(name, notBefore, notAfter).issue();
    PemPair pair = leaf.writeInto(dir, name);
    return new Issued(
        leaf.certificate(),
        TlsFiles.identityAndTrust(
            new TlsFile(keyPrefix + "certificateFile", pair.certificate()),
            new TlsFile(keyPrefix + "privateKeyFile", pair.privateKey()),
            new TlsFile(keyPrefix + "trustedCaFile", caFile)));
  }

  /**
   * A leaf written as an endpoint's files.
   *
   * @param certificate the leaf
   * @param files its certificate and key files, and the CA bundle, named by the endpoint's keys
   */
  public record Issued(X509Certificate certificate, TlsFiles files) {

    public Path certificateFile() {
      return files.certificateChain().orElseThrow().path();
    }

    public Path privateKeyFile() {
      return files.privateKey().orElseThrow().path();
    }

    public Instant notAfter() {
      return certificate.getNotAfter().toInstant();
    }

    /**
     * Waits until the system clock has passed {@link #notAfter()}: from then on a handshake that
     * checks the certificate refuses it.
     */
    public void awaitExpiry() {
      // The JDK compares whole milliseconds and refuses only after notAfter.
      Instant expired = notAfter().plusMillis(1);
      Duration left = Duration.between(Instant.now(), expired);
      await("the expiry of " + CertificateText.describe(certificate))
          .atMost((left.isNegative() ? Duration.ZERO : left).plus(Duration.ofSeconds(10)))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> Instant.now().isAfter(expired));
    }
  }
}
