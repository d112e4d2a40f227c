package io.cairn.tls;

import java.math.BigInteger;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.IPAddress;

/**
 * A certificate authority of its own for a local secure cluster ({@code cairn cluster up --secure},
 * {@code cairn demo --secure}) and for tests that need good and bad certificates: a foreign CA, an
 * expired or not yet valid certificate.
 *
 * <p>The CA is self-signed ({@code CA:true}, keyCertSign and cRLSign). Each leaf it issues carries
 * the given common name, the subject alternative names DNS {@code localhost} and IP {@code
 * 127.0.0.1} (unless left out) plus the extra names, {@code CA:false}, digitalSignature (and
 * keyEncipherment for RSA) and the extended key usages serverAuth and clientAuth, so one
 * certificate serves a broker both as a server and as a client of its peers. Validity windows are
 * the caller's: time comes from outside. Serial numbers are 63 random bits.
 *
 * <p>Keys come from the given {@link SecureRandom}: key generation needs cryptographic randomness,
 * which is not the seeded randomness of simulations.
 */
public final class LocalCertificateAuthority {

  private final X509Certificate certificate;
  private final PrivateKey privateKey;
  private final SecureRandom random;

  private LocalCertificateAuthority(
      X509Certificate certificate, PrivateKey privateKey, SecureRandom random) {
    this.certificate = certificate;
    this.privateKey = privateKey;
    this.random = random;
  }

  /**
   * A new EC P-256 CA named {@code CN=<commonName>}, valid from {@code notBefore} to {@code
   * notAfter}.
   */
  public static LocalCertificateAuthority create(
      String commonName, Instant notBefore, Instant notAfter) {
    return create(commonName, notBefore, notAfter, KeyAlgorithm.EC_P256, new SecureRandom());
  }

  /** A new CA with the given key algorithm and source of key material. */
  public static LocalCertificateAuthority create(
      String commonName,
      Instant notBefore,
      Instant notAfter,
      KeyAlgorithm algorithm,
      SecureRandom random) {
    KeyPair pair = algorithm.generate(random);
    X500Name name = name(commonName);
    X509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            name, serial(random), date(notBefore), date(notAfter), name, pair.getPublic());
    try {
      JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
      builder
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
          .addExtension(
              Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
          .addExtension(
              Extension.subjectKeyIdentifier,
              false,
              extensions.createSubjectKeyIdentifier(pair.getPublic()));
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException("Expected to build the CA's extensions, but failed", e);
    }
    X509Certificate certificate = sign(builder, pair.getPrivate(), algorithm);
    return new LocalCertificateAuthority(certificate, pair.getPrivate(), random);
  }

  /**
   * A CA written before by {@link #writeInto}, read and validated like any endpoint's files (key
   * permissions, key matching, validity at {@code now}), to issue more certificates.
   *
   * @throws TlsConfigurationException naming the key and file of the first problem found
   */
  public static LocalCertificateAuthority read(
      TlsFile certificateFile, TlsFile privateKeyFile, Instant now) {
    TlsFiles files = TlsFiles.identity(certificateFile, privateKeyFile);
    TlsMaterial material = MaterialLoader.parse(files, MaterialLoader.read(files), now, "ca");
    return new LocalCertificateAuthority(
        material.certificate().orElseThrow(), material.privateKey(), new SecureRandom());
  }

  /** The CA's certificate: what every endpoint's CA bundle holds. */
  public X509Certificate certificate() {
    return certificate;
  }

  /**
   * A leaf certificate to issue, valid from {@code notBefore} to {@code notAfter}; set its names
   * and key algorithm on the returned request, then {@link Leaf#issue()}.
   */
  public Leaf leaf(String commonName, Instant notBefore, Instant notAfter) {
    return new Leaf(commonName, notBefore, notAfter);
  }

  /** Writes the CA certificate as PEM ({@code rw-r--r--}), replacing the file atomically. */
  public void writeCertificate(Path file) {
    PemWriter.writeCertificates(file, certificate);
  }

  /**
   * Writes {@code ca.crt} and {@code ca.key} (PKCS#8, {@code rw-------}) into {@code directory}.
   * Keep {@code ca.key} to issue more certificates later, and away from the brokers: anyone with it
   * can make certificates the cluster trusts.
   */
  public PemPair writeInto(Path directory) {
    PemPair pair = new PemPair(directory.resolve("ca.crt"), directory.resolve("ca.key"));
    PemWriter.writePrivateKey(
        pair.privateKey(), privateKey, certificate.getPublicKey(), KeyFormat.PKCS8);
    writeCertificate(pair.certificate());
    return pair;
  }

  @Override
  public String toString() {
    return "LocalCertificateAuthority{" + CertificateText.describe(certificate) + "}";
  }

  /** A leaf certificate to issue: its names and key algorithm. */
  public final class Leaf {
    private final String commonName;
    private final Instant notBefore;
    private final Instant notAfter;
    private final List<String> dnsNames = new ArrayList<>();
    private final List<String> ipAddresses = new ArrayList<>();
    private boolean loopbackNames = true;
    private KeyAlgorithm algorithm = KeyAlgorithm.EC_P256;

    private Leaf(String commonName, Instant notBefore, Instant notAfter) {
      this.commonName = Objects.requireNonNull(commonName, "commonName");
      this.notBefore = Objects.requireNonNull(notBefore, "notBefore");
      this.notAfter = Objects.requireNonNull(notAfter, "notAfter");
    }

    /** More DNS subject alternative names, beside {@code localhost}. */
    public Leaf dnsNames(String... names) {
      dnsNames.addAll(List.of(names));
      return this;
    }

    /**
     * More IP subject alternative names (literal addresses), beside {@code 127.0.0.1}.
     *
     * @throws IllegalArgumentException for text that is not an IPv4 or IPv6 address
     */
    public Leaf ipAddresses(String... addresses) {
      for (String address : addresses) {
        if (!IPAddress.isValid(address)) {
          throw new IllegalArgumentException(
              "Expected an IPv4 or IPv6 address, but was '"
                  + address
                  + "' (subject alternative name of "
                  + commonName
                  + "). Give a literal address, or a host name with dnsNames.");
        }
        ipAddresses.add(address);
      }
      return this;
    }

    /** Leaves out {@code localhost} and {@code 127.0.0.1}: a certificate for other hosts only. */
    public Leaf withoutLoopbackNames() {
      loopbackNames = false;
      return this;
    }

    /** The leaf's key algorithm; EC P-256 unless set. */
    public Leaf keyAlgorithm(KeyAlgorithm algorithm) {
      this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
      return this;
    }

    /** Generates the leaf's key pair and signs its certificate with the CA's key. */
    public IssuedCertificate issue() {
      KeyPair pair = algorithm.generate(random);
      List<GeneralName> names = new ArrayList<>();
      if (loopbackNames) {
        names.add(new GeneralName(GeneralName.dNSName, "localhost"));
        names.add(new GeneralName(GeneralName.iPAddress, "127.0.0.1"));
      }
      dnsNames.forEach(n -> names.add(new GeneralName(GeneralName.dNSName, n)));
      ipAddresses.forEach(a -> names.add(new GeneralName(GeneralName.iPAddress, a)));
      int usage =
          algorithm == KeyAlgorithm.RSA_2048
              ? KeyUsage.digitalSignature | KeyUsage.keyEncipherment
              : KeyUsage.digitalSignature;
      X509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()),
              serial(random),
              date(notBefore),
              date(notAfter),
              name(commonName),
              pair.getPublic());
      try {
        JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
        builder
            .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
            .addExtension(Extension.keyUsage, true, new KeyUsage(usage))
            .addExtension(
                Extension.extendedKeyUsage,
                false,
                new ExtendedKeyUsage(
                    new KeyPurposeId[] {
                      KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
                    }))
            .addExtension(
                Extension.subjectKeyIdentifier,
                false,
                extensions.createSubjectKeyIdentifier(pair.getPublic()))
            .addExtension(
                Extension.authorityKeyIdentifier,
                false,
                extensions.createAuthorityKeyIdentifier(certificate));
        if (!names.isEmpty()) {
          builder.addExtension(
              Extension.subjectAlternativeName,
              false,
              new GeneralNames(names.toArray(new GeneralName[0])));
        }
      } catch (GeneralSecurityException | java.io.IOException e) {
        throw new IllegalStateException(
            "Expected to build the extensions of " + commonName + ", but failed", e);
      }
      X509Certificate leaf = sign(builder, privateKey, KeyAlgorithm.of(privateKey));
      return new IssuedCertificate(leaf, pair.getPrivate());
    }
  }

  private static X509Certificate sign(
      X509v3CertificateBuilder builder, PrivateKey signer, KeyAlgorithm algorithm) {
    try {
      return new JcaX509CertificateConverter()
          .getCertificate(
              builder.build(
                  new JcaContentSignerBuilder(algorithm.signatureAlgorithm()).build(signer)));
    } catch (OperatorCreationException | java.security.cert.CertificateException e) {
      throw new IllegalStateException("Expected to sign a certificate, but failed", e);
    }
  }

  private static X500Name name(String commonName) {
    return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build();
  }

  private static BigInteger serial(SecureRandom random) {
    return new BigInteger(63, random).add(BigInteger.ONE);
  }

  private static Date date(Instant instant) {
    return Date.from(instant);
  }
}
