package io.cairn.benchmarks;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamily;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbCodecs;
import io.cairn.db.DbConfig;
import io.cairn.scheduler.Clock;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotConfig;
import io.cairn.snapshot.SnapshotFile;
import io.cairn.snapshot.SnapshotMetadata;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.snapshot.TransientSnapshot;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * Taking a snapshot of a partition's state ({@code SnapshotStore}: RocksDB checkpoint with hard
 * links, metadata, CRC32C of every file, fsync, atomic rename) against {@code cp -r} of the same
 * RocksDB directory followed by {@code sync}, for several state sizes.
 *
 * <p>One real {@link CairnDb} in {@code directory/state} is filled with 1 KiB random
 * (incompressible) values under increasing keys up to each size in {@code stateMebibytes} (MiB) in
 * turn, then closed and reopened so that the state is in table files (close flushes the memtables).
 * For every size, {@code rounds} rounds, alternating which goes first, each after an untimed {@code
 * sync}:
 *
 * <ul>
 *   <li><b>snapshot</b>: {@code newTransientSnapshot} → {@code writeState(db::createCheckpoint)} →
 *       {@code persist()} into a fresh store (opened before the clock starts), split into the
 *       checkpoint and the persist (metadata, checksums, fsyncs, rename); then {@code verify}
 *       (reads every byte against the checksum file) and {@code copyForRecovery} (copies every file
 *       with its CRC32C and an fsync, as a restart does);
 *   <li><b>copy</b>: {@code sh -c 'cp -r <state dir> <target> && sync'}.
 * </ul>
 *
 * <p>Medians of the rounds are printed per size. Usage: {@code SnapshotBenchmark [key=value ...]};
 * keys and defaults in {@link #main}. Everything under {@code directory} is deleted at the end.
 */
public final class SnapshotBenchmark {

  private static final Clock CLOCK = Clock.system();
  private static final ColumnFamilyDefinition STATE =
      ColumnFamilyDefinition.digested("BENCH_STATE");
  private static final int KEYS_PER_TRANSACTION = 2_000;

  private final Map<String, String> settings;
  private final Path directory;
  private final int valueBytes;
  private final SplittableRandom random = new SplittableRandom(17);
  private long nextKey;
  private long nextIndex = 1;

  private SnapshotBenchmark(Map<String, String> settings) {
    this.settings = settings;
    directory = Path.of(settings.get("directory")).toAbsolutePath();
    valueBytes = Integer.parseInt(settings.get("valueBytes"));
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("stateMebibytes", "10,100,1000");
    settings.put("rounds", "3");
    settings.put("valueBytes", "1024");
    settings.put("directory", "target/snapshot-benchmark");
    BenchmarkSettings.apply(settings, args);
    new SnapshotBenchmark(settings).run();
  }

  private void run() throws Exception {
    deleteRecursively(directory);
    Files.createDirectories(directory);
    Path state = directory.resolve("state");
    int rounds = Integer.parseInt(settings.get("rounds"));
    List<Summary> summaries = new ArrayList<>();
    try {
      for (String size : settings.get("stateMebibytes").split(",")) {
        long mebibytes = Long.parseLong(size.trim());
        long start = CLOCK.nanos();
        fill(state, mebibytes * 1024 * 1024 / valueBytes);
        double fillSeconds = (CLOCK.nanos() - start) / 1e9;
        try (CairnDb db = open(state)) {
          System.out.printf(
              Locale.ROOT,
              "%d MiB: %d values of %d bytes, filled in %.1f s; state directory %d files, %d"
                  + " bytes (%d table files, %d bytes)%n",
              mebibytes,
              nextKey,
              valueBytes,
              fillSeconds,
              countFiles(state, ""),
              sizeBytes(state, ""),
              countFiles(state, ".sst"),
              sizeBytes(state, ".sst"));
          summaries.add(measure(mebibytes, db, state, rounds));
        }
      }
    } finally {
      deleteRecursively(directory);
    }
    System.out.println();
    System.out.println(
        "| state | snapshot files, bytes | new bytes | checkpoint ms | persist ms | snapshot ms"
            + " | cp -r + sync ms (bytes) | snapshot / cp | verify ms | copyForRecovery ms |");
    for (Summary s : summaries) {
      System.out.println(s.row());
    }
  }

  // ---- the state
  // ---------------------------------------------------------------------------------

  private static CairnDb open(Path state) {
    return CairnDb.open(state, DbConfig.defaults(), List.of(STATE), new SimpleMeterRegistry());
  }

  /** Adds values under increasing keys until there are {@code values}; close flushes them. */
  private void fill(Path state, long values) {
    try (CairnDb db = open(state)) {
      ColumnFamily<Long, byte[]> family = db.columnFamily(STATE, DbCodecs.LONG, DbCodecs.BYTES);
      while (nextKey < values) {
        long from = nextKey;
        long to = Math.min(values, from + KEYS_PER_TRANSACTION);
        db.runInTransaction(
            () -> {
              for (long key = from; key < to; key++) {
                family.put(key, randomBytes(valueBytes));
              }
            });
        nextKey = to;
      }
    }
  }

  // ---- one size
  // ----------------------------------------------------------------------------------

  private record Round(
      double checkpointMs,
      double persistMs,
      double verifyMs,
      double recoveryMs,
      double copyMs,
      PersistedSnapshot snapshot,
      long newBytes,
      long copiedBytes) {

    double snapshotMs() {
      return checkpointMs + persistMs;
    }
  }

  private record Summary(long mebibytes, List<Round> rounds) {

    double median(ToDoubleFunction<Round> metric) {
      return SnapshotBenchmark.median(rounds.stream().mapToDouble(metric).boxed().toList());
    }

    String row() {
      Round first = rounds.get(0);
      return String.format(
          Locale.ROOT,
          "| %d MiB | %d, %,d | %,d | %.1f | %.1f | **%.1f** | %.1f (%,d) | **%.3f** | %.1f | %.1f |",
          mebibytes,
          first.snapshot.files().size(),
          first.snapshot.sizeBytes(),
          first.newBytes,
          median(Round::checkpointMs),
          median(Round::persistMs),
          median(Round::snapshotMs),
          median(Round::copyMs),
          first.copiedBytes,
          median(Round::snapshotMs) / median(Round::copyMs),
          median(Round::verifyMs),
          median(Round::recoveryMs));
    }
  }

  private Summary measure(long mebibytes, CairnDb db, Path state, int rounds)
      throws IOException, InterruptedException {
    List<Round> results = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      boolean snapshotFirst = round % 2 == 1;
      Round result;
      if (snapshotFirst) {
        Round taken = snapshot(db, mebibytes, round);
        long[] copy = copyAndSync(state, directory.resolve("copy"));
        result = withCopy(taken, copy);
      } else {
        long[] copy = copyAndSync(state, directory.resolve("copy"));
        result = withCopy(snapshot(db, mebibytes, round), copy);
      }
      results.add(result);
      System.out.printf(
          Locale.ROOT,
          "%d MiB round %d (%s first): snapshot %.1f ms (checkpoint %.1f + persist %.1f; %d files,"
              + " %d bytes, %d new), cp -r + sync %.1f ms (%d bytes), snapshot / cp %.3f; verify"
              + " %.1f ms, copyForRecovery %.1f ms%n",
          mebibytes,
          round,
          snapshotFirst ? "snapshot" : "cp",
          result.snapshotMs(),
          result.checkpointMs,
          result.persistMs,
          result.snapshot.files().size(),
          result.snapshot.sizeBytes(),
          result.newBytes,
          result.copyMs,
          result.copiedBytes,
          result.snapshotMs() / result.copyMs,
          result.verifyMs,
          result.recoveryMs);
    }
    return new Summary(mebibytes, results);
  }

  private static Round withCopy(Round round, long[] copy) {
    return new Round(
        round.checkpointMs,
        round.persistMs,
        round.verifyMs,
        round.recoveryMs,
        copy[0] / 1e6,
        round.snapshot,
        round.newBytes,
        copy[1]);
  }

  /** Takes, verifies and recovers one snapshot in a fresh store; deletes the store after. */
  private Round snapshot(CairnDb db, long mebibytes, int round)
      throws IOException, InterruptedException {
    Path root = directory.resolve("snapshots-" + mebibytes + "-" + round);
    Path recovered = directory.resolve("recovered");
    sync();
    try (SnapshotStore store =
        SnapshotStore.open(
            root, SnapshotConfig.defaults(), CLOCK, new SimpleMeterRegistry(), Tags.empty())) {
      long index = nextIndex++;
      long start = CLOCK.nanos();
      TransientSnapshot snapshot =
          store.newTransientSnapshot(
              new SnapshotMetadata(
                  index, 1, index, 0, index, "0.1.0", CLOCK.millis(), db.stateDigest().toHex()));
      snapshot.writeState(db::createCheckpoint);
      long checkpointed = CLOCK.nanos();
      PersistedSnapshot persisted = snapshot.persist();
      long persistedAt = CLOCK.nanos();
      long newBytes = unlinkedBytes(persisted);

      sync();
      long verifyStart = CLOCK.nanos();
      store.verify(persisted.id());
      long verified = CLOCK.nanos();

      long recoveryStart = CLOCK.nanos();
      Optional<PersistedSnapshot> copied = store.copyForRecovery(recovered);
      long recoveredAt = CLOCK.nanos();
      if (copied.isEmpty() || !copied.get().id().equals(persisted.id())) {
        throw new IllegalStateException(
            "Expected to recover snapshot " + persisted.id() + ", but got " + copied);
      }
      return new Round(
          (checkpointed - start) / 1e6,
          (persistedAt - checkpointed) / 1e6,
          (verified - verifyStart) / 1e6,
          (recoveredAt - recoveryStart) / 1e6,
          0,
          persisted,
          newBytes,
          0);
    } finally {
      deleteRecursively(recovered);
      deleteRecursively(root);
    }
  }

  /** Bytes of the snapshot's files that are not hard links to the database's files. */
  private static long unlinkedBytes(PersistedSnapshot snapshot) throws IOException {
    long bytes = 0;
    for (SnapshotFile file : snapshot.files()) {
      if (((Number) Files.getAttribute(file.path(), "unix:nlink")).intValue() == 1) {
        bytes += file.sizeBytes();
      }
    }
    return bytes;
  }

  /** {@code cp -r source target && sync}; nanoseconds and bytes copied. Deletes the copy after. */
  private static long[] copyAndSync(Path source, Path target)
      throws IOException, InterruptedException {
    sync();
    try {
      long start = CLOCK.nanos();
      Process process =
          new ProcessBuilder(
                  "sh",
                  "-c",
                  "cp -r \"$1\" \"$2\" && sync",
                  "copy",
                  source.toString(),
                  target.toString())
              .inheritIO()
              .start();
      if (process.waitFor() != 0) {
        throw new IllegalStateException(
            "Expected cp and sync to succeed, but exit " + process.exitValue());
      }
      long nanos = CLOCK.nanos() - start;
      return new long[] {nanos, sizeBytes(target, "")};
    } finally {
      deleteRecursively(target);
    }
  }

  /** Writes back every dirty page first, so no measurement pays for the previous one. */
  private static void sync() throws IOException, InterruptedException {
    Process process = new ProcessBuilder("sync").inheritIO().start();
    if (process.waitFor() != 0) {
      throw new IllegalStateException("Expected sync to succeed, but exit " + process.exitValue());
    }
  }

  // ---- helpers
  // -----------------------------------------------------------------------------------

  private byte[] randomBytes(int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i += 8) {
      long value = random.nextLong();
      for (int b = 0; b < 8 && i + b < length; b++) {
        bytes[i + b] = (byte) (value >>> (8 * b));
      }
    }
    return bytes;
  }

  private static long countFiles(Path dir, String suffix) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(suffix)).count();
    }
  }

  private static long sizeBytes(Path dir, String suffix) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .filter(p -> p.toString().endsWith(suffix))
          .mapToLong(
              p -> {
                try {
                  return Files.size(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .sum();
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static void deleteRecursively(Path path) {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(path)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
