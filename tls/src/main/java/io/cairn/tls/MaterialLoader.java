package io.cairn.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads an endpoint's PEM files and checks everything that can be checked before a handshake: each
 * file is there, regular, readable and at most {@link #MAX_FILE_BYTES}; the key file is closed to
 * group and others; the chain holds certificates valid now, the key file one unencrypted RSA or EC
 * key that belongs to the first certificate; the CA bundle holds valid certificates.
 *
 * <p>Reading and parsing are two steps so that a reload compares the bytes it read with the bytes
 * in use and parses exactly what it compared.
 */
final class MaterialLoader {

  /** A PEM bundle of a few hundred CAs fits easily; anything larger is the wrong file. */
  static final int MAX_FILE_BYTES = 1024 * 1024;

  private static final Set<PosixFilePermission> OPEN_TO_OTHERS =
      EnumSet.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE);

  /** The files' bytes (empty arrays for files not set) and a SHA-256 over all of them. */
  record Contents(byte[] chain, byte[] key, byte[] trust, String fingerprint) {}

  private MaterialLoader() {}

  /** Reads every file set in {@code files}, with the existence and permission checks. */
  static Contents read(TlsFiles files) {
    byte[] chain =
        files.certificateChain().map(f -> read(f, "certificate chain file")).orElse(new byte[0]);
    byte[] key = files.privateKey().map(f -> read(f, "private key file")).orElse(new byte[0]);
    byte[] trust = files.trustedCertificates().map(f -> read(f, "CA bundle")).orElse(new byte[0]);
    return new Contents(chain, key, trust, fingerprint(chain, key, trust));
  }

  /** Parses and validates what {@link #read} returned, at {@code now}. */
  static TlsMaterial parse(TlsFiles files, Contents contents, Instant now, String alias) {
    List<X509Certificate> chain = List.of();
    PrivateKey key = null;
    if (files.hasIdentity()) {
      TlsFile chainFile = files.certificateChain().orElseThrow();
      TlsFile keyFile = files.privateKey().orElseThrow();
      chain = PemReader.certificates(chainFile, contents.chain(), "certificate chain file");
      checkValid(chainFile, chain, now, "certificate chain file");
      key = PemReader.privateKey(keyFile, contents.key());
      checkBelongs(keyFile, key, chainFile, chain.get(0));
    }
    List<X509Certificate> trusted = List.of();
    Optional<TlsFile> trustFile = files.trustedCertificates();
    if (trustFile.isPresent()) {
      trusted = PemReader.certificates(trustFile.get(), contents.trust(), "CA bundle");
      checkValid(trustFile.get(), trusted, now, "CA bundle");
    }
    return new TlsMaterial(chain, key, trusted, alias, contents.fingerprint());
  }

  private static byte[] read(TlsFile file, String what) {
    boolean secret = what.equals("private key file");
    if (!Files.exists(file.path())) {
      throw TlsConfigurationException.of(
          file,
          "the " + what + " to exist",
          "there is no such file",
          "Check the path set in " + file.key() + ".");
    }
    if (!Files.isRegularFile(file.path())) {
      throw TlsConfigurationException.of(
          file,
          "the " + what + " to be a regular file",
          Files.isDirectory(file.path()) ? "it is a directory" : "it is not",
          "Point " + file.key() + " at the PEM file.");
    }
    if (secret) {
      checkOwnerOnly(file);
    }
    try (InputStream in = Files.newInputStream(file.path())) {
      byte[] bytes = in.readNBytes(MAX_FILE_BYTES + 1);
      if (bytes.length > MAX_FILE_BYTES) {
        throw TlsConfigurationException.of(
            file,
            "the " + what + " to hold at most " + MAX_FILE_BYTES + " bytes",
            "it holds more",
            "Point " + file.key() + " at the PEM file.");
      }
      return bytes;
    } catch (NoSuchFileException e) {
      throw TlsConfigurationException.of(
          file,
          "the " + what + " to exist",
          "it disappeared while being read",
          "Replace it by renaming a complete file into place.");
    } catch (AccessDeniedException e) {
      throw new TlsConfigurationException(
          file,
          TlsConfigurationException.format(
              "the " + what + " to be readable by this process",
              "access is denied",
              file.toString(),
              "Make the file readable by the user Cairn runs as."),
          e);
    } catch (IOException e) {
      throw new TlsConfigurationException(
          file,
          TlsConfigurationException.format(
              "the " + what + " to be readable",
              "reading it failed (" + e.getClass().getSimpleName() + ")",
              file.toString(),
              "Check the file and the filesystem it is on."),
          e);
    }
  }

  /** Group and others may neither read nor write a key; skipped where there is no POSIX. */
  private static void checkOwnerOnly(TlsFile file) {
    Set<PosixFilePermission> permissions;
    try {
      permissions = Files.getPosixFilePermissions(file.path());
    } catch (UnsupportedOperationException e) {
      return; // no POSIX permissions on this filesystem: nothing to check
    } catch (IOException e) {
      return; // reading the file reports what is wrong with it
    }
    if (permissions.stream().anyMatch(OPEN_TO_OTHERS::contains)) {
      throw TlsConfigurationException.of(
          file,
          "the private key file to be readable and writable by its owner only",
          "its permissions are " + PosixFilePermissions.toString(permissions),
          "Run chmod 600 " + file.path() + ".");
    }
  }

  private static void checkValid(
      TlsFile file, List<X509Certificate> certificates, Instant now, String what) {
    for (int i = 0; i < certificates.size(); i++) {
      X509Certificate certificate = certificates.get(i);
      Instant notBefore = certificate.getNotBefore().toInstant();
      Instant notAfter = certificate.getNotAfter().toInstant();
      String problem =
          now.isBefore(notBefore)
              ? "is not valid yet"
              : now.isAfter(notAfter) ? "has expired" : null;
      if (problem != null) {
        throw TlsConfigurationException.of(
            file,
            "every certificate in the " + what + " to be valid now (" + now + ")",
            "certificate " + (i + 1) + " " + problem + ": " + CertificateText.describe(certificate),
            now.isBefore(notBefore)
                ? "Wait until notBefore, check this host's clock, or use a certificate valid now."
                : "Renew the certificate and replace the file.");
      }
    }
  }

  private static void checkBelongs(
      TlsFile keyFile, PrivateKey key, TlsFile chainFile, X509Certificate certificate) {
    if (!KeyMatch.supported(key)) {
      throw TlsConfigurationException.of(
          keyFile,
          "an RSA or EC private key",
          "it is a " + key.getAlgorithm() + " key",
          "Use an RSA or EC key and certificate.");
    }
    if (!KeyMatch.matches(key, certificate.getPublicKey())) {
      throw new TlsConfigurationException(
          keyFile,
          TlsConfigurationException.format(
              "the private key to belong to the first certificate of the chain ("
                  + CertificateText.identify(certificate)
                  + ")",
              "its public key differs",
              keyFile + "; " + chainFile,
              "Point both settings at the files of one key pair."));
    }
  }

  private static String fingerprint(byte[]... parts) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (byte[] part : parts) {
        digest.update(ByteBuffer.allocate(Integer.BYTES).putInt(part.length).array());
        digest.update(part);
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Expected the JDK to offer SHA-256, but it does not", e);
    }
  }
}
