package io.cairn.backupfs;

import io.cairn.backupapi.BackupIdentifier;
import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Serialises manifest read-modify-writes of one backup within this process: a fixed set of lock
 * stripes, chosen by the identifier's hash (two backups may share a stripe; that only costs
 * waiting). Held only around manifest checks and writes, never while contents are copied.
 */
final class BackupLocks {

  private static final int STRIPES = 64;

  @FunctionalInterface
  interface IoSupplier<T> {
    T get() throws IOException;
  }

  private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

  BackupLocks() {
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  <T> T withLock(BackupIdentifier id, IoSupplier<T> action) throws IOException {
    ReentrantLock lock = stripes[Math.floorMod(id.hashCode(), STRIPES)];
    lock.lock();
    try {
      return action.get();
    } finally {
      lock.unlock();
    }
  }
}
