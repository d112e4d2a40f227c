package io.cairn.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509CRLHolder;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.X509TrustedCertificateBlock;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * Reads certificates and a private key out of PEM text, through BouncyCastle's parser and the JDK's
 * key and certificate factories (BouncyCastle's provider is never registered).
 *
 * <p>Every refusal names the file and what was found there by kind ("a certificate", "an encrypted
 * private key"), never by content: a message must not carry key material, and BouncyCastle's own
 * messages are kept as causes only.
 */
final class PemReader {

  private PemReader() {}

  /**
   * The certificates of a chain file or a CA bundle, in file order.
   *
   * @param what the file's role in messages ("certificate chain file", "CA bundle")
   * @throws TlsConfigurationException when the text holds no PEM, a block that is not a
   *     certificate, or no certificate at all
   */
  static List<X509Certificate> certificates(TlsFile file, byte[] content, String what) {
    List<Object> blocks = blocks(file, content, what);
    List<X509Certificate> certificates = new ArrayList<>();
    JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
    for (Object block : blocks) {
      X509CertificateHolder holder =
          block instanceof X509TrustedCertificateBlock trusted
              ? trusted.getCertificateHolder()
              : block instanceof X509CertificateHolder certificate ? certificate : null;
      if (holder == null) {
        if (blocks.stream().noneMatch(PemReader::isCertificate)) {
          throw TlsConfigurationException.of(
              file,
              "at least one certificate (BEGIN CERTIFICATE) in the " + what,
              "it holds none (found " + kinds(blocks) + ")",
              "Point " + file.key() + " at the PEM certificate file.");
        }
        throw TlsConfigurationException.of(
            file,
            "the " + what + " to hold certificates only (BEGIN CERTIFICATE)",
            "it also holds " + kind(block),
            "Keep only the certificates in this file.");
      }
      try {
        certificates.add(converter.getCertificate(holder));
      } catch (CertificateException e) {
        throw new TlsConfigurationException(
            file,
            TlsConfigurationException.format(
                "every certificate in the " + what + " to be a valid X.509 certificate",
                "certificate " + (certificates.size() + 1) + " could not be read",
                file.toString(),
                "Replace the file with the PEM certificates issued to you."),
            e);
      }
    }
    return List.copyOf(certificates);
  }

  /**
   * The one private key of a key file: PKCS#8 ({@code BEGIN PRIVATE KEY}), PKCS#1 ({@code BEGIN RSA
   * PRIVATE KEY}) or SEC1 ({@code BEGIN EC PRIVATE KEY}, an {@code EC PARAMETERS} block beside it
   * is skipped).
   *
   * @throws TlsConfigurationException when the text holds no PEM, no key, more than one, an
   *     encrypted key, or anything else
   */
  static PrivateKey privateKey(TlsFile file, byte[] content) {
    List<Object> blocks = blocks(file, content, "private key file");
    List<PrivateKeyInfo> keys = new ArrayList<>();
    List<Object> others = new ArrayList<>();
    for (Object block : blocks) {
      if (block instanceof PKCS8EncryptedPrivateKeyInfo || block instanceof PEMEncryptedKeyPair) {
        throw TlsConfigurationException.of(
            file,
            "an unencrypted private key",
            "the key is encrypted with a passphrase, which Cairn does not read",
            "Decrypt it into a file only its owner can read (openssl pkey -in <encrypted file>"
                + " -out <new file>; chmod 600 <new file>) and point "
                + file.key()
                + " at that file.");
      } else if (block instanceof PrivateKeyInfo info) {
        keys.add(info);
      } else if (block instanceof PEMKeyPair pair) {
        keys.add(pair.getPrivateKeyInfo());
      } else if (!(block instanceof ASN1ObjectIdentifier)) { // EC PARAMETERS, as openssl writes
        others.add(block);
      }
    }
    if (keys.size() != 1) {
      throw TlsConfigurationException.of(
          file,
          "one private key (BEGIN PRIVATE KEY, BEGIN RSA PRIVATE KEY or BEGIN EC PRIVATE KEY)",
          keys.isEmpty()
              ? "the file holds none (found " + kinds(blocks) + ")"
              : "the file holds " + keys.size(),
          "Point " + file.key() + " at the file of the certificate's private key.");
    }
    if (!others.isEmpty()) {
      throw TlsConfigurationException.of(
          file,
          "the private key file to hold one private key only",
          "it also holds " + kinds(others),
          "Keep only the private key in this file.");
    }
    try {
      return new JcaPEMKeyConverter().getPrivateKey(keys.get(0));
    } catch (IOException | RuntimeException e) {
      throw new TlsConfigurationException(
          file,
          TlsConfigurationException.format(
              "an RSA or EC private key",
              "the key could not be read (algorithm "
                  + keys.get(0).getPrivateKeyAlgorithm().getAlgorithm().getId()
                  + ")",
              file.toString(),
              "Use an RSA or EC key."),
          e);
    }
  }

  /** Every PEM block of the text, parsed; refuses text without any. */
  private static List<Object> blocks(TlsFile file, byte[] content, String what) {
    List<Object> blocks = new ArrayList<>();
    Reader reader =
        new InputStreamReader(new ByteArrayInputStream(content), StandardCharsets.US_ASCII);
    try (PEMParser parser = new PEMParser(reader)) {
      for (Object block = parser.readObject(); block != null; block = parser.readObject()) {
        blocks.add(block);
      }
    } catch (IOException | RuntimeException e) {
      // BouncyCastle's message stays in the cause: it may quote the block's type line, never
      // its body, but the message we own says only which block failed.
      throw new TlsConfigurationException(
          file,
          TlsConfigurationException.format(
              "the " + what + " to be well-formed PEM",
              "PEM block " + (blocks.size() + 1) + " could not be decoded",
              file.toString(),
              "Replace the file with an intact copy."),
          e);
    }
    if (blocks.isEmpty() && new String(content, StandardCharsets.US_ASCII).isBlank()) {
      throw TlsConfigurationException.of(
          file,
          "the " + what + " to hold PEM text",
          "the file is empty",
          "Point " + file.key() + " at the PEM file, or write the PEM text into it.");
    }
    if (blocks.isEmpty()) {
      throw TlsConfigurationException.of(
          file,
          "the " + what + " to be PEM text (blocks between BEGIN and END lines)",
          "it holds no PEM block (" + content.length + " bytes)",
          "Convert it to PEM ("
              + (what.equals("private key file")
                  ? "for a DER key: openssl pkey -inform DER"
                  : "for a DER certificate: openssl x509 -inform DER")
              + " -in <file> -out <file>.pem) or point "
              + file.key()
              + " at the PEM file.");
    }
    return blocks;
  }

  private static boolean isCertificate(Object block) {
    return block instanceof X509CertificateHolder || block instanceof X509TrustedCertificateBlock;
  }

  private static String kinds(List<Object> blocks) {
    return blocks.stream().map(PemReader::kind).collect(Collectors.joining(", "));
  }

  /** What a parsed block is, in words; never its content. */
  private static String kind(Object block) {
    if (isCertificate(block)) {
      return "a certificate";
    } else if (block instanceof PrivateKeyInfo || block instanceof PEMKeyPair) {
      return "a private key";
    } else if (block instanceof PKCS8EncryptedPrivateKeyInfo
        || block instanceof PEMEncryptedKeyPair) {
      return "an encrypted private key";
    } else if (block instanceof SubjectPublicKeyInfo) {
      return "a public key";
    } else if (block instanceof PKCS10CertificationRequest) {
      return "a certificate request";
    } else if (block instanceof X509CRLHolder) {
      return "a certificate revocation list";
    } else if (block instanceof ASN1ObjectIdentifier) {
      return "EC parameters";
    }
    return "a " + block.getClass().getSimpleName();
  }
}
