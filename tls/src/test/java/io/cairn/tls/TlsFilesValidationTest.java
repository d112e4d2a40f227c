package io.cairn.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every problem the loader finds at start is a {@link TlsConfigurationException} whose message
 * names the configuration key and the file, says what is wrong and what to do.
 */
final class TlsFilesValidationTest {

  @TempDir Path dir;
  private Pki pki;
  private PemPair good;

  @BeforeEach
  void setUp() {
    pki = new Pki(dir);
    good = pki.write("broker-0");
  }

  /** One way to get the files wrong: the files, the file blamed, what the message must say. */
  record Failure(String name, Supplier<TlsFiles> files, TlsFile blamed, List<String> says) {}

  /** Every failure, each set up in {@code pki.dir}; also the no-key-text test's material. */
  static List<Failure> failures(Pki pki, PemPair good) {
    Path dir = pki.dir;
    TlsFile goodChain = Pki.chain(good.certificate());
    TlsFile goodKey = Pki.key(good.privateKey());
    List<Failure> failures = new ArrayList<>();

    TlsFile missingChain = Pki.chain(dir.resolve("absent.crt"));
    failures.add(
        new Failure(
            "missing certificate file",
            () -> TlsFiles.identity(missingChain, goodKey),
            missingChain,
            List.of("to exist", "there is no such file")));

    TlsFile missingKey = Pki.key(dir.resolve("absent.key"));
    failures.add(
        new Failure(
            "missing key file",
            () -> TlsFiles.identity(goodChain, missingKey),
            missingKey,
            List.of("to exist", "there is no such file")));

    TlsFile directory = Pki.chain(dir);
    failures.add(
        new Failure(
            "directory",
            () -> TlsFiles.identity(directory, goodKey),
            directory,
            List.of("to be a regular file", "it is a directory")));

    TlsFile openKey = Pki.key(copy(good.privateKey(), dir.resolve("open.key")));
    failures.add(
        new Failure(
            "key readable by others",
            () -> {
              chmod(openKey.path(), "rw-r--r--");
              return TlsFiles.identity(goodChain, openKey);
            },
            openKey,
            List.of("by its owner only", "rw-r--r--", "chmod 600 " + openKey.path())));

    TlsFile otherKey = Pki.key(pki.write("other").privateKey());
    failures.add(
        new Failure(
            "EC key of another certificate",
            () -> TlsFiles.identity(goodChain, otherKey),
            otherKey,
            List.of(
                "to belong to the first certificate of the chain",
                "subject=CN=broker-0",
                "its public key differs",
                Pki.CHAIN_KEY + " = " + good.certificate())));

    PemPair rsa =
        pki.leaf("rsa-a").keyAlgorithm(KeyAlgorithm.RSA_2048).issue().writeInto(dir, "rsa-a");
    PemPair otherRsa =
        pki.leaf("rsa-b").keyAlgorithm(KeyAlgorithm.RSA_2048).issue().writeInto(dir, "rsa-b");
    TlsFile otherRsaKey = Pki.key(otherRsa.privateKey());
    failures.add(
        new Failure(
            "RSA key of another certificate",
            () -> TlsFiles.identity(Pki.chain(rsa.certificate()), otherRsaKey),
            otherRsaKey,
            List.of("subject=CN=rsa-a", "its public key differs")));

    TlsFile notPemChain = Pki.chain(writeBytes(dir.resolve("der.crt"), pki.ca.certificate()));
    failures.add(
        new Failure(
            "certificate file not PEM",
            () -> TlsFiles.identity(notPemChain, goodKey),
            notPemChain,
            List.of("to be PEM text", "it holds no PEM block")));

    TlsFile notPemKey =
        Pki.key(PemTexts.writeSecret(dir.resolve("text.key"), "this is not a key\n"));
    failures.add(
        new Failure(
            "key file not PEM",
            () -> TlsFiles.identity(goodChain, notPemKey),
            notPemKey,
            List.of("to be PEM text", "it holds no PEM block")));

    TlsFile keyAsChain = Pki.chain(good.privateKey());
    failures.add(
        new Failure(
            "certificate file holding a key",
            () -> TlsFiles.identity(keyAsChain, goodKey),
            keyAsChain,
            List.of("at least one certificate", "it holds none (found a private key)")));

    TlsFile chainAsKey = Pki.key(copySecret(good.certificate(), dir.resolve("cert-as.key")));
    failures.add(
        new Failure(
            "key file holding a certificate",
            () -> TlsFiles.identity(goodChain, chainAsKey),
            chainAsKey,
            List.of("one private key", "the file holds none (found a certificate)")));

    IssuedCertificate issued = pki.issue("encrypted");
    issued.writeCertificate(dir.resolve("encrypted.crt"));
    TlsFile encryptedChain = Pki.chain(dir.resolve("encrypted.crt"));
    TlsFile encryptedPkcs8 =
        Pki.key(
            PemTexts.writeSecret(
                dir.resolve("encrypted-pkcs8.key"), PemTexts.encryptedPkcs8(issued.privateKey())));
    failures.add(
        new Failure(
            "encrypted PKCS#8 key",
            () -> TlsFiles.identity(encryptedChain, encryptedPkcs8),
            encryptedPkcs8,
            List.of("an unencrypted private key", "encrypted with a passphrase", "openssl pkey")));
    TlsFile encryptedSec1 =
        Pki.key(
            PemTexts.writeSecret(
                dir.resolve("encrypted-sec1.key"),
                PemTexts.encryptedTraditional(issued.privateKey())));
    failures.add(
        new Failure(
            "encrypted SEC1 key",
            () -> TlsFiles.identity(encryptedChain, encryptedSec1),
            encryptedSec1,
            List.of("an unencrypted private key", "encrypted with a passphrase")));

    TlsFile emptyBundle = new TlsFile(Pki.CA_KEY, PemTexts.write(dir.resolve("empty-ca.crt"), ""));
    failures.add(
        new Failure(
            "empty CA bundle",
            () -> TlsFiles.identityAndTrust(goodChain, goodKey, emptyBundle),
            emptyBundle,
            List.of("the CA bundle to hold PEM text", "the file is empty")));

    TlsFile keyBundle = new TlsFile(Pki.CA_KEY, good.privateKey());
    failures.add(
        new Failure(
            "CA bundle without a certificate",
            () -> TlsFiles.trustOnly(keyBundle),
            keyBundle,
            List.of("at least one certificate", "in the CA bundle", "found a private key")));

    Instant now = pki.now;
    PemPair future =
        pki.ca
            .leaf("future", now.plus(Duration.ofHours(1)), now.plus(Duration.ofDays(1)))
            .issue()
            .writeInto(dir, "future");
    failures.add(
        new Failure(
            "certificate not valid yet",
            () -> Pki.identity(future),
            Pki.chain(future.certificate()),
            List.of(
                "to be valid now",
                "is not valid yet",
                "subject=CN=future",
                "notBefore=",
                "notAfter=",
                "check this host's clock")));

    PemPair past =
        pki.ca
            .leaf("past", now.minus(Duration.ofDays(2)), now.minus(Duration.ofDays(1)))
            .issue()
            .writeInto(dir, "past");
    failures.add(
        new Failure(
            "certificate expired",
            () -> Pki.identity(past),
            Pki.chain(past.certificate()),
            List.of("to be valid now", "has expired", "subject=CN=past", "Renew")));

    return failures;
  }

  @Test
  void shouldNameTheKeyTheFileAndTheProblemForEveryFailure() {
    List<Failure> failures = failures(pki, good);
    Clock clock = new SimClock(pki.now);

    for (Failure failure : failures) {
      TlsFiles files = failure.files().get();
      assertThatThrownBy(() -> TlsMaterialSource.load(files, clock, Duration.ofSeconds(10)))
          .as(failure.name())
          .isInstanceOfSatisfying(
              TlsConfigurationException.class,
              e -> {
                assertThat(e.file()).as(failure.name()).contains(failure.blamed());
                assertThat(e.getMessage())
                    .as(failure.name())
                    .startsWith("Expected ")
                    .contains(failure.blamed().key() + " = " + failure.blamed().path())
                    .contains(failure.says());
              });
    }
  }

  @Test
  void shouldStateTheCurrentTimeWhenACertificateIsOutsideItsValidity() {
    Clock clock = new SimClock(pki.now.plus(Duration.ofHours(2)));

    assertThatThrownBy(
            () -> TlsMaterialSource.load(Pki.identity(good), clock, Duration.ofSeconds(10)))
        .isInstanceOf(TlsConfigurationException.class)
        .hasMessageContaining("valid now (" + clock.instant() + ")")
        .hasMessageContaining("has expired");
  }

  @Test
  void shouldReadPkcs8Pkcs1AndSec1KeysAndAChainWithItsCa() throws IOException {
    IssuedCertificate ec = pki.issue("ec");
    IssuedCertificate rsa = pki.leaf("rsa").keyAlgorithm(KeyAlgorithm.RSA_2048).issue();
    ec.writeCertificate(dir.resolve("ec.crt"));
    rsa.writeCertificate(dir.resolve("rsa.crt"));
    ec.writePrivateKey(dir.resolve("ec-pkcs8.key"), KeyFormat.PKCS8);
    ec.writePrivateKey(dir.resolve("ec-sec1.key"), KeyFormat.TRADITIONAL);
    rsa.writePrivateKey(dir.resolve("rsa-pkcs8.key"), KeyFormat.PKCS8);
    rsa.writePrivateKey(dir.resolve("rsa-pkcs1.key"), KeyFormat.TRADITIONAL);
    // openssl ecparam -genkey writes the curve's parameters before the key
    PemTexts.writeSecret(
        dir.resolve("ec-params.key"),
        "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n"
            + PemTexts.read(dir.resolve("ec-sec1.key")));
    Files.writeString(
        dir.resolve("ec-chain.crt"),
        PemTexts.read(dir.resolve("ec.crt")) + PemTexts.read(pki.caFile));

    assertThat(PemTexts.read(dir.resolve("ec-sec1.key"))).contains("BEGIN EC PRIVATE KEY");
    assertThat(PemTexts.read(dir.resolve("rsa-pkcs1.key"))).contains("BEGIN RSA PRIVATE KEY");
    assertThat(PemTexts.read(dir.resolve("rsa-pkcs8.key"))).contains("BEGIN PRIVATE KEY");
    assertThat(load("ec.crt", "ec-pkcs8.key").certificate()).contains(ec.certificate());
    assertThat(load("ec.crt", "ec-sec1.key").certificate()).contains(ec.certificate());
    assertThat(load("ec.crt", "ec-params.key").certificate()).contains(ec.certificate());
    assertThat(load("rsa.crt", "rsa-pkcs8.key").certificate()).contains(rsa.certificate());
    assertThat(load("rsa.crt", "rsa-pkcs1.key").certificate()).contains(rsa.certificate());
    assertThat(load("ec-chain.crt", "ec-pkcs8.key").certificateChain())
        .containsExactly(ec.certificate(), pki.ca.certificate());
  }

  @Test
  void shouldRefuseACertificateWithoutItsKeyBeforeReadingAnything() {
    assertThatThrownBy(
            () ->
                new TlsFiles(
                    java.util.Optional.of(Pki.chain(good.certificate())),
                    java.util.Optional.empty(),
                    java.util.Optional.of(pki.trust())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(Pki.CHAIN_KEY + " = " + good.certificate())
        .hasMessageContaining("Set both, or neither");
  }

  private TlsMaterial load(String chain, String key) {
    return TlsMaterialSource.load(
            TlsFiles.identity(Pki.chain(dir.resolve(chain)), Pki.key(dir.resolve(key))),
            new SimClock(pki.now),
            Duration.ofSeconds(10))
        .current();
  }

  private static Path copy(Path from, Path to) {
    try {
      return Files.copy(from, to);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The certificate in DER, as some tools write it: not PEM. */
  private static Path writeBytes(Path file, java.security.cert.X509Certificate certificate) {
    try {
      return Files.write(file, certificate.getEncoded());
    } catch (IOException | java.security.cert.CertificateEncodingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Path copySecret(Path from, Path to) {
    return PemTexts.writeSecret(to, PemTexts.read(from));
  }

  private static void chmod(Path file, String permissions) {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
