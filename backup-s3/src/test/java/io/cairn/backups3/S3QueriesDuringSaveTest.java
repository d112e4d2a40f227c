package io.cairn.backups3;

import io.cairn.backupapi.BackupStore;
import io.cairn.backups3.testserver.LocalS3Servers;
import io.cairn.backups3.testserver.LocalS3Servers.Kind;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.backuptestkit.QueriesDuringSaveContract;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import org.junit.jupiter.api.extension.ExtendWith;

/** On S3Proxy: the S3 store answers queries while a save waits for its bytes/s limit. */
@ExtendWith(LocalS3Servers.class)
class S3QueriesDuringSaveTest extends QueriesDuringSaveContract {

  private static final String BUCKET = "cairn-queries";

  @Override
  protected BackupStore openThrottledStore(ExecutorService transfers, ExecutorService queries) {
    LocalS3Servers.Running server = LocalS3Servers.get(Kind.S3PROXY);
    server.createBucket(BUCKET);
    return S3BackupStore.open(
        server
            .config(BUCKET, "queries")
            .maxBytesPerSecond(S3BackupStoreConfig.MAX_BYTES_PER_SECOND_MIN)
            .build(),
        BackupEncryption.off(),
        new SimClock(Instant.parse("2025-03-01T10:00:00Z").toEpochMilli()),
        transfers,
        queries,
        new SimpleMeterRegistry(),
        this::holdUntilReleased);
  }
}
