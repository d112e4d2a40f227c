package io.cairn.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivateKey;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PKCS8Generator;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.openssl.jcajce.JcePEMEncryptorBuilder;
import org.bouncycastle.operator.OperatorCreationException;

/** PEM texts the module does not write itself: encrypted keys, files written by hand. */
final class PemTexts {

  private PemTexts() {}

  /** {@code BEGIN ENCRYPTED PRIVATE KEY}: PKCS#8 under a passphrase. */
  static String encryptedPkcs8(PrivateKey key) {
    try {
      return pem(
          new JcaPKCS8Generator(
              key,
              new JceOpenSSLPKCS8EncryptorBuilder(PKCS8Generator.AES_256_CBC)
                  .setProvider(new BouncyCastleProvider()) // an instance, never registered
                  .setPassword("passphrase".toCharArray())
                  .build()));
    } catch (OperatorCreationException | IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code BEGIN EC PRIVATE KEY} with {@code Proc-Type: 4,ENCRYPTED}: OpenSSL's old form. */
  static String encryptedTraditional(PrivateKey key) {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      writer.writeObject(
          key,
          new JcePEMEncryptorBuilder("AES-128-CBC")
              .setProvider(new BouncyCastleProvider())
              .build("pw".toCharArray()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }

  static String pem(Object object) throws IOException {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      if (object instanceof org.bouncycastle.util.io.pem.PemObjectGenerator generator) {
        writer.writeObject(generator);
      } else {
        writer.writeObject(object);
      }
    }
    return text.toString();
  }

  /** Writes {@code text} into {@code file} readable by its owner only, as a key must be. */
  static Path writeSecret(Path file, String text) {
    try {
      Files.writeString(file, text, StandardCharsets.US_ASCII);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Path write(Path file, String text) {
    try {
      Files.writeString(file, text, StandardCharsets.US_ASCII);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
