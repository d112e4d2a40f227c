package io.cairn.backuptestkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestCodec;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.scheduler.SimClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hooks and fixtures of the {@link BackupStoreTestKit}. A store module implements the hooks; the
 * contract tests live in the subclasses.
 */
public abstract class BackupStoreTestKitSupport {

  /** Every future the kit waits on must complete within this. */
  protected static final Duration TIMEOUT = Duration.ofSeconds(60);

  protected static final String BROKER_VERSION = "0.1.0-test";
  protected static final String STATE_DIGEST = "00c0ffee5eed00aa";
  protected static final int PARTITION_COUNT = 8;

  protected static final ManifestCodec CODEC = new ManifestCodec();

  @TempDir protected Path workDir;

  protected final SimClock clock =
      new SimClock(Instant.parse("2025-03-01T10:00:00Z").toEpochMilli());

  /** A store without compression, opened before each test and closed after it. */
  protected BackupStore store;

  /**
   * The transfer executor for the stores under test (saves, restores, verifies): 4 threads, shut
   * down after each test.
   */
  protected final ExecutorService transferExecutor = threads("backup-io-", 4);

  /** The query executor for the stores under test (status, list, markFailed, delete): 2 threads. */
  protected final ExecutorService queryExecutor = threads("backup-query-", 2);

  private final List<BackupStore> opened = new ArrayList<>();
  private int directoryCounter;

  // ---------------------------------------------------------------------------------- hooks

  /** Opens a store on the same storage every call (the kit may open several at once). */
  protected abstract BackupStore createStore(StoreSettings settings) throws Exception;

  /** Changes one byte in the middle of the stored object of a file (its stored size stays). */
  protected abstract void corruptObject(BackupIdentifier id, FileSetKind set, String name)
      throws Exception;

  /** Removes the stored object of a file. */
  protected abstract void deleteObject(BackupIdentifier id, FileSetKind set, String name)
      throws Exception;

  /** Cuts the stored object of a file to {@code storedLengthBytes}. */
  protected abstract void truncateObject(
      BackupIdentifier id, FileSetKind set, String name, long storedLengthBytes) throws Exception;

  /** Writes {@code json} as the manifest of {@code id}, as is, replacing any manifest. */
  protected abstract void writeRawManifest(BackupIdentifier id, byte[] json) throws Exception;

  /** The stored manifest of {@code id}, as is. */
  protected abstract byte[] readRawManifest(BackupIdentifier id) throws Exception;

  // ------------------------------------------------------------------------------ lifecycle

  @BeforeEach
  final void openDefaultStore() throws Exception {
    store = openStore(CompressionPolicy.none());
  }

  @AfterEach
  final void closeStores() {
    opened.forEach(BackupStore::close);
    opened.clear();
    transferExecutor.shutdownNow();
    queryExecutor.shutdownNow();
  }

  private static ExecutorService threads(String prefix, int count) {
    AtomicInteger created = new AtomicInteger();
    return Executors.newFixedThreadPool(
        count, r -> new Thread(r, prefix + created.incrementAndGet()));
  }

  /** Opens another store on the same storage; closed after the test. */
  protected final BackupStore openStore(CompressionPolicy compression) throws Exception {
    return openStore(compression, BackupEncryption.off());
  }

  /** Opens another store on the same storage, encrypting as {@code encryption} says. */
  protected final BackupStore openStore(CompressionPolicy compression, BackupEncryption encryption)
      throws Exception {
    BackupStore s = createStore(new StoreSettings(compression, encryption, clock));
    opened.add(s);
    return s;
  }

  // ------------------------------------------------------------------------------- fixtures

  protected static BackupIdentifier id(int nodeId, int partitionId, long checkpointId) {
    return new BackupIdentifier(nodeId, partitionId, checkpointId);
  }

  /** A fresh empty directory under the kit's work directory. */
  protected final Path newDirectory(String prefix) throws IOException {
    return Files.createDirectories(workDir.resolve(prefix + "-" + (++directoryCounter)));
  }

  /** Writes {@code sizeBytes} seeded random (incompressible) bytes. */
  protected static Path randomFile(Path dir, String name, int sizeBytes, long seed)
      throws IOException {
    byte[] bytes = new byte[sizeBytes];
    new Random(seed).nextBytes(bytes);
    return write(dir, name, bytes);
  }

  /** Writes {@code sizeBytes} of compressible, record-like text. */
  protected static Path textFile(Path dir, String name, int sizeBytes, long seed)
      throws IOException {
    var random = new Random(seed);
    var text = new StringBuilder(sizeBytes + 128);
    while (text.length() < sizeBytes) {
      text.append("{\"account\":\"acc-")
          .append(random.nextInt(1000))
          .append("\",\"intent\":\"DEPOSITED\",\"amount\":")
          .append(random.nextInt(100_000))
          .append("}\n");
    }
    return write(
        dir, name, Arrays.copyOf(text.toString().getBytes(StandardCharsets.UTF_8), sizeBytes));
  }

  protected static Path write(Path dir, String name, byte[] bytes) throws IOException {
    Path path = dir.resolve(name);
    Files.createDirectories(path.getParent());
    Files.write(path, bytes);
    return path;
  }

  protected static BackupFile file(String name, Path path) throws IOException {
    return new BackupFile(name, path, Files.size(path));
  }

  protected static Backup backup(
      BackupIdentifier id, NamedFileSet snapshot, NamedFileSet segments) {
    var builder =
        Backup.builder(id)
            .checkpointPosition(1000 * id.checkpointId())
            .numberOfPartitions(PARTITION_COUNT)
            .brokerVersion(BROKER_VERSION)
            .stateDigest(STATE_DIGEST)
            .segments(segments);
    if (!snapshot.isEmpty()) {
      builder.snapshot("snapshot-" + id.checkpointId(), snapshot);
    }
    return builder.build();
  }

  /**
   * A backup shaped like a real one: a RocksDB-like snapshot (small and larger files, one in a
   * sub-directory) and three segments, the last "active" one longer on disk than its fixed length.
   */
  protected final Backup typicalBackup(BackupIdentifier id) throws IOException {
    Path dir = newDirectory("source");
    long seed = id.hashCode();
    NamedFileSet snapshot =
        NamedFileSet.of(
            file(
                "CURRENT",
                write(dir, "snap/CURRENT", "MANIFEST-000007\n".getBytes(StandardCharsets.UTF_8))),
            file("MANIFEST-000007", randomFile(dir, "snap/MANIFEST-000007", 1500, seed + 1)),
            file("000012.sst", randomFile(dir, "snap/000012.sst", 300_000, seed + 2)),
            file("meta/checksums", randomFile(dir, "snap/meta/checksums", 64, seed + 3)));
    Path active = randomFile(dir, "log/3.log", 180_000, seed + 6);
    NamedFileSet segments =
        NamedFileSet.of(
            file("1.log", randomFile(dir, "log/1.log", 600_000, seed + 4)),
            file("2.log", randomFile(dir, "log/2.log", 1, seed + 5)),
            new BackupFile("3.log", active, 120_000));
    return backup(id, snapshot, segments);
  }

  /** A backup of one small segment and no snapshot. */
  protected final Backup tinyBackup(BackupIdentifier id) throws IOException {
    Path dir = newDirectory("tiny");
    return backup(
        id,
        NamedFileSet.empty(),
        NamedFileSet.of(file("1.log", randomFile(dir, "1.log", 64, id.hashCode()))));
  }

  // ---------------------------------------------------------------------------------- waits

  /** Waits for a future; rethrows its failure unwrapped (a RuntimeException or Error). */
  protected static <T> T await(CompletableFuture<T> future) {
    try {
      return future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new AssertionError("Expected a RuntimeException, but the future failed with", cause);
    } catch (TimeoutException e) {
      throw new AssertionError(
          "Expected the future to complete within " + TIMEOUT + ", but it " + "did not");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("Interrupted while waiting", e);
    }
  }

  // ----------------------------------------------------------------------------- assertions

  /** Asserts each restored file holds exactly the saved prefix of its source. */
  protected static void assertRestoredIdentical(Backup saved, Backup restored, Path targetDir)
      throws IOException {
    assertThat(restored.id()).isEqualTo(saved.id());
    assertThat(restored.descriptor()).isEqualTo(saved.descriptor());
    for (FileSetKind kind : FileSetKind.values()) {
      NamedFileSet expected = saved.files(kind);
      NamedFileSet actual = restored.files(kind);
      assertThat(actual.files())
          .extracting(BackupFile::name)
          .containsExactlyInAnyOrderElementsOf(
              expected.files().stream().map(BackupFile::name).toList());
      for (BackupFile source : expected.files()) {
        BackupFile copy = actual.file(source.name()).orElseThrow();
        assertThat(copy.path())
            .isEqualTo(targetDir.resolve(kind.directoryName()).resolve(source.name()));
        assertThat(copy.lengthBytes()).isEqualTo(source.lengthBytes());
        byte[] original = readPrefix(source.path(), source.lengthBytes());
        byte[] restoredBytes = Files.readAllBytes(copy.path());
        assertThat(Arrays.mismatch(original, restoredBytes))
            .as(
                "first differing offset of restored %s/%s (%d bytes, expected %d)",
                kind.directoryName(), source.name(), restoredBytes.length, original.length)
            .isEqualTo(-1);
      }
    }
  }

  protected static byte[] readPrefix(Path path, long lengthBytes) throws IOException {
    byte[] all = Files.readAllBytes(path);
    return Arrays.copyOf(all, (int) lengthBytes);
  }

  protected final Manifest storedManifest(BackupIdentifier id) throws Exception {
    return CODEC.decode(readRawManifest(id), "test", id);
  }
}
