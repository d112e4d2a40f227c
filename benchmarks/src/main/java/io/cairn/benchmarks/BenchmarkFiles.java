package io.cairn.benchmarks;

import io.cairn.scheduler.Clock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/** File helpers of the plain main-class benchmarks: baselines with plain tools, sizes, cleanup. */
public final class BenchmarkFiles {

  private static final Clock CLOCK = Clock.system();
  private static final int READ_BUFFER_BYTES = 1 << 20;

  private BenchmarkFiles() {}

  /** Runs {@code command} (inheriting the output); seconds. */
  static double run(String... command) throws IOException, InterruptedException {
    long start = CLOCK.nanos();
    Process process = new ProcessBuilder(command).inheritIO().start();
    if (process.waitFor() != 0) {
      throw new IllegalStateException(
          "Expected " + String.join(" ", command) + " to succeed, but exit " + process.exitValue());
    }
    return (CLOCK.nanos() - start) / 1e9;
  }

  /** {@code sync} of every file system; seconds. */
  static double sync() throws IOException, InterruptedException {
    return run("sync");
  }

  /**
   * Reads every file of every group once through a 1 MiB direct buffer and computes its CRC32C, one
   * group per task on {@code executor} (as many at once as it has threads).
   *
   * @return the XOR of the checksums (so the work cannot be skipped)
   */
  static long readWithCrc32c(List<List<Path>> groups, ExecutorService executor) throws Exception {
    List<Future<Long>> results = new ArrayList<>();
    for (List<Path> files : groups) {
      results.add(
          executor.submit(
              () -> {
                ByteBuffer buffer = ByteBuffer.allocateDirect(READ_BUFFER_BYTES);
                long xor = 0;
                for (Path file : files) {
                  CRC32C crc = new CRC32C();
                  try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                    while (channel.read(buffer.clear()) >= 0) {
                      crc.update(buffer.flip());
                    }
                  }
                  xor ^= crc.getValue();
                }
                return xor;
              }));
    }
    long xor = 0;
    for (Future<Long> result : results) {
      xor ^= result.get();
    }
    return xor;
  }

  /** Regular files under {@code root}, sorted. */
  public static List<Path> files(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      return paths.filter(Files::isRegularFile).sorted().toList();
    }
  }

  /** The sizes of the regular files under {@code root}. */
  public static long sizeBytes(Path root) throws IOException {
    long sum = 0;
    for (Path file : files(root)) {
      sum += Files.size(file);
    }
    return sum;
  }

  /** The blocks allocated to the regular files under {@code root}, in bytes. */
  static long diskBytes(Path root) throws IOException {
    long sum = 0;
    for (Path file : files(root)) {
      try {
        sum += (Long) Files.getAttribute(file, "unix:blocks") * 512L;
      } catch (UnsupportedOperationException | IllegalArgumentException e) {
        sum += Files.size(file);
      }
    }
    return sum;
  }

  /** {@code /proc/loadavg}: the 1, 5 and 15 minute load averages, or "unknown". */
  public static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return String.join(" ", fields[0], fields[1], fields[2]);
    } catch (IOException | ArrayIndexOutOfBoundsException e) {
      return "unknown";
    }
  }

  static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  static String seconds(List<Double> values) {
    return values.stream()
        .map(v -> String.format(Locale.ROOT, "%.2f", v))
        .reduce((a, b) -> a + " / " + b)
        .orElse("-");
  }

  public static void deleteRecursively(Path path) {
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
