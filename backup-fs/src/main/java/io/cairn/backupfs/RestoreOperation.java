package io.cairn.backupfs;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupfs.content.ContentChecker;
import io.cairn.backupfs.layout.StoreLayout;
import io.cairn.backupstore.RestoreTarget;
import io.cairn.backupstore.RestoreTarget.Placement;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * One restore into a {@link RestoreTarget}: files are restored up to {@code
 * maxConcurrentFileCopies} at once on the store's executor ({@link ParallelCopies}: this thread
 * plus helpers), largest first; an uncompressed file is copied kernel-side and its CRC32C computed
 * over the bytes read back from the restored file ({@link ContentChecker#restore}). On any failure
 * the target's directories are removed again.
 */
final class RestoreOperation {

  private final FilesystemBackupStore store;
  private final StoreLayout layout;
  private final BackupIdentifier id;
  private final Path targetDir;
  private final RestoreProgressListener listener;

  RestoreOperation(
      FilesystemBackupStore store,
      BackupIdentifier id,
      Path targetDir,
      RestoreProgressListener listener) {
    this.store = store;
    this.layout = store.layout();
    this.id = id;
    this.targetDir = targetDir;
    this.listener = listener;
  }

  Backup run() throws IOException {
    Manifest manifest = store.readCompleted(id);
    RestoreTarget target = RestoreTarget.prepare(manifest, targetDir, listener);
    try {
      List<Placement> bySize = target.largestFirst();
      ParallelCopies.run(
          store.executor(),
          store.config().maxConcurrentFileCopies(),
          bySize.size(),
          index ->
              target.restoreFile(
                  bySize.get(index),
                  (placement, channel, progress) ->
                      ContentChecker.restore(
                          placement.kind(),
                          placement.entry(),
                          layout.object(id, placement.kind(), placement.entry().name()),
                          channel,
                          progress)));
      Backup restored = target.finish();
      store.metrics().restored(manifest.descriptor().orElseThrow().sizeBytes());
      return restored;
    } catch (IOException | RuntimeException e) {
      target.undo();
      throw e;
    }
  }
}
