package io.cairn.benchmarks;

import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backups3.S3BackupStoreMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/** What {@link S3BackupBenchmark} measures, and its printed rounds, tables and summary. */
final class S3BenchmarkReport {

  /** The share of the bytes after which a step's rate is split into head and tail. */
  static final double HEAD_SHARE = 0.3;

  private S3BenchmarkReport() {}

  /**
   * One step: its wall time, the CPU time the client (this JVM) and the server used in it, when the
   * first {@link #HEAD_SHARE} of its bytes had moved (NaN when not followed), and the time of a
   * {@code sync} right after it (not part of the step: what writing its data back still costs).
   */
  record Sample(
      long totalBytes,
      double seconds,
      double clientCpuSeconds,
      double serverCpuSeconds,
      double headSeconds,
      double syncAfterSeconds) {
    String format() {
      String rates =
          Double.isNaN(headSeconds)
              ? ""
              : String.format(
                  Locale.ROOT,
                  "; first %.0f%% of the bytes at %.0f MB/s, the rest at %.0f MB/s",
                  HEAD_SHARE * 100,
                  headRate(),
                  tailRate());
      return String.format(
          Locale.ROOT,
          "%.2f s (cpu client %.1f s, server %.1f s%s; sync after" + " %.2f s)",
          seconds,
          clientCpuSeconds,
          serverCpuSeconds,
          rates,
          syncAfterSeconds);
    }

    double headRate() {
      return HEAD_SHARE * totalBytes / 1e6 / headSeconds;
    }

    double tailRate() {
      return (1 - HEAD_SHARE) * totalBytes / 1e6 / (seconds - headSeconds);
    }
  }

  /**
   * One round of the upload and download comparison, with the mean number of content requests
   * started and not yet answered (summed request durations / wall time) during the save (its
   * PutObject and UploadPart requests; at most {@code concurrency}), the plain upload (the same
   * requests, counting those still waiting for one of its {@code concurrency} connections) and the
   * restore (its GETs).
   */
  record Round(
      boolean storeFirst,
      Sample save,
      Sample upload,
      Sample restore,
      Sample download,
      double saveInFlight,
      double uploadInFlight,
      double restoreInFlight) {}

  /** One incremental backup. */
  record Incremental(
      S3BenchmarkFiles.Churn churn,
      BackupSaveResult result,
      long uploadedBytes,
      long copiedBytes,
      Sample sample) {}

  static void printRound(int number, Round round) {
    System.out.printf(
        Locale.ROOT,
        "round %d (%s first)%n  save           %s%n  plain upload   %s%n  ratio %.3f; upload"
            + " requests started and unanswered, mean: save %.1f, plain %.1f (queued for a"
            + " connection included)%n"
            + "  restore        %s%n  plain download %s%n  ratio %.3f; GETs in flight during the"
            + " restore, mean: %.1f%n",
        number,
        round.storeFirst() ? "store" : "plain",
        round.save().format(),
        round.upload().format(),
        round.save().seconds() / round.upload().seconds(),
        round.saveInFlight(),
        round.uploadInFlight(),
        round.restore().format(),
        round.download().format(),
        round.restore().seconds() / round.download().seconds(),
        round.restoreInFlight());
  }

  static void summarize(
      long totalBytes, List<Round> rounds, List<Incremental> incrementals, MeterRegistry registry) {
    double megabytes = totalBytes / 1e6;
    System.out.println();
    System.out.println(
        "| round | first | save s | plain upload s | save / upload | restore s"
            + " | plain download s | restore / download |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    for (int r = 0; r < rounds.size(); r++) {
      Round round = rounds.get(r);
      System.out.printf(
          Locale.ROOT,
          "| %d | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |%n",
          r + 1,
          round.storeFirst() ? "store" : "plain",
          round.save().seconds(),
          round.upload().seconds(),
          round.save().seconds() / round.upload().seconds(),
          round.restore().seconds(),
          round.download().seconds(),
          round.restore().seconds() / round.download().seconds());
    }
    double save = median(rounds.stream().map(x -> x.save().seconds()).toList());
    double upload = median(rounds.stream().map(x -> x.upload().seconds()).toList());
    double restore = median(rounds.stream().map(x -> x.restore().seconds()).toList());
    double download = median(rounds.stream().map(x -> x.download().seconds()).toList());
    double saveRatio =
        median(rounds.stream().map(x -> x.save().seconds() / x.upload().seconds()).toList());
    double restoreRatio =
        median(rounds.stream().map(x -> x.restore().seconds() / x.download().seconds()).toList());
    System.out.printf(
        Locale.ROOT,
        "| median | | %.2f (%.0f MB/s) | %.2f (%.0f MB/s) | **%.2f** | %.2f (%.0f MB/s) |"
            + " %.2f (%.0f MB/s) | **%.2f** |%n",
        save,
        megabytes / save,
        upload,
        megabytes / upload,
        saveRatio,
        restore,
        megabytes / restore,
        download,
        megabytes / download,
        restoreRatio);
    System.out.printf(
        Locale.ROOT,
        "CPU, median (client + server s): save %.1f + %.1f, plain upload %.1f + %.1f, restore"
            + " %.1f + %.1f, plain download %.1f + %.1f%n",
        median(rounds.stream().map(x -> x.save().clientCpuSeconds()).toList()),
        median(rounds.stream().map(x -> x.save().serverCpuSeconds()).toList()),
        median(rounds.stream().map(x -> x.upload().clientCpuSeconds()).toList()),
        median(rounds.stream().map(x -> x.upload().serverCpuSeconds()).toList()),
        median(rounds.stream().map(x -> x.restore().clientCpuSeconds()).toList()),
        median(rounds.stream().map(x -> x.restore().serverCpuSeconds()).toList()),
        median(rounds.stream().map(x -> x.download().clientCpuSeconds()).toList()),
        median(rounds.stream().map(x -> x.download().serverCpuSeconds()).toList()));
    System.out.printf(
        Locale.ROOT,
        "rate of the first %.0f%% / the rest, median MB/s: save %.0f / %.0f, plain upload %.0f /"
            + " %.0f, restore %.0f / %.0f, plain download %.0f / %.0f%n",
        HEAD_SHARE * 100,
        median(rounds.stream().map(x -> x.save().headRate()).toList()),
        median(rounds.stream().map(x -> x.save().tailRate()).toList()),
        median(rounds.stream().map(x -> x.upload().headRate()).toList()),
        median(rounds.stream().map(x -> x.upload().tailRate()).toList()),
        median(rounds.stream().map(x -> x.restore().headRate()).toList()),
        median(rounds.stream().map(x -> x.restore().tailRate()).toList()),
        median(rounds.stream().map(x -> x.download().headRate()).toList()),
        median(rounds.stream().map(x -> x.download().tailRate()).toList()));
    System.out.printf(
        Locale.ROOT,
        "sync right after, median s: save %.2f, plain upload %.2f, restore %.2f, plain download"
            + " %.2f%n",
        median(rounds.stream().map(x -> x.save().syncAfterSeconds()).toList()),
        median(rounds.stream().map(x -> x.upload().syncAfterSeconds()).toList()),
        median(rounds.stream().map(x -> x.restore().syncAfterSeconds()).toList()),
        median(rounds.stream().map(x -> x.download().syncAfterSeconds()).toList()));
    System.out.printf(
        Locale.ROOT,
        "requests started and unanswered, median: save %.1f, plain upload %.1f (queued for a"
            + " connection included), restore %.1f%n",
        median(rounds.stream().map(Round::saveInFlight).toList()),
        median(rounds.stream().map(Round::uploadInFlight).toList()),
        median(rounds.stream().map(Round::restoreInFlight).toList()));
    System.out.printf(
        Locale.ROOT,
        "goal save / upload <= 1.25: %s (median of paired ratios %.3f, ratio of medians %.3f)%n",
        saveRatio <= 1.25 ? "met" : "MISSED",
        saveRatio,
        save / upload);
    System.out.printf(
        Locale.ROOT,
        "goal restore / download <= 1.25: %s (median of paired ratios %.3f, ratio of medians"
            + " %.3f)%n",
        restoreRatio <= 1.25 ? "met" : "MISSED",
        restoreRatio,
        restore / download);
    if (!incrementals.isEmpty()) {
      System.out.println();
      System.out.println(
          "| incremental | changed bytes | uploaded: files, bytes | copied"
              + " server-side: files, bytes | uploaded / total | time s | time / full save |");
      System.out.println("|---|---|---|---|---|---|---|");
      for (int k = 0; k < incrementals.size(); k++) {
        Incremental inc = incrementals.get(k);
        long total = inc.result().copiedBytes() + inc.result().reusedBytes();
        System.out.printf(
            Locale.ROOT,
            "| %d | %,d (%.2f%%) | %d, %,d | %d, %,d | %.2f%% | %.2f | %.2f |%n",
            k + 1,
            inc.churn().changedBytes(),
            100.0 * inc.churn().changedBytes() / total,
            inc.result().copiedFileCount(),
            inc.uploadedBytes(),
            inc.result().reusedFileCount(),
            inc.copiedBytes(),
            100.0 * inc.uploadedBytes() / total,
            inc.sample().seconds(),
            inc.sample().seconds() / save);
      }
      System.out.printf(
          Locale.ROOT,
          "incremental time, median: %.2f s (%s)%n",
          median(incrementals.stream().map(i -> i.sample().seconds()).toList()),
          incrementals.stream().map(i -> i.sample().format()).toList());
    }
    System.out.println();
    System.out.println("S3 requests of the store over the whole run (count, mean ms):");
    Map<String, double[]> requests = new TreeMap<>();
    for (Timer timer : registry.find(S3BackupStoreMetrics.REQUESTS).timers()) {
      requests.merge(
          timer.getId().getTag("operation") + "/" + timer.getId().getTag("result"),
          new double[] {timer.count(), timer.totalTime(TimeUnit.MILLISECONDS)},
          (a, b) -> new double[] {a[0] + b[0], a[1] + b[1]});
    }
    requests.forEach(
        (name, v) ->
            System.out.printf(
                Locale.ROOT, "  %s: %.0f, %.1f ms%n", name, v[0], v[1] / Math.max(1, v[0])));
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
