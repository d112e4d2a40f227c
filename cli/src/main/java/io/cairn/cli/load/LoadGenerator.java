package io.cairn.cli.load;

import io.cairn.cli.CliException;
import io.cairn.cli.ExitCode;
import io.cairn.cli.Pause;
import io.cairn.client.Account;
import io.cairn.client.CairnClient;
import io.cairn.client.CairnClientException;
import io.cairn.client.ErrorCode;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.Futures;
import io.cairn.units.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Drives the ledger API: funds accounts, sends transfers at a fixed rate with a bounded number in
 * flight (asynchronous calls), and checks money conservation afterwards.
 *
 * <p>Rate: transfer {@code i} is due at {@code start + i / rate}; the sender parks until then and
 * waits for a free in-flight slot; it stops when the duration has passed (a cluster that cannot
 * keep up gets fewer transfers). Latency is measured from the due time, so a cluster that cannot
 * keep up shows it in the percentiles instead of hiding it (coordinated omission); service latency
 * from the moment each call was sent. Transfers are picked with a {@link SplittableRandom} seeded
 * from the settings.
 *
 * <p>The client sends a call answered with RESOURCE_EXHAUSTED again itself (its {@link
 * io.cairn.client.RetryPolicy}); the transfers it had to resend and its resends are counted apart
 * from the failures, from the client's counters (only transfers use the client meanwhile).
 *
 * <p>Funding is made exact: each account gets one deposit; a deposit that failed is retried only
 * after reading the balance shows it was not applied; afterwards every balance is read back and
 * their sum is the total the conservation check expects.
 *
 * <p>Its own cost: the CPU time of this process while the transfers run ({@code processCpuNanos},
 * every thread), reported per acknowledged transfer.
 */
public final class LoadGenerator {
  private static final int FUNDING_ATTEMPTS = 10;
  private static final Duration RETRY_PAUSE = Duration.ofMillis(200);
  private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(5);
  private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(2);
  private static final Duration SETTLE_POLL = Duration.ofMillis(500);
  private static final long LATENCY_MAX_MICROS = TimeUnit.HOURS.toMicros(1);

  private final CairnClient client;
  private final LoadSettings settings;
  private final Clock clock;
  private final Consumer<String> progress;
  private final LongSupplier processCpuNanos;

  /**
   * @throws IllegalArgumentException if {@code settings} has violations
   */
  public LoadGenerator(
      CairnClient client, LoadSettings settings, Clock clock, Consumer<String> progress) {
    this(client, settings, clock, progress, ProcessCpu::nanos);
  }

  /**
   * @param processCpuNanos CPU time of this process so far, or -1 where it is not known
   * @throws IllegalArgumentException if {@code settings} has violations
   */
  public LoadGenerator(
      CairnClient client,
      LoadSettings settings,
      Clock clock,
      Consumer<String> progress,
      LongSupplier processCpuNanos) {
    this.client = Objects.requireNonNull(client, "client");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.progress = Objects.requireNonNull(progress, "progress");
    this.processCpuNanos = Objects.requireNonNull(processCpuNanos, "processCpuNanos");
    List<String> violations = settings.violations();
    if (!violations.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", violations));
    }
  }

  /**
   * Creates the accounts (an existing one is fine) and deposits the initial balance into each, then
   * reads every balance back.
   *
   * @throws CliException (exit 3) if the cluster stays unavailable, (exit 1) if an account ends
   *     with another balance than one deposit
   */
  public LoadResults.Funding fund() {
    long started = clock.nanos();
    AtomicLong retries = new AtomicLong();
    int n = settings.accounts();
    progress.accept(
        "load: creating and funding "
            + n
            + " accounts ("
            + settings.accountId(0)
            + ".."
            + settings.accountId(n - 1)
            + ") with "
            + settings.initialBalance()
            + " each");
    retrying(
        "create account",
        n,
        i ->
            client
                .createAccountAsync(settings.accountId(i))
                .handle((created, error) -> accountCreated(error)),
        retries);
    retrying(
        "deposit",
        n,
        i ->
            client
                .depositAsync(settings.accountId(i), settings.initialBalance())
                .thenApply(deposited -> true)
                .exceptionallyCompose(error -> depositFailed(i, error)),
        retries);
    long[] balances = readBalances(retries);
    long total = 0;
    for (int i = 0; i < n; i++) {
      if (balances[i] != settings.initialBalance()) {
        throw new CliException(
            ExitCode.FAILED,
            "Expected account "
                + settings.accountId(i)
                + " to hold its deposit "
                + settings.initialBalance()
                + " after funding, but it holds "
                + balances[i]
                + ". Use a fresh --account-prefix.");
      }
      total += balances[i];
    }
    long elapsedMs = (clock.nanos() - started) / 1_000_000;
    progress.accept(
        "load: funded "
            + n
            + " accounts with "
            + total
            + " in total ("
            + Durations.formatRounded(Duration.ofMillis(elapsedMs))
            + ")");
    return new LoadResults.Funding(n, total, retries.get(), elapsedMs);
  }

  /**
   * Sends transfers for the configured duration (or until {@code stop} says so), then waits for
   * every answer.
   */
  public LoadResults.Transfers runTransfers(BooleanSupplier stop) {
    SplittableRandom random = new SplittableRandom(settings.seed());
    Semaphore slots = new Semaphore(settings.maxInFlight());
    Histogram latency = new ConcurrentHistogram(LATENCY_MAX_MICROS, 3);
    Histogram serviceLatency = new ConcurrentHistogram(LATENCY_MAX_MICROS, 3);
    LongAdder acknowledged = new LongAdder();
    LongAdder rejected = new LongAdder();
    LongAdder failed = new LongAdder();
    Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    AtomicLong lastAnswer = new AtomicLong();
    double nanosPerTransfer = 1e9 / settings.ratePerSecond();
    Retries retries = new Retries(client);
    long cpuAtStart = processCpuNanos.getAsLong();
    long start = clock.nanos();
    long end = start + settings.duration().toNanos();
    long nextProgress = start + PROGRESS_INTERVAL.toNanos();
    long sent = 0;
    progress.accept(
        "load: "
            + settings.ratePerSecond()
            + " transfers/s for "
            + Durations.formatRounded(settings.duration())
            + ", at most "
            + settings.maxInFlight()
            + " in flight, seed "
            + settings.seed());
    while (!stop.getAsBoolean()) {
      long due = start + (long) (sent * nanosPerTransfer);
      long now = clock.nanos();
      if (due - end >= 0 || now - end >= 0) {
        break; // the duration is wall-clock time: a cluster that cannot keep up gets fewer
      }
      if (now - nextProgress >= 0) {
        progress.accept(
            progressLine(now - start, sent, acknowledged, rejected, failed, retries, slots));
        nextProgress += PROGRESS_INTERVAL.toNanos();
      }
      if (due - now > 0) {
        LockSupport.parkNanos(Math.min(due - now, PROGRESS_INTERVAL.toNanos()));
        continue;
      }
      acquire(slots);
      long sentAt = clock.nanos();
      int from = random.nextInt(settings.accounts());
      int offset = 1 + random.nextInt(settings.accounts() - 1);
      int to = (from + offset) % settings.accounts();
      long amount = 1 + random.nextLong(settings.maxAmount());
      sent++;
      CompletableFuture<?> call;
      try {
        call = client.transferAsync(settings.accountId(from), settings.accountId(to), amount);
      } catch (RuntimeException e) {
        slots.release();
        count(e, rejected, failed, errors);
        continue;
      }
      call.whenComplete(
          (accepted, error) -> {
            long answered = clock.nanos();
            lastAnswer.accumulateAndGet(answered, Math::max);
            if (error == null) {
              acknowledged.increment();
              latency.recordValue(micros(answered - due));
              serviceLatency.recordValue(micros(answered - sentAt));
            } else {
              count(error, rejected, failed, errors);
            }
            slots.release();
          });
    }
    drain(slots);
    long cpuAtEnd = processCpuNanos.getAsLong();
    double cpuMs = cpuAtStart < 0 || cpuAtEnd < 0 ? -1 : (cpuAtEnd - cpuAtStart) / 1e6;
    long finished = Math.max(lastAnswer.get(), clock.nanos());
    long elapsedNanos = Math.max(1, finished - start);
    Map<String, Long> errorCounts = new TreeMap<>();
    errors.forEach((code, count) -> errorCounts.put(code, count.sum()));
    LoadResults.Transfers result =
        new LoadResults.Transfers(
            sent,
            acknowledged.sum(),
            rejected.sum(),
            failed.sum(),
            retries.calls(),
            retries.resends(),
            errorCounts,
            elapsedNanos / 1_000_000,
            acknowledged.sum() * 1e9 / elapsedNanos,
            latencyOf(latency),
            latencyOf(serviceLatency),
            cpuMs,
            cpuMs < 0 || acknowledged.sum() == 0 ? -1 : cpuMs / acknowledged.sum());
    progress.accept(
        progressLine(elapsedNanos, sent, acknowledged, rejected, failed, retries, slots));
    return result;
  }

  /**
   * Reads every balance until their sum is {@code expectedTotal} or the settle timeout passes
   * (cross-partition credits land shortly after their transfer is acknowledged).
   */
  public LoadResults.Conservation checkConservation(long expectedTotal) {
    long started = clock.nanos();
    long deadline = started + settings.settleTimeout().toNanos();
    int reads = 0;
    long actual;
    while (true) {
      long[] balances = readBalances(new AtomicLong());
      reads++;
      actual = 0;
      for (long balance : balances) {
        actual += balance;
      }
      if (actual == expectedTotal || clock.nanos() - deadline >= 0) {
        break;
      }
      progress.accept(
          "load: balances add up to "
              + actual
              + ", expected "
              + expectedTotal
              + "; waiting for credits in flight");
      Pause.of(SETTLE_POLL);
    }
    long elapsedMs = (clock.nanos() - started) / 1_000_000;
    boolean conserved = actual == expectedTotal;
    progress.accept(
        "load: money "
            + (conserved ? "conserved" : "NOT conserved")
            + ": sum of "
            + settings.accounts()
            + " balances "
            + actual
            + ", deposited "
            + expectedTotal);
    return new LoadResults.Conservation(expectedTotal, actual, conserved, reads, elapsedMs);
  }

  /** Funding, transfers for the configured duration, and the conservation check. */
  public LoadResults.Report run() {
    LoadResults.Funding funding = fund();
    LoadResults.Transfers transfers = runTransfers(() -> false);
    LoadResults.Conservation conservation = checkConservation(funding.total());
    return new LoadResults.Report(settings, funding, transfers, conservation);
  }

  // ---- funding helpers ------------------------------------------------------------------------

  private static boolean accountCreated(Throwable error) {
    if (error == null) {
      return true;
    }
    Throwable cause = Futures.unwrap(error);
    if (cause instanceof CairnClientException e && e.code() == ErrorCode.ALREADY_EXISTS) {
      return true; // created by an earlier attempt whose answer was lost
    }
    throw new CompletionException(cause);
  }

  /** After a failed deposit: applied after all (balance = deposit), or send it again. */
  private CompletableFuture<Boolean> depositFailed(int index, Throwable error) {
    Throwable cause = Futures.unwrap(error);
    if (!retryable(cause)) {
      return CompletableFuture.failedFuture(cause);
    }
    return client
        .getAccountAsync(settings.accountId(index))
        .thenApply(
            account -> {
              if (account.balance() == settings.initialBalance()) {
                return true;
              }
              if (account.balance() == 0) {
                throw new CompletionException(cause); // not applied: retried
              }
              throw new CompletionException(
                  new CliException(
                      ExitCode.FAILED,
                      "Expected account "
                          + account.accountId()
                          + " to hold 0 or "
                          + settings.initialBalance()
                          + " while funding, but it holds "
                          + account.balance()
                          + ". Use a fresh --account-prefix."));
            });
  }

  private long[] readBalances(AtomicLong retries) {
    int n = settings.accounts();
    long[] balances = new long[n];
    retrying(
        "read balance",
        n,
        i ->
            client
                .getAccountAsync(settings.accountId(i))
                .thenApply(
                    (Account account) -> {
                      balances[i] = account.balance();
                      return true;
                    }),
        retries);
    return balances;
  }

  /**
   * Runs {@code call(i)} for i in [0, n) with at most maxInFlight at once; calls failing with a
   * retryable code are repeated (up to {@value #FUNDING_ATTEMPTS} rounds).
   */
  private void retrying(
      String what, int n, IntFunction<CompletableFuture<Boolean>> call, AtomicLong retries) {
    List<Integer> pending = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      pending.add(i);
    }
    Throwable lastError = null;
    for (int attempt = 1; attempt <= FUNDING_ATTEMPTS && !pending.isEmpty(); attempt++) {
      if (attempt > 1) {
        retries.addAndGet(pending.size());
        Pause.of(RETRY_PAUSE.multipliedBy(attempt - 1));
      }
      AtomicReferenceArray<Throwable> failures = new AtomicReferenceArray<>(n);
      Semaphore slots = new Semaphore(settings.maxInFlight());
      for (int i : pending) {
        acquire(slots);
        CompletableFuture<Boolean> future;
        try {
          future = call.apply(i);
        } catch (RuntimeException e) {
          future = CompletableFuture.failedFuture(e);
        }
        future.whenComplete(
            (ok, error) -> {
              if (error != null) {
                failures.set(i, Futures.unwrap(error));
              }
              slots.release();
            });
      }
      drain(slots);
      List<Integer> again = new ArrayList<>();
      for (int i : pending) {
        Throwable failure = failures.get(i);
        if (failure == null) {
          continue;
        }
        if (failure instanceof CliException cli) {
          throw cli;
        }
        if (!retryable(failure)) {
          throw fatal(what, i, failure);
        }
        lastError = failure;
        again.add(i);
      }
      pending = again;
    }
    if (!pending.isEmpty()) {
      throw new CliException(
          ExitCode.UNAVAILABLE,
          "Expected every "
              + what
              + " to succeed within "
              + FUNDING_ATTEMPTS
              + " attempts, but "
              + pending.size()
              + " did not (last error: "
              + describe(lastError)
              + ")");
    }
  }

  private CliException fatal(String what, int index, Throwable failure) {
    int code = failure instanceof CairnClientException e ? ExitCode.of(e.code()) : ExitCode.FAILED;
    return new CliException(
        code,
        "Expected "
            + what
            + " of "
            + settings.accountId(index)
            + " to succeed, but it failed: "
            + describe(failure),
        failure);
  }

  private static boolean retryable(Throwable failure) {
    return failure instanceof CairnClientException e
        && (e.code() == ErrorCode.UNAVAILABLE
            || e.code() == ErrorCode.DEADLINE_EXCEEDED
            || e.code() == ErrorCode.RESOURCE_EXHAUSTED);
  }

  // ---- shared ---------------------------------------------------------------------------------

  private static void count(
      Throwable error, LongAdder rejected, LongAdder failed, Map<String, LongAdder> errors) {
    Throwable cause = Futures.unwrap(error);
    String code =
        cause instanceof CairnClientException e
            ? e.code().name()
            : cause.getClass().getSimpleName();
    if (cause instanceof CairnClientException e
        && (e.code() == ErrorCode.FAILED_PRECONDITION || e.code() == ErrorCode.NOT_FOUND)) {
      rejected.increment();
    } else {
      failed.increment();
    }
    errors.computeIfAbsent(code, c -> new LongAdder()).increment();
  }

  private String progressLine(
      long elapsedNanos,
      long sent,
      LongAdder acknowledged,
      LongAdder rejected,
      LongAdder failed,
      Retries retries,
      Semaphore slots) {
    double seconds = elapsedNanos / 1e9;
    return String.format(
        java.util.Locale.ROOT,
        "load %5.1fs: %d sent, %d acknowledged, %d rejected, %d failed, %d retried (%d retries),"
            + " %d in flight, %.0f/s",
        seconds,
        sent,
        acknowledged.sum(),
        rejected.sum(),
        failed.sum(),
        retries.calls(),
        retries.resends(),
        settings.maxInFlight() - slots.availablePermits(),
        seconds > 0 ? acknowledged.sum() / seconds : 0.0);
  }

  /** The client's retry counters since this was made. */
  private static final class Retries {
    private final CairnClient client;
    private final long callsBefore;
    private final long resendsBefore;

    Retries(CairnClient client) {
      this.client = client;
      this.callsBefore = client.callsRetriedOnResourceExhausted();
      this.resendsBefore = client.retriesOnResourceExhausted();
    }

    long calls() {
      return client.callsRetriedOnResourceExhausted() - callsBefore;
    }

    long resends() {
      return client.retriesOnResourceExhausted() - resendsBefore;
    }
  }

  private static long micros(long nanos) {
    return Math.min(LATENCY_MAX_MICROS, Math.max(0, nanos / 1_000));
  }

  private static LoadResults.Latency latencyOf(Histogram histogram) {
    if (histogram.getTotalCount() == 0) {
      return new LoadResults.Latency(0, 0, 0, 0, 0);
    }
    return new LoadResults.Latency(
        histogram.getValueAtPercentile(50) / 1000.0,
        histogram.getValueAtPercentile(90) / 1000.0,
        histogram.getValueAtPercentile(99) / 1000.0,
        histogram.getMaxValue() / 1000.0,
        histogram.getTotalCount());
  }

  private static void acquire(Semaphore slots) {
    try {
      slots.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(ExitCode.FAILED, "Interrupted", e);
    }
  }

  /** Waits until every in-flight call answered (all permits back). */
  private void drain(Semaphore slots) {
    try {
      if (!slots.tryAcquire(
          settings.maxInFlight(), DRAIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new CliException(
            ExitCode.UNAVAILABLE,
            "Expected every call in flight to be answered within "
                + Durations.formatRounded(DRAIN_TIMEOUT)
                + ", but "
                + (settings.maxInFlight() - slots.availablePermits())
                + " were not");
      }
      slots.release(settings.maxInFlight());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(ExitCode.FAILED, "Interrupted", e);
    }
  }

  private static String describe(Throwable failure) {
    if (failure == null) {
      return "none";
    }
    return failure instanceof CairnClientException e
        ? e.code() + ": " + e.getMessage()
        : failure.toString();
  }
}
