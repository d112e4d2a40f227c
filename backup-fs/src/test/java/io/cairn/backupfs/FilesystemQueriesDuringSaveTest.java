package io.cairn.backupfs;

import io.cairn.backupapi.BackupStore;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.backuptestkit.QueriesDuringSaveContract;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import org.junit.jupiter.api.io.TempDir;

/** The filesystem store answers queries while a save waits for its bytes/s limit. */
class FilesystemQueriesDuringSaveTest extends QueriesDuringSaveContract {

  private static final long RATE_BYTES_PER_SECOND = 64 * 1024;

  @TempDir Path base;

  @Override
  protected BackupStore openThrottledStore(ExecutorService transfers, ExecutorService queries) {
    return FilesystemBackupStore.open(
        FilesystemBackupStoreConfig.of(base)
            .withMaxConcurrentFileCopies(1)
            .withMaxBytesPerSecond(RATE_BYTES_PER_SECOND),
        BackupEncryption.off(),
        new SimClock(Instant.parse("2025-03-01T10:00:00Z").toEpochMilli()),
        transfers,
        queries,
        new SimpleMeterRegistry(),
        this::holdUntilReleased);
  }
}
