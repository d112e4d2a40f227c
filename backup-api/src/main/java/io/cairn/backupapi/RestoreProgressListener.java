package io.cairn.backupapi;

/**
 * Told about a restore's progress: at least once when each file is done, and in between every few
 * MiB. Called on the store's I/O thread; keep it quick and never block in it.
 */
@FunctionalInterface
public interface RestoreProgressListener {

  RestoreProgressListener NOOP = progress -> {};

  void onProgress(RestoreProgress progress);
}
