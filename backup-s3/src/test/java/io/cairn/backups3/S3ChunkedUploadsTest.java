package io.cairn.backups3;

import static io.cairn.backups3.S3TestSupport.MIB;
import static io.cairn.backups3.S3TestSupport.assertRestoredIdentical;
import static io.cairn.backups3.S3TestSupport.await;
import static io.cairn.backups3.S3TestSupport.backup;
import static io.cairn.backups3.S3TestSupport.file;
import static io.cairn.backups3.S3TestSupport.randomFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backups3.testserver.FaultInjectingProxy;
import io.cairn.backups3.testserver.LocalS3Servers;
import io.cairn.backups3.testserver.LocalS3Servers.Kind;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that stores the SDK's {@code aws-chunked} upload body as the object — chunk header, data
 * and checksum trailer — instead of decoding it, as some S3-compatible servers do. Emulated with
 * S3Mock behind a proxy that removes the headers announcing the chunked encoding, so S3Mock keeps
 * the body as sent. With the default settings the store refuses to start naming {@code legacyMd5}
 * (its start-up probe reads back the framed bytes); with {@code legacyMd5: true} it starts, and a
 * backup with a multipart file round-trips byte for byte through the same server.
 */
@ExtendWith(LocalS3Servers.class)
class S3ChunkedUploadsTest {

  private static final String BUCKET = "cairn-chunked";

  /** What announces an aws-chunked body; without them the body is taken as the content. */
  private static final Set<String> CHUNKED_HEADERS =
      Set.of(
          "content-encoding",
          "x-amz-decoded-content-length",
          "x-amz-content-sha256",
          "x-amz-trailer");

  @TempDir Path dir;
  private final ExecutorService executor = Executors.newFixedThreadPool(4);

  @AfterEach
  void stopExecutor() {
    executor.shutdownNow();
  }

  @Test
  void refusesToStartNamingLegacyMd5AndWorksWithIt() throws Exception {
    LocalS3Servers.Running server = LocalS3Servers.get(Kind.S3MOCK);
    server.createBucket(BUCKET);
    try (var proxy =
        new FaultInjectingProxy(server.process().endpoint()).stripRequestHeaders(CHUNKED_HEADERS)) {
      var config = server.config(BUCKET, "chunked").endpoint(proxy.endpoint());

      assertThatThrownBy(() -> open(config.build()))
          .isInstanceOfSatisfying(
              S3BackupStoreStartException.class,
              e -> assertThat(e.configKey()).isEqualTo("legacyMd5"))
          .hasMessageContaining("inside the SDK's aws-chunked upload framing")
          .hasMessageContaining("Set legacyMd5: true");

      try (S3BackupStore store = open(config.legacyMd5(true).build())) {
        Path large = randomFile(dir, "1.log", 6 * MIB, 1);
        Path small = randomFile(dir, "2.log", 100, 2);
        Backup saved =
            backup(
                new BackupIdentifier(0, 1, 1),
                NamedFileSet.empty(),
                NamedFileSet.of(file("1.log", large), file("2.log", small)));
        await(store.save(saved));
        assertThat(await(store.verify(saved.id())).isClean()).isTrue();
        await(store.restore(saved.id(), dir.resolve("restore"), RestoreProgressListener.NOOP));
        assertRestoredIdentical(saved, dir.resolve("restore"));
      }
    }
  }

  private S3BackupStore open(S3BackupStoreConfig config) {
    return S3BackupStore.open(
        config, Clock.system(), executor, executor, new SimpleMeterRegistry());
  }
}
