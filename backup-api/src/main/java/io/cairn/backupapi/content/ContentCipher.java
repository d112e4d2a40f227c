package io.cairn.backupapi.content;

import io.cairn.backupapi.FileSetKind;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import javax.crypto.SecretKey;

/**
 * How one stored object's bytes are sealed, between the (possibly compressed) content and the
 * store: {@link #NONE} stores them as they are; {@link #aesGcm} encrypts them with a backup's data
 * key in {@link SegmentedCipher}'s format, bound to the object's file set and name. {@link
 * ContentEncoder} writes through {@link #encrypting}, {@link ContentDecoder} reads through {@link
 * #decrypting}, so compression happens before encryption (ciphertext does not compress).
 */
public interface ContentCipher {

  /** Stores content as it is. */
  ContentCipher NONE = new Plain();

  /**
   * Encrypts with {@code dataKey}, bound to {@code kind}/{@code name}: the object read back under
   * another name or file set fails authentication.
   */
  static ContentCipher aesGcm(
      SecretKey dataKey, FileSetKind kind, String name, SecureRandom random) {
    return new AesGcm(dataKey, associatedData(kind, name), random);
  }

  /** What an object's segments are bound to: its file set and name. */
  static byte[] associatedData(FileSetKind kind, String name) {
    return ("cairn-object:" + kind.directoryName() + "/" + name).getBytes(StandardCharsets.UTF_8);
  }

  /** Whether stored bytes differ from the content (kernel-side copies are then impossible). */
  boolean encrypts();

  /** The stored size of {@code contentBytes} of (possibly compressed) content. */
  long storedSize(long contentBytes);

  /**
   * A stream that seals what is written into {@code stored}; closing it writes what remains and
   * closes {@code stored}.
   */
  OutputStream encrypting(OutputStream stored) throws IOException;

  /**
   * The content of {@code stored}; a read fails with {@link
   * SegmentedCipher.ObjectAuthenticationException} before handing on a byte that is not authentic.
   */
  InputStream decrypting(InputStream stored) throws IOException;

  /** See {@link #NONE}. */
  final class Plain implements ContentCipher {
    private Plain() {}

    @Override
    public boolean encrypts() {
      return false;
    }

    @Override
    public long storedSize(long contentBytes) {
      return contentBytes;
    }

    @Override
    public OutputStream encrypting(OutputStream stored) {
      return new FilterOutputStream(stored) {
        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          out.write(b, off, len);
        }
      };
    }

    @Override
    public InputStream decrypting(InputStream stored) {
      return new FilterInputStream(stored) {};
    }

    @Override
    public String toString() {
      return "ContentCipher.NONE";
    }
  }

  /** See {@link #aesGcm}. */
  final class AesGcm implements ContentCipher {
    private final SecretKey dataKey;
    private final byte[] associatedData;
    private final SecureRandom random;

    private AesGcm(SecretKey dataKey, byte[] associatedData, SecureRandom random) {
      this.dataKey = dataKey;
      this.associatedData = associatedData;
      this.random = random;
    }

    @Override
    public boolean encrypts() {
      return true;
    }

    @Override
    public long storedSize(long contentBytes) {
      return SegmentedCipher.encryptedSize(contentBytes);
    }

    @Override
    public OutputStream encrypting(OutputStream stored) throws IOException {
      return SegmentedCipher.encrypting(stored, dataKey, associatedData, random);
    }

    @Override
    public InputStream decrypting(InputStream stored) throws IOException {
      return SegmentedCipher.decrypting(stored, dataKey, associatedData);
    }

    /** Never the key. */
    @Override
    public String toString() {
      return "ContentCipher.AES_GCM";
    }
  }
}
