package io.cairn.backupapi.content;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The master keys that wrap the data keys of encrypted backups, by id, so that a rotation (a new
 * key for new backups) keeps every older backup restorable while its key stays in the ring.
 *
 * <p>Text format, from a key file or an environment variable: one key a line (or separated by
 * {@code ;}), {@code <id>=<base64 of 32 bytes>}; blank lines and lines starting with {@code #} are
 * skipped. Ids are 1 to 64 of {@code A-Z a-z 0-9 . _ -}. A key file readable by group or others is
 * refused. Neither {@link #toString()} nor any message holds key material.
 *
 * <p>A data key is wrapped with AES-256-GCM under the master key: a random 12-byte nonce, then the
 * encrypted key and its tag ({@value #WRAPPED_BYTES} bytes), with the caller's associated data
 * (which backup the key is for), so a wrapped key copied to another backup does not open there.
 */
public final class MasterKeyRing {

  /** Bytes of a master key and of a data key (AES-256). */
  public static final int KEY_BYTES = 32;

  private static final int NONCE_BYTES = 12;
  private static final int TAG_BYTES = 16;

  /** Bytes of a wrapped data key: nonce, encrypted key, tag. */
  public static final int WRAPPED_BYTES = NONCE_BYTES + KEY_BYTES + TAG_BYTES;

  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Set<PosixFilePermission> OPEN_TO_OTHERS =
      EnumSet.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE);

  private final Map<String, SecretKey> keys;
  private final String source;

  private MasterKeyRing(Map<String, SecretKey> keys, String source) {
    this.keys = Collections.unmodifiableMap(keys);
    this.source = source;
  }

  /**
   * Reads a key file.
   *
   * @throws IllegalArgumentException naming the file when it is missing, unreadable, readable by
   *     group or others, or not in the format
   */
  public static MasterKeyRing load(Path file) {
    String source = "master key file " + file;
    try {
      Set<PosixFilePermission> open = EnumSet.copyOf(OPEN_TO_OTHERS);
      open.retainAll(Files.getPosixFilePermissions(file));
      if (!open.isEmpty()) {
        throw new IllegalArgumentException(
            "Expected "
                + source
                + " to be readable by its owner only, but it is open to "
                + open
                + ". Run: chmod 600 "
                + file);
      }
    } catch (UnsupportedOperationException notPosix) {
      // no POSIX permissions on this filesystem: nothing to check
    } catch (IOException e) {
      throw new IllegalArgumentException("Expected to read " + source + ", but " + e, e);
    }
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8), source);
    } catch (IOException e) {
      throw new IllegalArgumentException("Expected to read " + source + ", but " + e, e);
    }
  }

  /**
   * Parses keys in the text format.
   *
   * @param source names the text in messages (a file, an environment variable)
   * @throws IllegalArgumentException naming the source, the line and what is allowed
   */
  public static MasterKeyRing parse(String text, String source) {
    Map<String, SecretKey> keys = new LinkedHashMap<>();
    String[] lines = text.split("[\\n;]", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String where = source + ", entry " + (i + 1);
      int equals = line.indexOf('=');
      if (equals < 0) {
        throw new IllegalArgumentException(
            "Expected <id>=<base64 of "
                + KEY_BYTES
                + " bytes> in "
                + where
                + ", but it has no '='");
      }
      String id = line.substring(0, equals).strip();
      String encoded = line.substring(equals + 1).strip();
      // A malformed entry may hold key material: its text is never shown, only a valid id.
      if (!ID.matcher(id).matches()) {
        throw new IllegalArgumentException(
            "Expected a key id of 1 to 64 of A-Z a-z 0-9 . _ - before the '=' in "
                + where
                + ", but it is not one (the entry is not shown: it may hold key material)");
      }
      if (encoded.isEmpty()) {
        throw new IllegalArgumentException(
            "Expected a base64 key after the '=' in "
                + where
                + ", but there is none (the entry is not shown: it may hold key material)");
      }
      byte[] key;
      try {
        key = Base64.getDecoder().decode(encoded);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "Expected key '" + id + "' in " + where + " to be base64, but it is not", e);
      }
      if (key.length != KEY_BYTES) {
        Arrays.fill(key, (byte) 0);
        throw new IllegalArgumentException(
            "Expected key '"
                + id
                + "' in "
                + where
                + " to be "
                + KEY_BYTES
                + " bytes (AES-256), but it is "
                + key.length);
      }
      if (keys.containsKey(id)) {
        throw new IllegalArgumentException(
            "Expected each key id once in " + source + ", but '" + id + "' repeats");
      }
      keys.put(id, new SecretKeySpec(key, "AES"));
      Arrays.fill(key, (byte) 0);
    }
    if (keys.isEmpty()) {
      throw new IllegalArgumentException(
          "Expected at least one <id>=<base64 of "
              + KEY_BYTES
              + " bytes> in "
              + source
              + ", but none");
    }
    return new MasterKeyRing(keys, source);
  }

  /** The key ids, in the order of the text. */
  public Set<String> ids() {
    return keys.keySet();
  }

  /** A new random data key. */
  public static SecretKey newDataKey(SecureRandom random) {
    byte[] key = new byte[KEY_BYTES];
    random.nextBytes(key);
    SecretKey dataKey = new SecretKeySpec(key, "AES");
    Arrays.fill(key, (byte) 0);
    return dataKey;
  }

  /**
   * {@code dataKey} wrapped under master key {@code keyId}.
   *
   * @param associatedData what the key is for; {@link #unwrap} must be given the same bytes
   */
  public byte[] wrap(String keyId, SecretKey dataKey, byte[] associatedData, SecureRandom random) {
    SecretKey master = require(keyId);
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, master, new GCMParameterSpec(TAG_BYTES * 8, nonce));
      cipher.updateAAD(associatedData);
      byte[] wrapped = Arrays.copyOf(nonce, WRAPPED_BYTES);
      cipher.doFinal(dataKey.getEncoded(), 0, KEY_BYTES, wrapped, NONCE_BYTES);
      return wrapped;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Expected AES-GCM to wrap a data key, but " + e, e);
    }
  }

  /**
   * The data key {@code wrapped} under master key {@code keyId}.
   *
   * @throws IllegalArgumentException naming the key id when the ring does not have it, or when the
   *     wrapped key does not open with it (another key under the same id, or a changed manifest)
   */
  public SecretKey unwrap(String keyId, byte[] wrapped, byte[] associatedData) {
    SecretKey master = require(keyId);
    if (wrapped.length != WRAPPED_BYTES) {
      throw new IllegalArgumentException(
          "Expected a wrapped data key of "
              + WRAPPED_BYTES
              + " bytes under master key '"
              + keyId
              + "', but it has "
              + wrapped.length);
    }
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          Cipher.DECRYPT_MODE,
          master,
          new GCMParameterSpec(TAG_BYTES * 8, wrapped, 0, NONCE_BYTES));
      cipher.updateAAD(associatedData);
      byte[] key = cipher.doFinal(wrapped, NONCE_BYTES, WRAPPED_BYTES - NONCE_BYTES);
      SecretKey dataKey = new SecretKeySpec(key, "AES");
      Arrays.fill(key, (byte) 0);
      return dataKey;
    } catch (AEADBadTagException e) {
      throw new IllegalArgumentException(
          "Expected the data key to open with master key '"
              + keyId
              + "' of "
              + source
              + ", but it does not: the key under that id is not the one the backup was written"
              + " with, or the wrapped key was changed");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Expected AES-GCM to unwrap a data key, but " + e, e);
    }
  }

  private SecretKey require(String keyId) {
    SecretKey key = keys.get(keyId);
    if (key == null) {
      throw new IllegalArgumentException(
          "Expected master key '"
              + shorten(keyId)
              + "' in "
              + source
              + ", but it has only "
              + keys.keySet()
              + ". Add the key the backup was written with to the ring");
    }
    return key;
  }

  /** A key id from a manifest, cut for a message. */
  private static String shorten(String value) {
    return value.length() <= 64 ? value : value.substring(0, 64) + "...";
  }

  /** The same keys under the same ids, from whatever source (two brokers' copies of one file). */
  @Override
  public boolean equals(Object other) {
    return other instanceof MasterKeyRing ring && keys.equals(ring.keys);
  }

  @Override
  public int hashCode() {
    return keys.keySet().hashCode();
  }

  /** The source and the ids; never key material. */
  @Override
  public String toString() {
    return "MasterKeyRing{" + source + ", ids=" + keys.keySet() + "}";
  }
}
