package io.cairn.backups3;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.NamedFileSet;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Fixtures shared by this module's tests that go beyond the contract kit. */
final class S3TestSupport {

  static final int MIB = 1024 * 1024;
  static final Duration TIMEOUT = Duration.ofSeconds(90);

  private S3TestSupport() {}

  static Path randomFile(Path dir, String name, int sizeBytes, long seed) throws IOException {
    byte[] bytes = new byte[sizeBytes];
    new Random(seed).nextBytes(bytes);
    Path path = dir.resolve(name);
    Files.createDirectories(path.getParent());
    Files.write(path, bytes);
    return path;
  }

  static BackupFile file(String name, Path path) throws IOException {
    return new BackupFile(name, path, Files.size(path));
  }

  static Backup backup(BackupIdentifier id, NamedFileSet snapshot, NamedFileSet segments) {
    var builder =
        Backup.builder(id)
            .checkpointPosition(1000 * id.checkpointId())
            .numberOfPartitions(16)
            .brokerVersion("0.1.0-test")
            .stateDigest("00c0ffee")
            .segments(segments);
    if (!snapshot.isEmpty()) {
      builder.snapshot("snapshot-" + id.checkpointId(), snapshot);
    }
    return builder.build();
  }

  /** Every attempt of one S3 API call, whatever its result. */
  static long requests(MeterRegistry registry, String operation) {
    return registry
        .find(S3BackupStoreMetrics.REQUESTS)
        .tag("operation", operation)
        .timers()
        .stream()
        .mapToLong(Timer::count)
        .sum();
  }

  static double counter(MeterRegistry registry, String name) {
    var counter = registry.find(name).counter();
    return counter == null ? 0 : counter.count();
  }

  static <T> T await(CompletableFuture<T> future) {
    try {
      return future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw new AssertionError("Expected a RuntimeException, but got", cause);
    } catch (TimeoutException e) {
      throw new AssertionError("Expected the future within " + TIMEOUT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Asserts each restored file holds exactly the saved prefix of its source. */
  static void assertRestoredIdentical(Backup saved, Path targetDir) throws IOException {
    for (FileSetKind kind : FileSetKind.values()) {
      for (BackupFile source : saved.files(kind).files()) {
        byte[] expected =
            Arrays.copyOf(Files.readAllBytes(source.path()), (int) source.lengthBytes());
        byte[] actual =
            Files.readAllBytes(targetDir.resolve(kind.directoryName()).resolve(source.name()));
        if (Arrays.mismatch(expected, actual) != -1) {
          throw new AssertionError(
              "Expected restored "
                  + kind.directoryName()
                  + "/"
                  + source.name()
                  + " to equal the saved "
                  + expected.length
                  + " bytes, but it has "
                  + actual.length
                  + " bytes differing at "
                  + Arrays.mismatch(expected, actual));
        }
      }
    }
  }
}
