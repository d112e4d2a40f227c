package io.cairn.benchmarks;

import java.util.Collection;
import java.util.Locale;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link JournalAppendBenchmark} (journal and baseline, in one run) and prints records/s, MB/s
 * of record data and the ratio journal / baseline. Accepts the usual JMH options, for example
 * {@code -wi 3 -w 2s -i 5 -r 2s -f 1}.
 */
public final class JournalAppendRatio {

  /** The goal: the journal keeps at least this share of the plain file's throughput. */
  public static final double GOAL = 0.8;

  private JournalAppendRatio() {}

  public static void main(String[] args) throws RunnerException, CommandLineOptionException {
    Options options =
        new OptionsBuilder()
            .parent(new CommandLineOptions(args))
            .include(JournalAppendBenchmark.class.getName() + "\\.")
            .build();
    Collection<RunResult> results = new Runner(options).run();
    Result<?> journal = null;
    Result<?> baseline = null;
    Result<?> preallocatedBaseline = null;
    for (RunResult result : results) {
      String label = result.getPrimaryResult().getLabel();
      if (label.equals("journal")) {
        journal = result.getPrimaryResult();
      } else if (label.equals("baseline")) {
        if (Boolean.parseBoolean(result.getParams().getParam("preallocate"))) {
          preallocatedBaseline = result.getPrimaryResult();
        } else {
          baseline = result.getPrimaryResult();
        }
      }
    }
    if (journal == null || baseline == null || preallocatedBaseline == null) {
      throw new IllegalStateException(
          "Expected results of the journal and both baselines, but got " + results.size());
    }
    System.out.println();
    System.out.println("1 KiB records, fsync every " + JournalAppendBenchmark.BATCH + " records");
    print("baseline (growing file)", baseline);
    print("baseline (preallocated file)", preallocatedBaseline);
    print("journal", journal);
    double ratio = journal.getScore() / baseline.getScore();
    System.out.printf(
        Locale.ROOT,
        "ratio journal/baseline: %.2f (goal >= %.2f: %s)%n",
        ratio,
        GOAL,
        ratio >= GOAL ? "met" : "NOT met");
    System.out.printf(
        Locale.ROOT,
        "ratio journal/preallocated baseline: %.2f%n",
        journal.getScore() / preallocatedBaseline.getScore());
  }

  private static void print(String name, Result<?> result) {
    double recordsPerSecond = result.getScore();
    System.out.printf(
        Locale.ROOT,
        "%-29s %,9.0f ± %,7.0f records/s %7.1f MB/s of record data%n",
        name,
        recordsPerSecond,
        result.getScoreError(),
        recordsPerSecond * JournalAppendBenchmark.RECORD_BYTES / 1_000_000.0);
  }
}
