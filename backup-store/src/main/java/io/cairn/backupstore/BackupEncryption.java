package io.cairn.backupstore;

import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStoreException;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.ManifestException;
import io.cairn.backupapi.content.ContentCipher;
import io.cairn.backupapi.content.MasterKeyRing;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestEncryption;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backupapi.manifest.ManifestMac;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.crypto.SecretKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store's client-side encryption: off, or a {@link MasterKeyRing} and the id of the master key
 * that wraps new backups' data keys. The same for every store: the skeleton asks it for each
 * object's {@link ContentCipher}, the layers only stream through it.
 *
 * <p>Each backup has a random AES-256 data key, wrapped under the active master key (bound to the
 * backup's id) and recorded with the key's id in the COMPLETED manifest, together with the
 * manifest's MAC under a key derived from the data key ({@link ManifestMac}). A save that reuses
 * the previous backup's objects takes over its data key, since those objects are sealed with it —
 * but only while the previous backup is authentic and wrapped under the active master key; after a
 * rotation to a new key, or when encryption was switched on or off, the next backup writes every
 * object anew. Backups under older keys stay readable while their key is in the ring; plain backups
 * stay readable whatever the setting.
 */
public final class BackupEncryption {

  private static final Logger LOG = LoggerFactory.getLogger(BackupEncryption.class);
  private static final BackupEncryption OFF = new BackupEncryption(null, null);

  private final MasterKeyRing ring;
  private final String activeKeyId;
  private final SecureRandom random = new SecureRandom();

  private BackupEncryption(MasterKeyRing ring, String activeKeyId) {
    this.ring = ring;
    this.activeKeyId = activeKeyId;
  }

  /** Objects are stored as they are; encrypted backups cannot be read. */
  public static BackupEncryption off() {
    return OFF;
  }

  /**
   * New backups are encrypted under {@code activeKeyId}; backups under any key of {@code ring} can
   * be read.
   *
   * @throws IllegalArgumentException if the ring has no key {@code activeKeyId}
   */
  public static BackupEncryption with(MasterKeyRing ring, String activeKeyId) {
    if (!ring.ids().contains(activeKeyId)) {
      throw new IllegalArgumentException(
          "Expected the key that encrypts new backups to be one of "
              + ring.ids()
              + ", but it is '"
              + activeKeyId
              + "' ("
              + ring
              + ")");
    }
    return new BackupEncryption(ring, activeKeyId);
  }

  public boolean enabled() {
    return ring != null;
  }

  /** The master keys, when encryption is on (for the log archive's objects). */
  MasterKeyRing ring() {
    if (ring == null) {
      throw new IllegalStateException("Expected encryption on, but it is off");
    }
    return ring;
  }

  /** The master key that wraps new backups' data keys, when encryption is on. */
  public Optional<String> activeKeyId() {
    return Optional.ofNullable(activeKeyId);
  }

  /**
   * The keys of one save of {@code id} whose previous backup is {@code reusable} (if any): the
   * previous backup's data key when its objects may be reused, else a new one.
   */
  Save forSave(BackupIdentifier id, Optional<Manifest> reusable) {
    if (!enabled()) {
      return new Save(id, null, reusable.filter(m -> m.encryption().isEmpty()).isPresent());
    }
    if (reusable.isPresent()) {
      Optional<SecretKey> inherited = inheritable(reusable.get());
      if (inherited.isPresent()) {
        return new Save(id, inherited.get(), true);
      }
    }
    return new Save(id, MasterKeyRing.newDataKey(random), false);
  }

  /** The previous backup's data key, if its objects may be reused under it. */
  private Optional<SecretKey> inheritable(Manifest previous) {
    Optional<ManifestEncryption> sealed = previous.encryption();
    if (sealed.isEmpty() || !sealed.get().keyId().equals(activeKeyId)) {
      LOG.info(
          "Not reusing files of {}: it is {}, new backups are encrypted under key '{}'",
          previous.id(),
          sealed.map(e -> "encrypted under key '" + e.keyId() + "'").orElse("not encrypted"),
          activeKeyId);
      return Optional.empty();
    }
    try {
      return Optional.of(open(previous));
    } catch (RuntimeException e) {
      LOG.warn("Not reusing files of {}: {}", previous.id(), e.getMessage());
      return Optional.empty();
    }
  }

  /**
   * The ciphers of a COMPLETED manifest's objects, after checking the manifest is authentic.
   *
   * @throws BackupStoreException naming the key id when the backup is encrypted and the key is not
   *     in the ring or does not open its data key
   * @throws ManifestException when the manifest fails authentication
   */
  Ciphers forRead(Manifest manifest) {
    if (manifest.encryption().isEmpty()) {
      return new Ciphers(null, random);
    }
    return new Ciphers(open(manifest), random);
  }

  /** Unwraps the data key of an encrypted manifest and checks the manifest's MAC with it. */
  private SecretKey open(Manifest manifest) {
    ManifestEncryption sealed = manifest.encryption().orElseThrow();
    if (!enabled()) {
      throw new BackupStoreException(
          "Expected master key '"
              + sealed.keyId()
              + "' to read "
              + manifest.id()
              + ", which is encrypted, but this store has no master keys. Configure the key ring"
              + " that holds key '"
              + sealed.keyId()
              + "' (backup.encryption.*)");
    }
    SecretKey dataKey;
    try {
      dataKey =
          ring.unwrap(sealed.keyId(), sealed.wrappedDataKeyBytes(), keyContext(manifest.id()));
    } catch (IllegalArgumentException e) {
      throw new BackupStoreException(
          e.getMessage() + " (the data key of " + manifest.id() + ")", e);
    }
    if (!ManifestMac.matches(dataKey, manifest)) {
      throw new ManifestException(
          manifest.id().toString(),
          "Expected the manifest of "
              + manifest.id()
              + " to be authentic under its data key (key '"
              + sealed.keyId()
              + "'), but its manifestMac does not match its content: it was changed after it was"
              + " written. Use another copy of this backup or delete it.");
    }
    return dataKey;
  }

  /** What a backup's wrapped data key is bound to: that backup. */
  private static byte[] keyContext(BackupIdentifier id) {
    return ("cairn-data-key:" + id.nodeId() + "/" + id.partitionId() + "/" + id.checkpointId())
        .getBytes(StandardCharsets.UTF_8);
  }

  /** The same keys and the same active one: stores that read and write alike. */
  @Override
  public boolean equals(Object other) {
    return other instanceof BackupEncryption encryption
        && java.util.Objects.equals(ring, encryption.ring)
        && java.util.Objects.equals(activeKeyId, encryption.activeKeyId);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(ring, activeKeyId);
  }

  /** Never key material. */
  @Override
  public String toString() {
    return enabled() ? "BackupEncryption{active=" + activeKeyId + ", " + ring + "}" : "off";
  }

  /** The ciphers of one backup's objects. */
  static final class Ciphers {
    private final SecretKey dataKey;
    private final SecureRandom random;

    private Ciphers(SecretKey dataKey, SecureRandom random) {
      this.dataKey = dataKey;
      this.random = random;
    }

    ContentCipher cipherFor(FileSetKind kind, String name) {
      return dataKey == null
          ? ContentCipher.NONE
          : ContentCipher.aesGcm(dataKey, kind, name, random);
    }
  }

  /** The keys of one save. */
  final class Save {
    private final BackupIdentifier id;
    private final Ciphers ciphers;
    private final boolean mayReuse;

    /** Base64 of the data key wrapped for this backup; null when encryption is off. */
    private final String wrapped;

    private Save(BackupIdentifier id, SecretKey dataKey, boolean mayReuse) {
      this.id = id;
      this.ciphers = new Ciphers(dataKey, random);
      this.mayReuse = mayReuse;
      this.wrapped =
          dataKey == null
              ? null
              : Base64.getEncoder()
                  .encodeToString(ring.wrap(activeKeyId, dataKey, keyContext(id), random));
    }

    /** Whether the previous backup's objects may be reused: they are sealed as this save's. */
    boolean mayReuse() {
      return mayReuse;
    }

    ContentCipher cipherFor(FileSetKind kind, String name) {
      return ciphers.cipherFor(kind, name);
    }

    /** What the COMPLETED manifest records of the encryption: empty when it is off. */
    Optional<ManifestEncryption> seal(
        BackupDescriptor descriptor, List<ManifestFile> snapshot, List<ManifestFile> segments) {
      if (ciphers.dataKey == null) {
        return Optional.empty();
      }
      String mac =
          ManifestMac.compute(
              ciphers.dataKey, id, descriptor, snapshot, segments, activeKeyId, wrapped);
      return Optional.of(new ManifestEncryption(activeKeyId, wrapped, mac));
    }
  }
}
