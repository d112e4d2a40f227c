package io.cairn.qa.support;

import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.Compression;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.broker.BrokerVersion;
import io.cairn.restore.BackupRestorer;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.ClusterShape;
import io.cairn.restore.RestoreConfig;
import io.cairn.restore.RestoreResult;
import io.cairn.restore.RestoreTarget;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;

/**
 * Restores every node of a cluster from a backup store into {@code <restored>/node-<id>}, as {@code
 * cairn cluster restore} does: the store opened on threads of its own, {@link BackupRestorer} with
 * the default settings, the store closed afterwards.
 */
public final class ClusterRestore {

  private ClusterRestore() {}

  /**
   * @param openStore opens the store on the executor it is given (transfers and queries)
   */
  public static List<RestoreResult> restore(
      BiFunction<ExecutorService, ExecutorService, BackupStore> openStore,
      Path restored,
      String clusterId,
      ClusterShape shape,
      BackupSelector backup) {
    ExecutorService executor = Executors.newFixedThreadPool(4);
    BackupStore store = openStore.apply(executor, executor);
    try {
      BackupRestorer restorer =
          BackupRestorer.builder()
              .store(store)
              .config(RestoreConfig.defaults())
              .meterRegistry(new SimpleMeterRegistry())
              .build();
      List<RestoreTarget> targets = new ArrayList<>();
      for (int node = 0; node < shape.clusterSize(); node++) {
        targets.add(
            new RestoreTarget(
                restored.resolve("node-" + node), clusterId, node, shape, BrokerVersion.current()));
      }
      return restorer.restoreCluster(targets, backup);
    } finally {
      store.close();
      executor.shutdownNow();
    }
  }

  /** Opens the filesystem store at {@code directory} (no compression) for {@link #restore}. */
  public static BiFunction<ExecutorService, ExecutorService, BackupStore> filesystem(
      Path directory, BackupEncryption encryption) {
    return (transfers, queries) ->
        FilesystemBackupStore.open(
            new FilesystemBackupStoreConfig(
                directory,
                Compression.NONE,
                FilesystemBackupStoreConfig.COMPRESSION_THRESHOLD_BYTES_DEFAULT,
                FilesystemBackupStoreConfig.ZSTD_LEVEL_DEFAULT),
            encryption,
            Clock.system(),
            transfers,
            queries,
            new SimpleMeterRegistry());
  }
}
