package io.cairn.benchmarks;

import io.cairn.logstreams.LogStreamWriter;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RecordValue;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import io.cairn.scheduler.Clock;
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
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * End-to-end transfers on one ledger partition ({@link LedgerBenchmarkPartition}: 1 or 3 raft
 * members on loopback, real journals, RocksDB state with the state digest on or off).
 *
 * <p>One client thread keeps {@code window} {@code TRANSFER CREATE} commands in flight at the
 * leader's log (same-partition transfers between {@code accounts} funded accounts); a slot frees
 * when the leader's response arrives, which is after the command <em>and</em> its follow-up events
 * are committed. Reported: transfers answered per second and the latency from the client's write to
 * the response (HdrHistogram), measured after a warm-up, for every combination of members and
 * digest.
 *
 * <p>Usage: {@code LedgerTransferBenchmark [key=value ...]} with keys {@code members} (1,3), {@code
 * digest} (on,off), {@code warmupSeconds} (10), {@code seconds} (20), {@code window} (64), {@code
 * accounts} (1000), {@code threads} (2, actor scheduler workers) and {@code directory}
 * (target/ledger-benchmark). Files are deleted after each run.
 */
public final class LedgerTransferBenchmark {

  private static final Clock CLOCK = Clock.system();
  private static final int RING = 1 << 20;
  private static final long DRAIN_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);
  private static final long OPENING_DEPOSIT = 1_000_000_000L;

  private final Map<String, String> settings;
  private final long[] sentNanos = new long[RING];
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong answered = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();
  private final Recorder latencies = new Recorder(3);
  private volatile boolean measuring;
  private long nextRequestId = 1;

  private LedgerTransferBenchmark(Map<String, String> settings) {
    this.settings = settings;
  }

  /** One configuration's figures. */
  record Result(
      int members,
      boolean digest,
      double transfersPerSecond,
      double p50Ms,
      double p99Ms,
      double p999Ms,
      double maxMs,
      long rejected) {}

  public static void main(String[] args) throws Exception {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("members", "1,3");
    settings.put("digest", "on,off");
    settings.put("warmupSeconds", "10");
    settings.put("seconds", "20");
    settings.put("window", "64");
    settings.put("accounts", "1000");
    settings.put("threads", "2");
    settings.put("directory", "target/ledger-benchmark");
    BenchmarkSettings.apply(settings, args);
    List<Result> results = new ArrayList<>();
    for (String members : settings.get("members").split(",")) {
      for (String digest : settings.get("digest").split(",")) {
        Result result =
            new LedgerTransferBenchmark(settings)
                .run(Integer.parseInt(members.trim()), "on".equals(digest.trim()));
        System.out.println(result);
        results.add(result);
      }
    }
    System.out.println();
    System.out.println("| members | digest | transfers/s | p50 ms | p99 ms | p99.9 ms | max ms |");
    System.out.println("|---|---|---|---|---|---|---|");
    for (Result r : results) {
      System.out.printf(
          Locale.ROOT,
          "| %d | %s | %.0f | %.2f | %.2f | %.2f | %.1f |%n",
          r.members(),
          r.digest() ? "on" : "off",
          r.transfersPerSecond(),
          r.p50Ms(),
          r.p99Ms(),
          r.p999Ms(),
          r.maxMs());
    }
  }

  private Result run(int members, boolean digest) throws Exception {
    Path directory =
        Path.of(settings.get("directory"))
            .resolve("run-" + members + "-" + (digest ? "on" : "off"));
    deleteRecursively(directory);
    int window = Integer.parseInt(settings.get("window"));
    int accounts = Integer.parseInt(settings.get("accounts"));
    try (LedgerBenchmarkPartition partition =
        new LedgerBenchmarkPartition(
            directory, members, digest, Integer.parseInt(settings.get("threads")), CLOCK)) {
      partition.start(
          (streamId, requestId, response) -> {
            long latency = CLOCK.nanos() - sentNanos[(int) (requestId & (RING - 1))];
            if (measuring) {
              latencies.recordValue(Math.max(0, latency));
              answered.incrementAndGet();
              if (response.metadata().recordType() == RecordType.REJECTION) {
                rejected.incrementAndGet();
              }
            }
            inFlight.decrementAndGet();
          });
      LogStreamWriter writer = partition.leaderStream().writer();

      for (int i = 0; i < accounts; i++) {
        send(writer, window, AccountIntent.CREATE, new AccountValue(id(i), 0));
        send(writer, window, DepositIntent.DEPOSIT, new DepositValue(id(i), OPENING_DEPOSIT));
      }
      drain();

      SplittableRandom random = new SplittableRandom(42);
      load(
          writer,
          window,
          accounts,
          random,
          TimeUnit.SECONDS.toNanos(Long.parseLong(settings.get("warmupSeconds"))));
      latencies.reset();
      measuring = true;
      long start = CLOCK.nanos();
      load(
          writer,
          window,
          accounts,
          random,
          TimeUnit.SECONDS.toNanos(Long.parseLong(settings.get("seconds"))));
      long elapsed = CLOCK.nanos() - start;
      measuring = false;
      Histogram histogram = latencies.getIntervalHistogram();
      long count = answered.get();
      drain();
      return new Result(
          members,
          digest,
          count / (elapsed / 1e9),
          histogram.getValueAtPercentile(50) / 1e6,
          histogram.getValueAtPercentile(99) / 1e6,
          histogram.getValueAtPercentile(99.9) / 1e6,
          histogram.getMaxValue() / 1e6,
          rejected.get());
    } finally {
      deleteRecursively(directory);
    }
  }

  private void load(
      LogStreamWriter writer,
      int window,
      int accounts,
      SplittableRandom random,
      long durationNanos) {
    long end = CLOCK.nanos() + durationNanos;
    while (CLOCK.nanos() < end) {
      int from = random.nextInt(accounts);
      int to = random.nextInt(accounts - 1);
      if (to >= from) {
        to++;
      }
      send(
          writer,
          window,
          TransferIntent.CREATE,
          new TransferValue(
              id(from),
              id(to),
              1 + random.nextInt(100),
              ValueDescriptor.NO_PARTITION_ID,
              ValueDescriptor.NO_PARTITION_ID));
    }
  }

  /** Writes one command once a window slot is free, retrying on backpressure. */
  private void send(LogStreamWriter writer, int window, Intent intent, RecordValue value) {
    while (inFlight.get() >= window) {
      LockSupport.parkNanos(20_000);
    }
    long requestId = nextRequestId++;
    Record command =
        new Record(
            RecordMetadata.builder()
                .command(intent)
                .requestId(requestId)
                .requestStreamId(1)
                .build(),
            value);
    inFlight.incrementAndGet();
    sentNanos[(int) (requestId & (RING - 1))] = CLOCK.nanos();
    while (true) {
      WriteResult result = writer.tryWrite(command);
      if (result.isWritten()) {
        return;
      }
      if (!(result instanceof WriteResult.Backpressure)) {
        throw new IllegalStateException("Expected the leader to take the command, but " + result);
      }
      LockSupport.parkNanos(50_000);
    }
  }

  private void drain() {
    long deadline = CLOCK.nanos() + DRAIN_TIMEOUT_NANOS;
    while (inFlight.get() > 0) {
      if (CLOCK.nanos() > deadline) {
        throw new IllegalStateException(
            "Expected every command to be answered, but " + inFlight.get() + " are not");
      }
      LockSupport.parkNanos(1_000_000);
    }
  }

  private static String id(int account) {
    return "account-" + account;
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
