package io.cairn.backupapi.content;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Authenticated encryption of one stored object in segments: AES-GCM over each segment of up to
 * {@value #SEGMENT_BYTES} bytes, so that neither side holds an object in memory and a reader never
 * hands on a byte of a segment that failed (a GCM tag over a whole segment file would be checked
 * only after every byte was read).
 *
 * <p>Format: {@code "CRE1"} (4 bytes), a random nonce prefix (8 bytes), then the segments, each its
 * ciphertext followed by its 16-byte tag. Segment {@code i}'s nonce is the prefix followed by
 * {@code i} (4 bytes, big-endian); its associated data is the object's (which backup, file set and
 * file it is, given by the caller) followed by one byte, 1 on the last segment and 0 on every
 * other. So a flipped bit, a segment moved, dropped or repeated, an object cut at a segment
 * boundary or extended, and an object put in another's place each fail authentication. An empty
 * object is one empty last segment. The random prefix keeps nonces apart between objects under one
 * key (the caller uses a fresh key per backup, so a key encrypts thousands of objects, not
 * billions).
 */
public final class SegmentedCipher {

  /** Plaintext bytes of every segment but the last. */
  public static final int SEGMENT_BYTES = 64 * 1024;

  /** The GCM tag after each segment. */
  public static final int TAG_BYTES = 16;

  private static final byte[] MAGIC = {'C', 'R', 'E', '1'};
  private static final int PREFIX_BYTES = 8;

  /** The magic and the nonce prefix. */
  public static final int HEADER_BYTES = MAGIC.length + PREFIX_BYTES;

  private static final String TRANSFORMATION = "AES/GCM/NoPadding";

  /**
   * Segments written to, or read from, the stored stream at once (about a MiB): a call per 64 KiB
   * segment cost more than the cipher.
   */
  private static final int BATCH_SEGMENTS = 16;

  private SegmentedCipher() {}

  /** The stored size of an object of {@code plainBytes}. */
  public static long encryptedSize(long plainBytes) {
    if (plainBytes < 0) {
      throw new IllegalArgumentException("Expected a size >= 0, but was " + plainBytes);
    }
    return HEADER_BYTES + plainBytes + segments(plainBytes) * TAG_BYTES;
  }

  private static long segments(long plainBytes) {
    return Math.max(1, (plainBytes + SEGMENT_BYTES - 1) / SEGMENT_BYTES);
  }

  /**
   * A stream that encrypts what is written to it into {@code out}. {@link
   * EncryptingStream#finish()} writes the last segment and leaves {@code out} open; {@code close()}
   * finishes and closes {@code out}.
   *
   * @param key an AES key (256 bits here)
   * @param associatedData what the object is; a reader must pass the same bytes
   */
  public static EncryptingStream encrypting(
      OutputStream out, SecretKey key, byte[] associatedData, SecureRandom random)
      throws IOException {
    byte[] prefix = new byte[PREFIX_BYTES];
    random.nextBytes(prefix);
    out.write(MAGIC);
    out.write(prefix);
    return new EncryptingStream(out, key, associatedData, prefix);
  }

  /**
   * A stream of the plaintext of the encrypted object read from {@code in}; it throws {@link
   * ObjectAuthenticationException} at the first segment that fails, before any of its bytes.
   */
  public static InputStream decrypting(InputStream in, SecretKey key, byte[] associatedData)
      throws IOException {
    byte[] header = new byte[HEADER_BYTES];
    int read = in.readNBytes(header, 0, HEADER_BYTES);
    if (read < HEADER_BYTES) {
      throw new ObjectAuthenticationException(
          "Expected an encrypted object of at least "
              + encryptedSize(0)
              + " bytes, but it ends after "
              + read);
    }
    if (!Arrays.equals(header, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new ObjectAuthenticationException(
          "Expected an encrypted object starting with 'CRE1', but it starts with 0x"
              + HexFormat.of().formatHex(header, 0, MAGIC.length));
    }
    return new DecryptingStream(
        in, key, associatedData, Arrays.copyOfRange(header, MAGIC.length, HEADER_BYTES));
  }

  private static Cipher newCipher() throws IOException {
    try {
      return Cipher.getInstance(TRANSFORMATION);
    } catch (GeneralSecurityException e) {
      throw new IOException("Expected AES-GCM to be available, but " + e, e);
    }
  }

  /** Readies {@code cipher} (one per stream) for segment {@code segment}. */
  private static void init(
      Cipher cipher,
      int mode,
      SecretKey key,
      byte[] prefix,
      long segment,
      byte[] associatedData,
      boolean last)
      throws IOException {
    if (segment > 0xFFFF_FFFFL) {
      throw new IOException(
          "Expected at most 2^32 segments in one encrypted object, but it has more");
    }
    byte[] nonce = Arrays.copyOf(prefix, PREFIX_BYTES + 4);
    nonce[PREFIX_BYTES] = (byte) (segment >>> 24);
    nonce[PREFIX_BYTES + 1] = (byte) (segment >>> 16);
    nonce[PREFIX_BYTES + 2] = (byte) (segment >>> 8);
    nonce[PREFIX_BYTES + 3] = (byte) segment;
    try {
      cipher.init(mode, key, new GCMParameterSpec(TAG_BYTES * 8, nonce));
      cipher.updateAAD(associatedData);
      cipher.updateAAD(new byte[] {(byte) (last ? 1 : 0)});
    } catch (GeneralSecurityException e) {
      throw new IOException("Expected to start AES-GCM on segment " + segment + ", but " + e, e);
    }
  }

  /** Writes whole segments; the last one when finished. */
  public static final class EncryptingStream extends OutputStream {

    private final OutputStream out;
    private final SecretKey key;
    private final byte[] associatedData;
    private final byte[] prefix;
    private final byte[] plain = new byte[SEGMENT_BYTES];

    /** Sealed segments not yet written: {@code out} gets them in blocks, not a call per segment. */
    private final byte[] sealed = new byte[BATCH_SEGMENTS * (SEGMENT_BYTES + TAG_BYTES)];

    private final Cipher cipher;
    private int buffered;
    private int sealedLength;
    private long segment;
    private boolean finished;

    private EncryptingStream(OutputStream out, SecretKey key, byte[] associatedData, byte[] prefix)
        throws IOException {
      this.cipher = newCipher();
      this.out = out;
      this.key = Objects.requireNonNull(key, "key");
      this.associatedData = associatedData.clone();
      this.prefix = prefix;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      Objects.checkFromIndexSize(off, len, b.length);
      if (finished) {
        throw new IOException("Expected to write before the encrypted object was finished");
      }
      while (len > 0) {
        // A full buffer is written only once more bytes come: the last segment must be marked.
        if (buffered == SEGMENT_BYTES) {
          seal(plain, 0, false);
        }
        if (buffered == 0 && len > SEGMENT_BYTES) {
          // a whole segment that is not the last: sealed straight from the caller's bytes
          seal(b, off, false);
          off += SEGMENT_BYTES;
          len -= SEGMENT_BYTES;
          continue;
        }
        int n = Math.min(len, SEGMENT_BYTES - buffered);
        System.arraycopy(b, off, plain, buffered, n);
        buffered += n;
        off += n;
        len -= n;
      }
    }

    /** Writes the last segment; {@code out} stays open. */
    public void finish() throws IOException {
      if (!finished) {
        seal(plain, 0, true);
        drain();
        finished = true;
        Arrays.fill(plain, (byte) 0);
      }
    }

    /**
     * Seals the buffered bytes, or (with an empty buffer) {@value #SEGMENT_BYTES} bytes of {@code
     * from} at {@code offset}, as segment {@link #segment}.
     */
    private void seal(byte[] from, int offset, boolean last) throws IOException {
      int length = from == plain ? buffered : SEGMENT_BYTES;
      if (sealed.length - sealedLength < length + TAG_BYTES) {
        drain();
      }
      init(cipher, Cipher.ENCRYPT_MODE, key, prefix, segment, associatedData, last);
      try {
        sealedLength += cipher.doFinal(from, offset, length, sealed, sealedLength);
      } catch (GeneralSecurityException e) {
        throw new IOException("Expected to encrypt segment " + segment + ", but " + e, e);
      }
      segment++;
      buffered = 0;
    }

    private void drain() throws IOException {
      out.write(sealed, 0, sealedLength);
      sealedLength = 0;
    }

    /** Writes the segments sealed so far; a partly filled one stays buffered until it is full. */
    @Override
    public void flush() throws IOException {
      drain();
      out.flush();
    }

    @Override
    public void close() throws IOException {
      try {
        finish();
      } finally {
        out.close();
      }
    }
  }

  /**
   * Reads stored segments in blocks, then authenticates and hands on one segment at a time: into
   * the caller's array when it asks for a whole segment or more, else through a buffer.
   */
  private static final class DecryptingStream extends InputStream {

    private static final int SEALED_SEGMENT_BYTES = SEGMENT_BYTES + TAG_BYTES;

    private final InputStream in;
    private final SecretKey key;
    private final byte[] associatedData;
    private final byte[] prefix;

    /**
     * Stored bytes read and not yet decrypted: {@code window[windowStart, windowEnd)}. One byte
     * beyond a full segment must be read to know that the segment is not the last.
     */
    private final byte[] window = new byte[BATCH_SEGMENTS * SEALED_SEGMENT_BYTES + 1];

    private final byte[] plain = new byte[SEGMENT_BYTES];
    private final Cipher cipher;
    private int windowStart;
    private int windowEnd;
    private boolean storedEnded;
    private int plainLength;
    private int plainPosition;
    private long segment;
    private long offset = HEADER_BYTES;
    private boolean lastRead;
    private ObjectAuthenticationException failed;

    private DecryptingStream(InputStream in, SecretKey key, byte[] associatedData, byte[] prefix)
        throws IOException {
      this.cipher = newCipher();
      this.in = in;
      this.key = Objects.requireNonNull(key, "key");
      this.associatedData = associatedData.clone();
      this.prefix = prefix;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      Objects.checkFromIndexSize(off, len, b.length);
      if (failed != null) {
        throw failed;
      }
      if (len == 0) {
        return 0;
      }
      while (plainPosition == plainLength) {
        if (lastRead) {
          return -1;
        }
        if (len >= SEGMENT_BYTES) {
          int n = openNext(b, off);
          if (n > 0) {
            return n;
          }
        } else {
          plainLength = openNext(plain, 0);
          plainPosition = 0;
        }
      }
      int n = Math.min(len, plainLength - plainPosition);
      System.arraycopy(plain, plainPosition, b, off, n);
      plainPosition += n;
      return n;
    }

    /** Decrypts the next segment into {@code to} at {@code at}; returns its plaintext length. */
    private int openNext(byte[] to, int at) throws IOException {
      fillWindow();
      int available = windowEnd - windowStart;
      boolean last = available <= SEALED_SEGMENT_BYTES;
      int length = last ? available : SEALED_SEGMENT_BYTES;
      if (length < TAG_BYTES) {
        throw failure("ends " + length + " bytes into segment " + segment + ", inside its tag");
      }
      init(cipher, Cipher.DECRYPT_MODE, key, prefix, segment, associatedData, last);
      int plainBytes;
      try {
        plainBytes = cipher.doFinal(window, windowStart, length, to, at);
      } catch (AEADBadTagException e) {
        Arrays.fill(to, at, at + length - TAG_BYTES, (byte) 0);
        throw failure(
            "segment "
                + segment
                + " (stored bytes "
                + offset
                + ".."
                + (offset + length)
                + ") fails authentication: the object was changed, cut or extended, is another"
                + " object, or the key is not the one it was written with");
      } catch (GeneralSecurityException e) {
        throw new IOException("Expected to decrypt segment " + segment + ", but " + e, e);
      }
      windowStart += length;
      offset += length;
      segment++;
      lastRead = last;
      return plainBytes;
    }

    /**
     * Makes the window hold a whole stored segment and one byte more, or everything left of the
     * object.
     */
    private void fillWindow() throws IOException {
      if (storedEnded || windowEnd - windowStart > SEALED_SEGMENT_BYTES) {
        return;
      }
      System.arraycopy(window, windowStart, window, 0, windowEnd - windowStart);
      windowEnd -= windowStart;
      windowStart = 0;
      int read = in.readNBytes(window, windowEnd, window.length - windowEnd);
      windowEnd += read;
      storedEnded = windowEnd < window.length;
    }

    private ObjectAuthenticationException failure(String what) {
      Arrays.fill(plain, (byte) 0);
      plainLength = 0;
      plainPosition = 0;
      failed =
          new ObjectAuthenticationException("Expected an authentic encrypted object, but " + what);
      return failed;
    }

    @Override
    public void close() throws IOException {
      Arrays.fill(plain, (byte) 0);
      in.close();
    }
  }

  /**
   * A stored object that does not decrypt: changed, cut, extended, misplaced or under another key.
   */
  public static final class ObjectAuthenticationException extends IOException {
    public ObjectAuthenticationException(String message) {
      super(message);
    }
  }
}
