package io.cairn.backupstore;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupInProgressException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The saves running in one store instance: a delete of a backup whose save still runs here is
 * refused, even once its manifest says FAILED (the save may still be writing its objects).
 * Thread-safe.
 */
public final class SavesInFlight {

  private final Set<BackupIdentifier> running = ConcurrentHashMap.newKeySet();

  /** A save of {@code id} wrote its IN_PROGRESS manifest. */
  public void started(BackupIdentifier id) {
    running.add(id);
  }

  /** The save of {@code id} ended, however. */
  public void ended(BackupIdentifier id) {
    running.remove(id);
  }

  /**
   * @throws BackupInProgressException while a save of {@code id} runs in this store
   */
  public void checkNotSaving(BackupIdentifier id) {
    if (running.contains(id)) {
      throw new BackupInProgressException(id, "a save of it is still running in this store");
    }
  }
}
