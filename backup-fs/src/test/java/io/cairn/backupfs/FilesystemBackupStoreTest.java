package io.cairn.backupfs;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupfs.layout.StoreLayout;
import io.cairn.backuptestkit.BackupStoreTestKit;
import io.cairn.backuptestkit.StoreSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The filesystem store runs the whole backup store contract. */
class FilesystemBackupStoreTest extends BackupStoreTestKit {

  @TempDir Path storeDir;

  @Override
  protected BackupStore createStore(StoreSettings settings) {
    var policy = settings.compression();
    var config =
        new FilesystemBackupStoreConfig(
            storeDir, policy.compression(), policy.thresholdBytes(), policy.zstdLevel());
    return FilesystemBackupStore.open(
        config,
        settings.encryption(),
        settings.clock(),
        transferExecutor,
        queryExecutor,
        new SimpleMeterRegistry());
  }

  private Path object(BackupIdentifier id, FileSetKind set, String name) {
    return new StoreLayout(storeDir).object(id, set, name);
  }

  @Override
  protected void corruptObject(BackupIdentifier id, FileSetKind set, String name) throws Exception {
    Path object = object(id, set, name);
    // Stored objects may be hard links shared with other backups: corrupt a private copy, as a
    // bit flip in one backup's object would look after the link was broken.
    Path copy = object.resolveSibling(object.getFileName() + ".corrupt");
    Files.copy(object, copy);
    try (var file = new RandomAccessFile(copy.toFile(), "rw")) {
      long offset = file.length() / 2;
      file.seek(offset);
      int b = file.read();
      file.seek(offset);
      file.write(b ^ 0x5A);
    }
    Files.move(copy, object, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  @Override
  protected void deleteObject(BackupIdentifier id, FileSetKind set, String name) throws Exception {
    Files.delete(object(id, set, name));
  }

  @Override
  protected void truncateObject(
      BackupIdentifier id, FileSetKind set, String name, long storedLengthBytes) throws Exception {
    Path object = object(id, set, name);
    Path copy = object.resolveSibling(object.getFileName() + ".truncated");
    Files.copy(object, copy);
    try (var file = new RandomAccessFile(copy.toFile(), "rw")) {
      file.setLength(storedLengthBytes);
    }
    Files.move(copy, object, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  @Override
  protected void writeRawManifest(BackupIdentifier id, byte[] json) throws Exception {
    Path manifest = new StoreLayout(storeDir).manifestFile(id);
    Files.createDirectories(manifest.getParent());
    Files.write(manifest, json);
  }

  @Override
  protected byte[] readRawManifest(BackupIdentifier id) throws Exception {
    return Files.readAllBytes(new StoreLayout(storeDir).manifestFile(id));
  }
}
