package io.cairn.benchmarks;

import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.NamedFileSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Files shaped like one partition's backup, of incompressible seeded random bytes, in {@code
 * root/snapshot} and {@code root/segments}:
 *
 * <ul>
 *   <li>snapshot: {@code sstFiles} table files ({@code 000010.sst} ...) of sizes drawn uniformly
 *       from [{@code sstBytesMin}, {@code sstBytesMax}], plus RocksDB's small files ({@code
 *       CURRENT}, {@code MANIFEST-000001} of 64 KiB, {@code OPTIONS-000003}) and the snapshot's
 *       {@code metadata.json} and {@code checksums.crc32c};
 *   <li>segments: {@code fullSegments} closed segments of {@code segmentBytes} ({@code
 *       journal-1.log} ...) and one active segment filled to {@code activeSegmentBytes}.
 * </ul>
 *
 * <p>{@link #churn} changes a share of the bytes as a partition does between two backups: one table
 * file rewritten (new content, same name and size), the RocksDB manifest appended to, the metadata
 * and checksum files rewritten, and the rest of the share appended to the active segment. Every
 * file's content depends only on the seed, the file and its generation.
 */
final class S3BenchmarkFiles {

  private static final int CHUNK_BYTES = 1 << 20;
  private static final long MANIFEST_BYTES = 64 * 1024;
  private static final long MANIFEST_APPEND_BYTES = 1024;

  /** The shape of the generated partition. */
  record Shape(
      int fullSegments,
      long segmentBytes,
      long activeSegmentBytes,
      int sstFiles,
      long sstBytesMin,
      long sstBytesMax,
      long seed) {}

  /** What one {@link #churn} changed. */
  record Churn(String rewrittenTableFile, long rewrittenBytes, long appendedBytes) {
    long changedBytes() {
      return rewrittenBytes + appendedBytes;
    }
  }

  private final Path snapshotDir;
  private final Path segmentsDir;
  private final Shape shape;
  private final SplittableRandom choices;

  /** Name → length, in order. */
  private final Map<String, Long> snapshot = new LinkedHashMap<>();

  private final Map<String, Long> segments = new LinkedHashMap<>();
  private final String activeSegment;
  private long generation;

  private S3BenchmarkFiles(Path root, Shape shape) {
    this.snapshotDir = root.resolve("snapshot");
    this.segmentsDir = root.resolve("segments");
    this.shape = shape;
    this.choices = new SplittableRandom(shape.seed());
    this.activeSegment = "journal-" + (shape.fullSegments() + 1) + ".log";
  }

  /** Writes the files of {@code shape} under {@code root} (emptied first). */
  static S3BenchmarkFiles generate(Path root, Shape shape) throws IOException {
    deleteRecursively(root);
    S3BenchmarkFiles files = new S3BenchmarkFiles(root, shape);
    Files.createDirectories(files.snapshotDir);
    Files.createDirectories(files.segmentsDir);
    files.writeSnapshot("CURRENT", 16);
    files.writeSnapshot("MANIFEST-000001", MANIFEST_BYTES);
    files.writeSnapshot("OPTIONS-000003", 7 * 1024);
    for (int i = 0; i < shape.sstFiles(); i++) {
      long size =
          shape.sstBytesMin()
              + files.choices.nextLong(shape.sstBytesMax() - shape.sstBytesMin() + 1);
      files.writeSnapshot(String.format(Locale.ROOT, "%06d.sst", 10 + i), size & ~4095L);
    }
    files.writeSnapshot("metadata.json", 512);
    files.writeSnapshot("checksums.crc32c", 2048);
    for (int i = 1; i <= shape.fullSegments(); i++) {
      files.writeSegment("journal-" + i + ".log", shape.segmentBytes());
    }
    files.writeSegment(files.activeSegment, shape.activeSegmentBytes());
    return files;
  }

  NamedFileSet snapshot() {
    return fileSet(snapshotDir, snapshot);
  }

  NamedFileSet segments() {
    return fileSet(segmentsDir, segments);
  }

  long totalBytes() {
    return snapshot().totalBytes() + segments().totalBytes();
  }

  int fileCount() {
    return snapshot.size() + segments.size();
  }

  /**
   * Changes about {@code percent}% of the bytes: rewrites one table file chosen by the seeded
   * random (at least that file, whatever its size), appends to the manifest and rewrites the
   * metadata and checksum files, and appends the rest of the share to the active segment.
   */
  Churn churn(double percent) throws IOException {
    generation++;
    long budget = (long) (totalBytes() * percent / 100);
    List<String> tables = snapshot.keySet().stream().filter(name -> name.endsWith(".sst")).toList();
    String table = tables.get(choices.nextInt(tables.size()));
    long rewritten = snapshot.get(table);
    writeSnapshot(table, snapshot.get(table));
    rewritten += appendTo(snapshotDir, snapshot, "MANIFEST-000001", MANIFEST_APPEND_BYTES);
    for (String small : List.of("metadata.json", "checksums.crc32c")) {
      writeSnapshot(small, snapshot.get(small));
      rewritten += snapshot.get(small);
    }
    long append = Math.max(0, budget - rewritten) & ~4095L;
    long appended = appendTo(segmentsDir, segments, activeSegment, append);
    return new Churn(table, rewritten, appended);
  }

  private static NamedFileSet fileSet(Path dir, Map<String, Long> files) {
    List<BackupFile> list = new ArrayList<>();
    files.forEach((name, length) -> list.add(new BackupFile(name, dir.resolve(name), length)));
    return new NamedFileSet(list);
  }

  private void writeSnapshot(String name, long bytes) throws IOException {
    write(snapshotDir.resolve(name), bytes, seedOf(name), false);
    snapshot.put(name, bytes);
  }

  private void writeSegment(String name, long bytes) throws IOException {
    write(segmentsDir.resolve(name), bytes, seedOf(name), false);
    segments.put(name, bytes);
  }

  private long appendTo(Path dir, Map<String, Long> files, String name, long bytes)
      throws IOException {
    write(dir.resolve(name), bytes, seedOf(name), true);
    files.merge(name, bytes, Long::sum);
    return bytes;
  }

  private long seedOf(String name) {
    return shape.seed() * 1_000_003L + name.hashCode() * 31L + generation;
  }

  private static void write(Path path, long bytes, long seed, boolean append) throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    byte[] chunk = new byte[CHUNK_BYTES];
    StandardOpenOption mode =
        append ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING;
    try (FileChannel channel =
        FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, mode)) {
      long written = 0;
      while (written < bytes) {
        int n = (int) Math.min(chunk.length, bytes - written);
        random.nextBytes(chunk);
        ByteBuffer buffer = ByteBuffer.wrap(chunk, 0, n);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        written += n;
      }
    }
  }

  static void deleteRecursively(Path path) {
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
