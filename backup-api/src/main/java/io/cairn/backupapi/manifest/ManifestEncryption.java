package io.cairn.backupapi.manifest;

import io.cairn.backupapi.content.MasterKeyRing;
import java.util.Base64;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How an encrypted backup's objects are sealed, as its COMPLETED manifest records it (format 1.3).
 * Holds no key material a reader can use without the master key.
 *
 * @param keyId the master key that wrapped the data key: a restore needs the key of this id
 * @param wrappedDataKey base64 of the data key wrapped under that master key, bound to the backup
 * @param manifestMac {@code "hmac-sha256:"} and 64 lowercase hex digits: the manifest's
 *     authentication under a key derived from the data key, so a changed manifest (a size, a
 *     checksum, a file added or dropped) is refused by anyone who can decrypt the backup
 */
public record ManifestEncryption(String keyId, String wrappedDataKey, String manifestMac) {

  /** The one scheme: AES-256-GCM objects in 64 KiB segments, HMAC-SHA256 over the manifest. */
  public static final String MAC_PREFIX = "hmac-sha256:";

  private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Pattern MAC = Pattern.compile(Pattern.quote(MAC_PREFIX) + "[0-9a-f]{64}");

  public ManifestEncryption {
    Objects.requireNonNull(keyId, "keyId");
    Objects.requireNonNull(wrappedDataKey, "wrappedDataKey");
    Objects.requireNonNull(manifestMac, "manifestMac");
    if (!KEY_ID.matcher(keyId).matches()) {
      throw new IllegalArgumentException(
          "Expected encryption.keyId of 1 to 64 of A-Z a-z 0-9 . _ -, but it is '"
              + (keyId.length() <= 64 ? keyId : keyId.substring(0, 64) + "...")
              + "'");
    }
    byte[] wrapped;
    try {
      wrapped = Base64.getDecoder().decode(wrappedDataKey);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Expected encryption.wrappedDataKey in base64, but it is not", e);
    }
    if (wrapped.length != MasterKeyRing.WRAPPED_BYTES) {
      throw new IllegalArgumentException(
          "Expected encryption.wrappedDataKey of "
              + MasterKeyRing.WRAPPED_BYTES
              + " bytes, but it has "
              + wrapped.length);
    }
    if (!MAC.matcher(manifestMac).matches()) {
      throw new IllegalArgumentException(
          "Expected encryption.manifestMac \""
              + MAC_PREFIX
              + "\" and 64 lowercase hex digits, but it is not");
    }
  }

  /** The wrapped data key's bytes. */
  public byte[] wrappedDataKeyBytes() {
    return Base64.getDecoder().decode(wrappedDataKey);
  }
}
