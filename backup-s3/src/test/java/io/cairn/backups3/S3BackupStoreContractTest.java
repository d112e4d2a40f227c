package io.cairn.backups3;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backups3.layout.S3ObjectLayout;
import io.cairn.backups3.testserver.LocalS3Servers;
import io.cairn.backups3.testserver.RawObjects;
import io.cairn.backuptestkit.BackupStoreTestKit;
import io.cairn.backuptestkit.StoreSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The whole backup store contract against a real S3-compatible server: each test gets its own base
 * path in a shared bucket, so it sees only its own backups.
 */
@ExtendWith(LocalS3Servers.class)
abstract class S3BackupStoreContractTest extends BackupStoreTestKit {

  static final String BUCKET = "cairn-contract";
  private static final AtomicInteger TESTS = new AtomicInteger();

  private final String basePath =
      "kit/" + getClass().getSimpleName() + "-" + TESTS.incrementAndGet();
  private LocalS3Servers.Running server;

  /** The server this class runs the contract against. */
  protected abstract LocalS3Servers.Kind kind();

  /** Changes the configuration this class opens stores with. */
  protected S3BackupStoreConfig.Builder adjust(S3BackupStoreConfig.Builder config) {
    return config;
  }

  private LocalS3Servers.Running server() {
    if (server == null) {
      server = LocalS3Servers.get(kind());
      server.createBucket(BUCKET);
    }
    return server;
  }

  @Override
  protected BackupStore createStore(StoreSettings settings) {
    var policy = settings.compression();
    var config =
        adjust(
            server()
                .config(BUCKET, basePath)
                .compression(policy.compression(), policy.thresholdBytes())
                .zstdLevel(policy.zstdLevel()));
    return S3BackupStore.open(
        config.build(),
        settings.encryption(),
        settings.clock(),
        transferExecutor,
        queryExecutor,
        new SimpleMeterRegistry());
  }

  private S3ObjectLayout layout() {
    return new S3ObjectLayout(BUCKET, basePath);
  }

  private RawObjects raw() {
    return new RawObjects(server().client(), BUCKET);
  }

  @Override
  protected void corruptObject(BackupIdentifier id, FileSetKind set, String name) {
    String key = layout().objectKey(id, set, name);
    byte[] bytes = raw().get(key);
    bytes[bytes.length / 2] ^= 0x5A;
    raw().put(key, bytes);
  }

  @Override
  protected void deleteObject(BackupIdentifier id, FileSetKind set, String name) {
    raw().delete(layout().objectKey(id, set, name));
  }

  @Override
  protected void truncateObject(
      BackupIdentifier id, FileSetKind set, String name, long storedLengthBytes) {
    String key = layout().objectKey(id, set, name);
    raw().put(key, Arrays.copyOf(raw().get(key), (int) storedLengthBytes));
  }

  @Override
  protected void writeRawManifest(BackupIdentifier id, byte[] json) {
    raw().put(layout().manifestKey(id), json);
  }

  @Override
  protected byte[] readRawManifest(BackupIdentifier id) {
    return raw().get(layout().manifestKey(id));
  }
}
