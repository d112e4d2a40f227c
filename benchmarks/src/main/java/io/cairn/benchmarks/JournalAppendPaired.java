package io.cairn.benchmarks;

import io.micrometer.core.instrument.Clock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The same workload as {@link JournalAppendBenchmark}, measured in alternating slices inside one
 * JVM: each round runs the journal, the growing-file baseline and the preallocated baseline for one
 * slice each (in rotating order) and computes the ratios of that round. On a machine shared with
 * other work, where fsync latency drifts by several times within seconds, the median of paired
 * ratios is steadier than ratios of results taken a minute apart.
 *
 * <p>Usage: {@code JournalAppendPaired [rounds=20] [sliceMs=1000] [directory]}; the first three
 * rounds are warm-up and not counted.
 */
public final class JournalAppendPaired {

  private static final int WARMUP_ROUNDS = 3;

  private JournalAppendPaired() {}

  public static void main(String[] args) throws IOException {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    long sliceNanos = (args.length > 1 ? Long.parseLong(args[1]) : 1000) * 1_000_000L;
    String directory = args.length > 2 ? args[2] : "target/journal-benchmark";
    Clock clock = Clock.SYSTEM;

    JournalAppendBenchmark benchmark = new JournalAppendBenchmark();
    JournalAppendBenchmark.JournalState journal = new JournalAppendBenchmark.JournalState();
    JournalAppendBenchmark.PlainFileState growing = new JournalAppendBenchmark.PlainFileState();
    JournalAppendBenchmark.PlainFileState preallocated =
        new JournalAppendBenchmark.PlainFileState();
    for (JournalAppendBenchmark.Files0 state : List.of(journal, growing, preallocated)) {
      state.directory = directory;
      state.segmentSizeBytes = 128 * 1024 * 1024;
    }
    growing.preallocate = false;
    preallocated.preallocate = true;
    journal.setUp();
    growing.setUp();
    preallocated.setUp();

    List<Slice> contenders =
        List.of(
            () -> benchmark.journal(journal),
            () -> benchmark.baseline(growing),
            () -> benchmark.baseline(preallocated));
    List<double[]> results = new ArrayList<>();
    try {
      for (int round = 0; round < WARMUP_ROUNDS + rounds; round++) {
        double[] recordsPerSecond = new double[contenders.size()];
        for (int k = 0; k < contenders.size(); k++) {
          int contender = (round + k) % contenders.size();
          recordsPerSecond[contender] = run(contenders.get(contender), sliceNanos, clock);
        }
        if (round >= WARMUP_ROUNDS) {
          results.add(recordsPerSecond);
          System.out.printf(
              Locale.ROOT,
              "round %2d: journal %,9.0f  baseline %,9.0f  preallocated baseline %,9.0f"
                  + "  ratio %.2f / %.2f records/s%n",
              round - WARMUP_ROUNDS + 1,
              recordsPerSecond[0],
              recordsPerSecond[1],
              recordsPerSecond[2],
              recordsPerSecond[0] / recordsPerSecond[1],
              recordsPerSecond[0] / recordsPerSecond[2]);
        }
      }
    } finally {
      journal.tearDown();
      growing.tearDown();
      preallocated.tearDown();
    }

    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "1 KiB records, fsync every %d records, %d rounds of %d ms slices (medians)%n",
        JournalAppendBenchmark.BATCH,
        rounds,
        sliceNanos / 1_000_000);
    String[] names = {"journal", "baseline (growing file)", "baseline (preallocated file)"};
    for (int k = 0; k < names.length; k++) {
      int contender = k;
      double median = median(results.stream().mapToDouble(r -> r[contender]).toArray());
      System.out.printf(
          Locale.ROOT,
          "%-29s %,9.0f records/s %7.1f MB/s of record data%n",
          names[k],
          median,
          median * JournalAppendBenchmark.RECORD_BYTES / 1_000_000.0);
    }
    System.out.printf(
        Locale.ROOT,
        "median ratio journal/baseline: %.2f (goal >= %.2f), journal/preallocated baseline: %.2f%n",
        median(results.stream().mapToDouble(r -> r[0] / r[1]).toArray()),
        JournalAppendRatio.GOAL,
        median(results.stream().mapToDouble(r -> r[0] / r[2]).toArray()));
  }

  /** Runs whole batches until the slice is over; returns records per second. */
  private static double run(Slice slice, long sliceNanos, Clock clock) throws IOException {
    long start = clock.monotonicTime();
    long batches = 0;
    long elapsed;
    do {
      slice.batch();
      batches++;
      elapsed = clock.monotonicTime() - start;
    } while (elapsed < sliceNanos);
    return batches * JournalAppendBenchmark.BATCH * 1e9 / elapsed;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  @FunctionalInterface
  private interface Slice {
    long batch() throws IOException;
  }
}
