package io.cairn.benchmarks;

import io.cairn.journal.Journal;
import io.cairn.journal.JournalMetrics;
import io.cairn.journal.SegmentedJournal;
import io.cairn.logstreams.raft.RaftLogStreamCluster;
import io.cairn.raft.AppendResult;
import io.cairn.raft.RaftConfig;
import io.cairn.raft.RaftEntryNotCommittedException;
import io.cairn.raft.RaftServer;
import io.cairn.raft.log.RaftEntry;
import io.cairn.raft.log.RaftEntryCodec;
import io.cairn.raft.log.RaftEntryType;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.ThreadPoolActorScheduler;
import io.cairn.transport.netty.NettyMessagingService;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * End-to-end commit throughput and latency of one raft group beside the single-node journal figure,
 * measured in the same run. The group is a threaded {@link RaftLogStreamCluster} without log
 * streams: three members in one JVM on loopback ({@link NettyMessagingService}), each with a real
 * {@link SegmentedJournal} (default configuration) in a fresh directory under {@code target/}, all
 * actors on one {@link ThreadPoolActorScheduler}, default {@link RaftConfig}.
 *
 * <ol>
 *   <li><b>warm-up</b>: one client thread keeps {@code window} appends of 1 KiB entries in flight
 *       at the leader; a slot frees when the entry's commit is observed. The leader's journal
 *       metrics ({@link JournalMetrics}: appends / flushes) give the entries per flush the leader
 *       makes under that load: the batch of the journal baseline.
 *   <li><b>alternating slices</b> (the measurement): raft as in the warm-up, then the journal
 *       baseline, and so on (the order flips every round). Raft: committed entries/s, MB/s of
 *       payload, and commit latency = from the {@link RaftServer#append} call to the completion of
 *       {@link RaftServer#whenCommitted} (on the leader's actor thread). Journal: a fresh journal
 *       of the same configuration, one thread appending the same encoded raft entries, {@code
 *       batch} of them, then one flush, as the leader does. Alternating compares both on the same
 *       disk conditions, which drift by several times within seconds on a shared machine.
 *   <li><b>window 1</b>: raft with one append in flight, the latency of an unloaded group.
 * </ol>
 *
 * <p>Usage: {@code RaftCommitBenchmark [key=value ...]} with keys {@code seconds} (20: raft time,
 * and again journal time), {@code sliceSeconds} (2), {@code latencySeconds} (10), {@code
 * warmupSeconds} (5), {@code window} (256), {@code threads} (2, actor scheduler workers) and {@code
 * directory} (target/raft-benchmark). Files are deleted at the end.
 */
public final class RaftCommitBenchmark {

  static final int MEMBERS = 3;
  static final int PAYLOAD_BYTES = 1024;
  private static final long STALL_TIMEOUT_SECONDS = 10;
  private static final Clock CLOCK = Clock.system();

  private final Settings settings;
  private final DirectBuffer payload;
  private final AtomicLong positions = new AtomicLong(1);

  private RaftCommitBenchmark(Settings settings) {
    this.settings = settings;
    byte[] bytes = new byte[PAYLOAD_BYTES];
    new SplittableRandom(42).nextBytes(bytes);
    this.payload = new UnsafeBuffer(bytes);
  }

  public static void main(String[] args) throws Exception {
    Settings settings = Settings.parse(args);
    Path base = Path.of(settings.directory);
    Files.createDirectories(base);
    Path run = Files.createTempDirectory(base, "run-");
    try {
      new RaftCommitBenchmark(settings).run(run);
    } finally {
      deleteRecursively(run);
    }
  }

  private void run(Path directory) throws Exception {
    System.out.printf(
        Locale.ROOT,
        "raft commit benchmark: %d members on loopback, %d B payload per entry, window %d,"
            + " %d actor threads; %d s warm-up, then %d s of raft and %d s of journal in"
            + " alternating %d s slices, then %d s with window 1%n",
        MEMBERS,
        PAYLOAD_BYTES,
        settings.window,
        settings.threads,
        settings.warmupSeconds,
        settings.seconds,
        settings.seconds,
        settings.sliceSeconds,
        settings.latencySeconds);
    long sliceMs = TimeUnit.SECONDS.toMillis(settings.sliceSeconds);
    int rounds =
        Math.max(1, (settings.seconds + settings.sliceSeconds - 1) / settings.sliceSeconds);
    Measured raft = Measured.empty();
    Measured journal = Measured.empty();
    double[] ratios = new double[rounds];
    Measured unloaded;
    int batch;
    double leaderEntriesPerFlush;
    double followerEntriesPerFlush;
    double leaderFlushMsMean;
    try (RaftLogStreamCluster cluster = cluster(directory.resolve("cluster"));
        JournalBaseline baseline = new JournalBaseline(directory.resolve("journal"))) {
      RaftServer leader = cluster.awaitLeader().raft;
      int leaderId = leader.localNodeId();
      System.out.printf(Locale.ROOT, "leader: member %d, term %d%n", leaderId, leader.term());

      FlushCounts beforeWarmup = FlushCounts.of(cluster);
      print("warm-up", drive(cluster, leader, settings.window, settings.warmupSeconds * 1000L));
      batch =
          (int)
              Math.max(
                  1,
                  Math.round(FlushCounts.of(cluster).entriesPerFlushSince(beforeWarmup, leaderId)));
      baseline.prepare(batch, payload);
      print("journal warm-up", baseline.slice(1000));

      FlushCounts before = FlushCounts.of(cluster);
      for (int round = 0; round < rounds; round++) {
        Measured raftSlice;
        Measured journalSlice;
        if (round % 2 == 0) {
          raftSlice = drive(cluster, leader, settings.window, sliceMs);
          journalSlice = baseline.slice(sliceMs);
        } else {
          journalSlice = baseline.slice(sliceMs);
          raftSlice = drive(cluster, leader, settings.window, sliceMs);
        }
        raft = raft.plus(raftSlice);
        journal = journal.plus(journalSlice);
        ratios[round] = raftSlice.entriesPerSecond() / journalSlice.entriesPerSecond();
        System.out.printf(
            Locale.ROOT,
            "round %2d: raft %,9.0f entries/s (p50 %6.2f ms, p99 %7.2f ms)"
                + "  journal %,9.0f entries/s  ratio %.2f%n",
            round + 1,
            raftSlice.entriesPerSecond(),
            raftSlice.percentileMs(50),
            raftSlice.percentileMs(99),
            journalSlice.entriesPerSecond(),
            ratios[round]);
      }
      FlushCounts after = FlushCounts.of(cluster);
      leaderEntriesPerFlush = after.entriesPerFlushSince(before, leaderId);
      leaderFlushMsMean = after.flushMsMeanSince(before, leaderId);
      followerEntriesPerFlush =
          Stream.of(0, 1, 2)
              .filter(id -> id != leaderId)
              .mapToDouble(id -> after.entriesPerFlushSince(before, id))
              .average()
              .orElse(Double.NaN);

      unloaded = drive(cluster, leader, 1, settings.latencySeconds * 1000L);
      print("window 1", unloaded);
    }

    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "raft, window %-4d %,9.0f entries/s %6.1f MB/s  commit latency p50 %6.2f ms  p99 %7.2f ms"
            + "  p99.9 %7.2f ms  max %7.2f ms  (%,d entries)%n",
        settings.window,
        raft.entriesPerSecond(),
        raft.megabytesPerSecond(),
        raft.percentileMs(50),
        raft.percentileMs(99),
        raft.percentileMs(99.9),
        raft.maxMs(),
        raft.entries());
    System.out.printf(
        Locale.ROOT,
        "raft, window 1    %,9.0f entries/s %6.1f MB/s  commit latency p50 %6.2f ms  p99 %7.2f ms"
            + "  p99.9 %7.2f ms  max %7.2f ms  (%,d entries)%n",
        unloaded.entriesPerSecond(),
        unloaded.megabytesPerSecond(),
        unloaded.percentileMs(50),
        unloaded.percentileMs(99),
        unloaded.percentileMs(99.9),
        unloaded.maxMs(),
        unloaded.entries());
    System.out.printf(
        Locale.ROOT,
        "  raft leader: %.1f entries per flush, mean flush %.2f ms; followers: %.1f entries per"
            + " flush%n",
        leaderEntriesPerFlush,
        leaderFlushMsMean,
        followerEntriesPerFlush);
    System.out.printf(
        Locale.ROOT,
        "journal, %3d/flush %,9.0f entries/s %6.1f MB/s  append+flush of a batch p50 %6.2f ms"
            + "  p99 %7.2f ms  (%,d entries)%n",
        batch,
        journal.entriesPerSecond(),
        journal.megabytesPerSecond(),
        journal.percentileMs(50),
        journal.percentileMs(99),
        journal.entries());
    System.out.printf(
        Locale.ROOT,
        "raft / journal: %.2f overall, median of %d paired slices %.2f%n",
        raft.entriesPerSecond() / journal.entriesPerSecond(),
        rounds,
        median(ratios));
  }

  private static void print(String name, Measured measured) {
    System.out.printf(
        Locale.ROOT,
        "%-15s %,9.0f entries/s  p50 %6.2f ms  p99 %7.2f ms%n",
        name,
        measured.entriesPerSecond(),
        measured.percentileMs(50),
        measured.percentileMs(99));
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  /**
   * The group as a broker would run one partition: netty on loopback, journals with the default
   * configuration (128 MiB preallocated segments), the default {@link RaftConfig}, every actor on
   * one thread pool; raft alone, without log streams. Closing deletes nothing.
   */
  private RaftLogStreamCluster cluster(Path directory) {
    return RaftLogStreamCluster.builder(directory)
        .members(MEMBERS)
        .threaded("raft-bench", settings.threads, CLOCK)
        .raftConfig(RaftConfig.defaults())
        .journal(UnaryOperator.identity())
        .withoutLogStreams()
        .seed(1000)
        .build();
  }

  /** Appends and flushes counted by each member's journal metrics, at one moment. */
  record FlushCounts(Map<Integer, long[]> byMember) {

    static FlushCounts of(RaftLogStreamCluster cluster) {
      Map<Integer, long[]> counts = new LinkedHashMap<>();
      for (RaftLogStreamCluster.Member member : cluster.members) {
        Timer appends = member.journalMeters.get(JournalMetrics.APPEND).timer();
        Timer flushes = member.journalMeters.get(JournalMetrics.FLUSH).timer();
        counts.put(
            member.id,
            new long[] {
              appends.count(), flushes.count(), (long) flushes.totalTime(TimeUnit.NANOSECONDS)
            });
      }
      return new FlushCounts(counts);
    }

    /** Journal appends per flush on {@code member} between {@code before} and this. */
    double entriesPerFlushSince(FlushCounts before, int member) {
      long appends = byMember.get(member)[0] - before.byMember.get(member)[0];
      long flushes = byMember.get(member)[1] - before.byMember.get(member)[1];
      return flushes == 0 ? Double.NaN : (double) appends / flushes;
    }

    /** Mean flush duration on {@code member} between {@code before} and this, in ms. */
    double flushMsMeanSince(FlushCounts before, int member) {
      long flushes = byMember.get(member)[1] - before.byMember.get(member)[1];
      long nanos = byMember.get(member)[2] - before.byMember.get(member)[2];
      return flushes == 0 ? Double.NaN : nanos / 1e6 / flushes;
    }
  }

  // ---- raft slices ---------------------------------------------------------------------------

  /**
   * Keeps {@code window} appends in flight at the leader for {@code durationMs}; counts the commits
   * observed in that time and records the latency of every append it made. Returns once all of them
   * committed, so the group is idle again.
   */
  private Measured drive(
      RaftLogStreamCluster cluster, RaftServer leader, int window, long durationMs)
      throws InterruptedException {
    Semaphore slots = new Semaphore(window);
    Recorder recorder = new Recorder(3);
    AtomicLong committed = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    long startNanos = CLOCK.nanos();
    long endNanos = startNanos + TimeUnit.MILLISECONDS.toNanos(durationMs);
    while (CLOCK.nanos() < endNanos) {
      if (!slots.tryAcquire(STALL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new IllegalStateException(
            "Expected a commit within "
                + STALL_TIMEOUT_SECONDS
                + " s, but none came; roles "
                + cluster.roles());
      }
      Throwable error = failure.get();
      if (error != null) {
        throw new IllegalStateException(
            "Expected every append to commit on member "
                + leader.localNodeId()
                + ", but one failed; roles now "
                + cluster.roles(),
            error);
      }
      long position = positions.getAndIncrement();
      long appendNanos = CLOCK.nanos();
      leader
          .append(position, position, payload)
          .thenCompose(commitOf(leader))
          .whenComplete(
              (index, appendError) -> {
                if (appendError != null) {
                  failure.compareAndSet(null, appendError);
                } else {
                  long now = CLOCK.nanos();
                  recorder.recordValue(now - appendNanos);
                  if (now <= endNanos) {
                    committed.incrementAndGet();
                  }
                }
                slots.release();
              });
    }
    long elapsedNanos = CLOCK.nanos() - startNanos;
    if (!slots.tryAcquire(window, STALL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      throw new IllegalStateException(
          "Expected the last appends to commit within "
              + STALL_TIMEOUT_SECONDS
              + " s; roles "
              + cluster.roles());
    }
    return new Measured(committed.get(), elapsedNanos, recorder.getIntervalHistogram());
  }

  private static Function<AppendResult, CompletableFuture<Long>> commitOf(RaftServer leader) {
    return result -> {
      if (result instanceof AppendResult.Appended appended) {
        return leader.whenCommitted(appended);
      }
      return CompletableFuture.failedFuture(
          new RaftEntryNotCommittedException("Expected to lead, but " + result));
    };
  }

  // ---- journal baseline ----------------------------------------------------------------------

  /**
   * The single-node figure: a journal of the same configuration, in which each batch appends the
   * same encoded raft entries (1 KiB payload) and then flushes once, as the raft leader does.
   */
  private static final class JournalBaseline implements AutoCloseable {
    private final Journal journal;
    private final List<DirectBuffer> entries = new ArrayList<>();
    private long position = 1;

    private JournalBaseline(Path directory) {
      journal =
          SegmentedJournal.open(
              RaftLogStreamCluster.journalConfig(directory, UnaryOperator.identity()),
              new SimpleMeterRegistry());
    }

    /** Sets the batch: {@code batch} entries of term 1 carrying {@code payload}. */
    void prepare(int batch, DirectBuffer payload) {
      for (int i = 0; i < batch; i++) {
        entries.add(
            RaftEntryCodec.encode(
                new RaftEntry(1, RaftEntryType.APPLICATION, i + 1L, i + 1L, payload)));
      }
    }

    /** Whole batches for {@code durationMs}; the histogram holds each batch's append+flush time. */
    Measured slice(long durationMs) {
      Histogram batches = new Histogram(3);
      long count = 0;
      long startNanos = CLOCK.nanos();
      long endNanos = startNanos + TimeUnit.MILLISECONDS.toNanos(durationMs);
      long now = startNanos;
      while (now < endNanos) {
        long batchStart = now;
        for (DirectBuffer entry : entries) {
          journal.append(position++, entry); // the asqn is the entry's position, as in raft
        }
        journal.flush();
        now = CLOCK.nanos();
        batches.recordValue(now - batchStart);
        count += entries.size();
      }
      return new Measured(count, now - startNanos, batches);
    }

    @Override
    public void close() {
      journal.close();
    }
  }

  // ---- results ---------------------------------------------------------------------------------

  /** Entries done in a time, and a histogram of latencies in nanoseconds. */
  private record Measured(long entries, long elapsedNanos, Histogram histogram) {

    static Measured empty() {
      return new Measured(0, 0, new Histogram(3));
    }

    Measured plus(Measured other) {
      Histogram sum = histogram.copy();
      sum.add(other.histogram);
      return new Measured(entries + other.entries, elapsedNanos + other.elapsedNanos, sum);
    }

    double entriesPerSecond() {
      return elapsedNanos == 0 ? 0 : entries * 1e9 / elapsedNanos;
    }

    double megabytesPerSecond() {
      return entriesPerSecond() * PAYLOAD_BYTES / 1e6;
    }

    double percentileMs(double percentile) {
      return histogram.getValueAtPercentile(percentile) / 1e6;
    }

    double maxMs() {
      return histogram.getMaxValue() / 1e6;
    }
  }

  // ---- settings --------------------------------------------------------------------------------

  private record Settings(
      int seconds,
      int sliceSeconds,
      int latencySeconds,
      int warmupSeconds,
      int window,
      int threads,
      String directory) {

    static Settings parse(String[] args) {
      Map<String, String> values = new LinkedHashMap<>();
      values.put("seconds", "20");
      values.put("sliceSeconds", "2");
      values.put("latencySeconds", "10");
      values.put("warmupSeconds", "5");
      values.put("window", "256");
      values.put("threads", "2");
      values.put("directory", "target/raft-benchmark");
      BenchmarkSettings.apply(values, args);
      return new Settings(
          positive(values, "seconds"),
          positive(values, "sliceSeconds"),
          positive(values, "latencySeconds"),
          positive(values, "warmupSeconds"),
          positive(values, "window"),
          positive(values, "threads"),
          values.get("directory"));
    }

    private static int positive(Map<String, String> values, String key) {
      int value = Integer.parseInt(values.get(key));
      if (value < 1) {
        throw new IllegalArgumentException(
            "Expected " + key + " >= 1, but was " + value + " (RaftCommitBenchmark)");
      }
      return value;
    }
  }

  private static void deleteRecursively(Path directory) {
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(RaftCommitBenchmark::delete);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void delete(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
