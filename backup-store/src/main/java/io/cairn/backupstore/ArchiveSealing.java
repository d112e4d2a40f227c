package io.cairn.backupstore;

import io.cairn.backupapi.archive.ArchiveException;
import io.cairn.backupapi.content.MasterKeyRing;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Client-side encryption of the log archive's objects (chunks, links, restore points) under the
 * store's {@link BackupEncryption}: with encryption on, each object is sealed with a fresh AES-256
 * data key, wrapped under the active master key; both bound to the object's key (its name), so an
 * object cannot be moved to another name unnoticed.
 *
 * <pre>
 * "CAE1" | key id length (1 byte) | key id (UTF-8) | wrapped data key | nonce (12) | AES-GCM(content) + tag (16)
 * </pre>
 *
 * Objects written without encryption stay readable whatever the setting, as plain backups do; a
 * sealed object read by a store without its master key is refused naming the key and the setting.
 */
final class ArchiveSealing {

  private static final byte[] MAGIC = {'C', 'A', 'E', '1'};
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BYTES = 16;

  private final BackupEncryption encryption;
  private final SecureRandom random = new SecureRandom();

  ArchiveSealing(BackupEncryption encryption) {
    this.encryption = encryption;
  }

  /** {@code content} as the store keeps it under {@code key}: sealed when encryption is on. */
  byte[] seal(String key, byte[] content) {
    if (!encryption.enabled()) {
      return content;
    }
    String keyId = encryption.activeKeyId().orElseThrow();
    MasterKeyRing ring = encryption.ring();
    SecretKey dataKey = MasterKeyRing.newDataKey(random);
    byte[] context = context(key);
    byte[] wrapped = ring.wrap(keyId, dataKey, context, random);
    byte[] id = keyId.getBytes(StandardCharsets.UTF_8);
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    int header = MAGIC.length + 1 + id.length + wrapped.length + NONCE_BYTES;
    byte[] sealed = new byte[header + content.length + TAG_BYTES];
    System.arraycopy(MAGIC, 0, sealed, 0, MAGIC.length);
    sealed[MAGIC.length] = (byte) id.length;
    System.arraycopy(id, 0, sealed, MAGIC.length + 1, id.length);
    System.arraycopy(wrapped, 0, sealed, MAGIC.length + 1 + id.length, wrapped.length);
    System.arraycopy(nonce, 0, sealed, header - NONCE_BYTES, NONCE_BYTES);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, dataKey, new GCMParameterSpec(TAG_BYTES * 8, nonce));
      cipher.updateAAD(context);
      cipher.doFinal(content, 0, content.length, sealed, header);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Expected AES-GCM to seal " + key + ", but " + e, e);
    }
    return sealed;
  }

  /**
   * The content of the object the store keeps under {@code key}.
   *
   * @throws ArchiveException naming the object when it is sealed under a key this store does not
   *     have, or when it does not open (changed, or moved from another name)
   */
  byte[] open(String key, byte[] stored) {
    if (!isSealed(stored)) {
      return stored;
    }
    int idLength = stored[MAGIC.length] & 0xff;
    int wrappedAt = MAGIC.length + 1 + idLength;
    int header = wrappedAt + MasterKeyRing.WRAPPED_BYTES + NONCE_BYTES;
    if (idLength == 0 || stored.length < header + TAG_BYTES) {
      throw new ArchiveException(
          "Expected archive object " + key + " to be sealed whole, but it is cut short");
    }
    String keyId = new String(stored, MAGIC.length + 1, idLength, StandardCharsets.UTF_8);
    if (!encryption.enabled()) {
      throw new ArchiveException(
          "Expected master key '"
              + keyId
              + "' to read archive object "
              + key
              + ", which is encrypted, but this store has no master keys. Configure the key ring"
              + " that holds key '"
              + keyId
              + "' (backup.encryption.*)");
    }
    byte[] context = context(key);
    SecretKey dataKey;
    try {
      dataKey =
          encryption
              .ring()
              .unwrap(
                  keyId,
                  Arrays.copyOfRange(stored, wrappedAt, wrappedAt + MasterKeyRing.WRAPPED_BYTES),
                  context);
    } catch (IllegalArgumentException e) {
      throw new ArchiveException(e.getMessage() + " (archive object " + key + ")", e);
    }
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          Cipher.DECRYPT_MODE,
          dataKey,
          new GCMParameterSpec(TAG_BYTES * 8, stored, header - NONCE_BYTES, NONCE_BYTES));
      cipher.updateAAD(context);
      return cipher.doFinal(stored, header, stored.length - header);
    } catch (AEADBadTagException e) {
      throw new ArchiveException(
          "Expected archive object "
              + key
              + " to be authentic under its data key (key '"
              + keyId
              + "'), but it does not open: it was changed after it was written, or moved from"
              + " another name");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Expected AES-GCM to open " + key + ", but " + e, e);
    }
  }

  private static boolean isSealed(byte[] stored) {
    return stored.length > MAGIC.length
        && Arrays.equals(stored, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
  }

  /** What an object's data key and content are bound to: its name in the archive. */
  private static byte[] context(String key) {
    return ("cairn-archive:" + key).getBytes(StandardCharsets.UTF_8);
  }
}
