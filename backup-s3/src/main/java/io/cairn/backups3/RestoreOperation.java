package io.cairn.backups3;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupstore.RestoreTarget;
import io.cairn.backupstore.RestoreTarget.Placement;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One restore into a {@link RestoreTarget}: downloads every file of a COMPLETED backup, several at
 * once on the store's transfer threads, decoding and checking it on the way. On any failure the
 * other downloads stop, every one is waited for, and the target's directories are removed again.
 */
final class RestoreOperation {

  private final S3BackupStore store;
  private final BackupIdentifier id;
  private final Path targetDir;
  private final RestoreProgressListener listener;

  RestoreOperation(
      S3BackupStore store, BackupIdentifier id, Path targetDir, RestoreProgressListener listener) {
    this.store = store;
    this.id = id;
    this.targetDir = targetDir;
    this.listener = listener;
  }

  Backup run() throws Exception {
    Manifest manifest = store.readCompleted(id);
    RestoreTarget target = RestoreTarget.prepare(manifest, targetDir, listener);
    try {
      var tasks = new FileTasks(store.transferExecutor());
      List<FileTasks.Task<Void>> work = new ArrayList<>();
      for (Placement placement : target.inManifestOrder()) {
        work.add(
            () -> {
              tasks.checkNotStopped(
                  placement.kind().directoryName() + "/" + placement.entry().name());
              target.restoreFile(
                  placement,
                  (p, channel, progress) ->
                      store
                          .checker()
                          .check(
                              p.kind(),
                              p.entry(),
                              store.layout().objectKey(id, p.kind(), p.entry().name()),
                              Channels.newOutputStream(channel),
                              progress,
                              false));
              return null;
            });
      }
      tasks.runAll(work);
      return target.finish();
    } catch (Exception e) {
      target.undo();
      throw e;
    }
  }
}
