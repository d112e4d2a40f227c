package io.cairn.backuptestkit;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.FileSetKind;
import java.util.Arrays;

/** The in-memory store passes the whole contract: what backup-store provides is enough. */
class InMemoryBackupStoreTest extends BackupStoreTestKit {

  private final InMemoryBackupStore.Storage storage = new InMemoryBackupStore.Storage();

  @Override
  protected BackupStore createStore(StoreSettings settings) {
    return new InMemoryBackupStore(
        storage, settings.compression(), settings.encryption(), settings.clock(), transferExecutor);
  }

  private String key(BackupIdentifier id, FileSetKind set, String name) {
    return InMemoryBackupStore.key(id, set, name);
  }

  @Override
  protected void corruptObject(BackupIdentifier id, FileSetKind set, String name) {
    // a private copy: reused objects are shared with other backups
    byte[] copy = storage.objects.get(key(id, set, name)).clone();
    copy[copy.length / 2] ^= 0x5a;
    storage.objects.put(key(id, set, name), copy);
  }

  @Override
  protected void deleteObject(BackupIdentifier id, FileSetKind set, String name) {
    storage.objects.remove(key(id, set, name));
  }

  @Override
  protected void truncateObject(
      BackupIdentifier id, FileSetKind set, String name, long storedLengthBytes) {
    storage.objects.compute(
        key(id, set, name), (k, bytes) -> Arrays.copyOf(bytes, (int) storedLengthBytes));
  }

  @Override
  protected void writeRawManifest(BackupIdentifier id, byte[] json) {
    synchronized (storage.manifests) {
      storage.manifests.put(id, json.clone());
    }
  }

  @Override
  protected byte[] readRawManifest(BackupIdentifier id) {
    synchronized (storage.manifests) {
      return storage.manifests.get(id).clone();
    }
  }
}
