package io.cairn.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.util.Set;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.util.io.pem.PemObject;

/**
 * Writes certificates and keys as PEM files the way {@link MaterialLoader} wants them: keys {@code
 * rw-------} from the moment the file exists, certificates {@code rw-r--r--}; each file written
 * under a temporary name, forced to the device and renamed into place, so that a reload never reads
 * half a file.
 */
final class PemWriter {

  static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
  static final Set<PosixFilePermission> WORLD_READABLE =
      PosixFilePermissions.fromString("rw-r--r--");

  private PemWriter() {}

  static void writeCertificates(Path file, X509Certificate... certificates) {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter pem = new JcaPEMWriter(text)) {
      for (X509Certificate certificate : certificates) {
        pem.writeObject(certificate);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    write(file, text.toString(), WORLD_READABLE);
  }

  /**
   * Writes {@code key} in {@code format}; {@code publicKey} is its other half, which SEC1 carries
   * beside the curve's name as OpenSSL writes it (the JDK's own encoding leaves both to the PKCS#8
   * wrapper, which SEC1 does not have).
   */
  static void writePrivateKey(Path file, PrivateKey key, PublicKey publicKey, KeyFormat format) {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter pem = new JcaPEMWriter(text)) {
      if (format == KeyFormat.PKCS8) {
        pem.writeObject(new JcaPKCS8Generator(key, null));
      } else if (key instanceof ECPrivateKey ec) {
        pem.writeObject(new PemObject("EC PRIVATE KEY", sec1(ec, publicKey)));
      } else {
        pem.writeObject((Object) key); // RSA: PKCS#1, complete in the JDK's encoding
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    write(file, text.toString(), OWNER_ONLY);
  }

  /** RFC 5915 ECPrivateKey with the curve's OID and the public key. */
  private static byte[] sec1(ECPrivateKey key, PublicKey publicKey) throws IOException {
    PrivateKeyInfo info = PrivateKeyInfo.getInstance(key.getEncoded());
    ASN1Primitive curve = info.getPrivateKeyAlgorithm().getParameters().toASN1Primitive();
    SubjectPublicKeyInfo spki = SubjectPublicKeyInfo.getInstance(publicKey.getEncoded());
    return new org.bouncycastle.asn1.sec.ECPrivateKey(
            key.getParams().getOrder().bitLength(), key.getS(), spki.getPublicKeyData(), curve)
        .getEncoded();
  }

  /** Temporary file with its final permissions, written, forced, renamed over {@code file}. */
  static void write(Path file, String text, Set<PosixFilePermission> permissions) {
    Path directory = file.toAbsolutePath().getParent();
    Path temporary = directory.resolve("." + file.getFileName() + ".tmp");
    try {
      Files.createDirectories(directory);
      Files.deleteIfExists(temporary);
      boolean posix =
          Files.getFileStore(directory).supportsFileAttributeView(PosixFileAttributeView.class);
      FileAttribute<?>[] attributes =
          posix
              ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions)}
              : new FileAttribute<?>[0];
      try (FileChannel channel =
          FileChannel.open(
              temporary,
              Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
              attributes)) {
        ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
          channel.write(bytes);
        }
        channel.force(true);
      }
      if (posix) {
        Files.setPosixFilePermissions(temporary, permissions); // the umask may have taken some
      }
      try {
        Files.move(
            temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Expected to write " + file + ", but " + e.getClass().getSimpleName() + " occurred", e);
    }
  }
}
