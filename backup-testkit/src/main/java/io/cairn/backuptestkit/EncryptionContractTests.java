package io.cairn.backuptestkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupCorruptedException;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.BackupStoreException;
import io.cairn.backupapi.FileProblemKind;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.ManifestException;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupapi.VerificationReport;
import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.backupapi.content.MasterKeyRing;
import io.cairn.backupapi.content.SegmentedCipher;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestChecksum;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backupstore.BackupEncryption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Contract: client-side encryption. Every object of an encrypted backup is AES-GCM ciphertext under
 * the backup's data key (compressed first), the manifest records the wrapped key, its id and a MAC;
 * a flipped byte in an object is a checksum mismatch naming the file, a changed manifest is
 * refused, a missing or wrong master key is refused naming the key id before anything is written;
 * rotation keeps old backups readable; plain backups stay readable with encryption on.
 */
public abstract class EncryptionContractTests extends ReuseContractTests {

  private static final SecureRandom RANDOM = new SecureRandom();

  private static String newKey() {
    byte[] key = new byte[MasterKeyRing.KEY_BYTES];
    RANDOM.nextBytes(key);
    return Base64.getEncoder().encodeToString(key);
  }

  private final String keyA = newKey();
  private final String keyB = newKey();

  private BackupEncryption encryption(String active, String ring) {
    return BackupEncryption.with(MasterKeyRing.parse(ring, "test keys"), active);
  }

  private BackupStore encryptedStore() throws Exception {
    return openStore(CompressionPolicy.none(), encryption("a", "a=" + keyA));
  }

  @Test
  void shouldStoreOnlyCiphertextAndRestoreByteIdentical() throws Exception {
    BackupStore encrypted = encryptedStore();
    Backup backup = typicalBackup(id(0, 6, 1));

    await(encrypted.save(backup));

    Manifest manifest = storedManifest(backup.id());
    assertThat(manifest.encryption()).isPresent();
    assertThat(manifest.encryption().get().keyId()).isEqualTo("a");
    for (FileSetKind kind : FileSetKind.values()) {
      for (ManifestFile entry : manifest.files(kind)) {
        assertThat(entry.storedSizeBytes())
            .as("stored size of %s", entry.name())
            .isEqualTo(SegmentedCipher.encryptedSize(entry.sizeBytes()));
      }
    }
    Path target = newDirectory("restore");
    Backup restored = await(encrypted.restore(backup.id(), target, RestoreProgressListener.NOOP));
    assertRestoredIdentical(backup, restored, target);
    assertThat(await(encrypted.verify(backup.id())).isClean()).isTrue();
  }

  @Test
  void shouldSealArchiveObjectsWhichOnlyAStoreWithTheKeyReads() throws Exception {
    BackupStore encrypted = encryptedStore();
    byte[] link = "a link of the log archive".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(await(encrypted.archive().create("partition-1/links/sealed", link))).isTrue();

    assertThat(await(encrypted.archive().read("partition-1/links/sealed")))
        .hasValueSatisfying(read -> assertThat(read).isEqualTo(link));
    assertThat(await(encrypted.archive().list("partition-1/links/", null, 10)))
        .containsExactly("partition-1/links/sealed");
    BackupStore plain = openStore(CompressionPolicy.none(), BackupEncryption.off());
    assertThatThrownBy(() -> await(plain.archive().read("partition-1/links/sealed")))
        .isInstanceOf(BackupStoreException.class)
        .hasMessageContaining("partition-1/links/sealed")
        .hasMessageContaining("master key 'a'")
        .hasMessageContaining("backup.encryption");
    BackupStore otherKey = openStore(CompressionPolicy.none(), encryption("a", "a=" + keyB));
    assertThatThrownBy(() -> await(otherKey.archive().read("partition-1/links/sealed")))
        .isInstanceOf(BackupStoreException.class)
        .hasMessageContaining("partition-1/links/sealed");
    // objects written before encryption was turned on stay readable
    byte[] old = "written plain".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(await(plain.archive().create("partition-1/links/plain", old))).isTrue();
    assertThat(await(encrypted.archive().read("partition-1/links/plain")))
        .hasValueSatisfying(read -> assertThat(read).isEqualTo(old));
  }

  @Test
  void shouldCompressBeforeEncrypting() throws Exception {
    BackupStore encrypted = openStore(CompressionPolicy.zstd(10_000), encryption("a", "a=" + keyA));
    Path dir = newDirectory("compressible");
    Backup backup =
        backup(
            id(0, 6, 2),
            io.cairn.backupapi.NamedFileSet.empty(),
            io.cairn.backupapi.NamedFileSet.of(file("1.log", textFile(dir, "1.log", 400_000, 7))));

    await(encrypted.save(backup));

    ManifestFile entry = storedManifest(backup.id()).segments().get(0);
    assertThat(entry.storedSizeBytes()).isLessThan(400_000 / 3);
    Path target = newDirectory("restore");
    assertRestoredIdentical(
        backup,
        await(encrypted.restore(backup.id(), target, RestoreProgressListener.NOOP)),
        target);
  }

  @Test
  void shouldReportAFlippedByteAsAChecksumMismatchAndUndoTheRestore() throws Exception {
    BackupStore encrypted = encryptedStore();
    Backup backup = typicalBackup(id(0, 6, 3));
    await(encrypted.save(backup));
    corruptObject(backup.id(), FileSetKind.SNAPSHOT, "000012.sst");

    VerificationReport report = await(encrypted.verify(backup.id()));

    assertThat(report.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.name()).isEqualTo("000012.sst");
              assertThat(p.kind()).isEqualTo(FileProblemKind.CHECKSUM_MISMATCH);
              assertThat(p.detail()).contains("fails authentication");
            });
    Path target = newDirectory("restore");
    assertThatThrownBy(
            () -> await(encrypted.restore(backup.id(), target, RestoreProgressListener.NOOP)))
        .isInstanceOf(BackupCorruptedException.class)
        .hasMessageContaining("000012.sst");
    try (var entries = Files.list(target)) {
      assertThat(entries).isEmpty();
    }
  }

  @Test
  void shouldRefuseAWrongOrMissingMasterKeyNamingItBeforeWritingAnything() throws Exception {
    Backup backup = typicalBackup(id(0, 6, 4));
    await(encryptedStore().save(backup));
    // the same id, another key: as if the key file were replaced
    BackupStore wrongKey = openStore(CompressionPolicy.none(), encryption("a", "a=" + keyB));
    BackupStore otherId = openStore(CompressionPolicy.none(), encryption("b", "b=" + keyB));
    BackupStore noKeys = openStore(CompressionPolicy.none());

    for (BackupStore reader : new BackupStore[] {wrongKey, otherId, noKeys}) {
      Path target = newDirectory("restore");
      assertThatThrownBy(() -> await(reader.verify(backup.id())))
          .isInstanceOf(BackupStoreException.class)
          .hasMessageContaining("'a'");
      assertThatThrownBy(
              () -> await(reader.restore(backup.id(), target, RestoreProgressListener.NOOP)))
          .isInstanceOf(BackupStoreException.class)
          .hasMessageContaining("'a'")
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain(keyA).doesNotContain(keyB));
      try (var entries = Files.list(target)) {
        assertThat(entries).as("restore target").isEmpty();
      }
    }
  }

  @Test
  void shouldRestoreAnOldBackupAfterTheKeyWasRotated() throws Exception {
    Backup old = typicalBackup(id(0, 6, 5));
    await(encryptedStore().save(old));
    BackupStore rotated =
        openStore(CompressionPolicy.none(), encryption("b", "a=" + keyA + "\nb=" + keyB));
    Backup next = typicalBackup(id(0, 6, 6));

    BackupSaveResult saved = await(rotated.save(next, Optional.of(old.id())));

    assertThat(storedManifest(next.id()).encryption().orElseThrow().keyId()).isEqualTo("b");
    assertThat(saved.reusedFileCount()).as("a new key writes everything anew").isZero();
    Path target = newDirectory("restore");
    assertRestoredIdentical(
        old, await(rotated.restore(old.id(), target, RestoreProgressListener.NOOP)), target);
    assertThat(await(rotated.verify(next.id())).isClean()).isTrue();
  }

  @Test
  void shouldReuseObjectsOfThePreviousBackupUnderTheSameKey() throws Exception {
    BackupStore encrypted = encryptedStore();
    Backup first = typicalBackup(id(0, 6, 7));
    await(encrypted.save(first));
    Backup second =
        backup(id(1, 6, 8), first.files(FileSetKind.SNAPSHOT), first.files(FileSetKind.SEGMENTS));

    BackupSaveResult result = await(encrypted.save(second, Optional.of(first.id())));

    assertThat(result.reusedFileCount()).isEqualTo(first.descriptor().fileCount());
    await(encrypted.delete(first.id()));
    Path target = newDirectory("restore");
    assertRestoredIdentical(
        second,
        await(encrypted.restore(second.id(), target, RestoreProgressListener.NOOP)),
        target);
  }

  @Test
  void shouldRefuseAnEncryptedManifestThatWasChanged() throws Exception {
    BackupStore encrypted = encryptedStore();
    Backup backup = typicalBackup(id(0, 6, 9));
    await(encrypted.save(backup));
    // A consistent edit (the CRC32C checksum recomputed) that only the MAC can catch.
    var mapper = new ObjectMapper();
    ObjectNode tree = (ObjectNode) mapper.readTree(readRawManifest(backup.id()));
    ((ObjectNode) tree.get("descriptor")).put("stateDigest", "0badc0de");
    writeRawManifest(backup.id(), mapper.writeValueAsBytes(ManifestChecksum.seal(tree)));

    assertThatThrownBy(() -> await(encrypted.verify(backup.id())))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("manifestMac");
    Path target = newDirectory("restore");
    assertThatThrownBy(
            () -> await(encrypted.restore(backup.id(), target, RestoreProgressListener.NOOP)))
        .isInstanceOf(ManifestException.class);
  }

  @Test
  void shouldStillReadPlainBackupsWithEncryptionOn() throws Exception {
    Backup plain = typicalBackup(id(0, 6, 10));
    await(store.save(plain));
    BackupStore encrypted = encryptedStore();
    Backup next = typicalBackup(id(0, 6, 11));

    BackupSaveResult result = await(encrypted.save(next, Optional.of(plain.id())));

    assertThat(result.reusedFileCount()).as("plain objects are not reused").isZero();
    assertThat(storedManifest(plain.id()).encryption()).isEmpty();
    Path target = newDirectory("restore");
    assertRestoredIdentical(
        plain, await(encrypted.restore(plain.id(), target, RestoreProgressListener.NOOP)), target);
  }
}
