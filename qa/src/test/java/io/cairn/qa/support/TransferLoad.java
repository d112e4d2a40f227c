package io.cairn.qa.support;

import static org.awaitility.Awaitility.await;

import io.cairn.client.CairnClient;
import io.cairn.client.CairnClientException;
import io.cairn.client.ErrorCode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Transfers between random pairs of accounts through the Java client: {@code concurrency} chains,
 * each sending its next transfer when the previous one was answered, until {@link #stop}. Pairs and
 * amounts come from a seeded generator (the seed is in {@link #toString()}; timing is not
 * reproducible, the choices are). Every outcome is kept for {@link LedgerOracle}.
 */
public final class TransferLoad {

  /** What the answer says about the transfer's effect. */
  public enum Kind {
    /** Accepted: the source was debited and the target will be credited exactly once. */
    ACKNOWLEDGED,
    /** Refused before anything was written (invalid, not found, no funds, backpressure). */
    REJECTED,
    /** Unknown: it may or may not have been applied (timeout, connection lost, unavailable). */
    UNCERTAIN
  }

  /** One answered transfer. */
  public record Outcome(String from, String to, long amount, Kind kind, ErrorCode code) {}

  private static final Set<ErrorCode> NO_EFFECT =
      EnumSet.of(
          ErrorCode.INVALID_ARGUMENT,
          ErrorCode.NOT_FOUND,
          ErrorCode.ALREADY_EXISTS,
          ErrorCode.FAILED_PRECONDITION,
          ErrorCode.RESOURCE_EXHAUSTED);

  private final CairnClient client;
  private final List<String> accounts;

  /** Targets when they differ from the sources; null: any other account of {@link #accounts}. */
  private final List<String> targets;

  private final long seed;
  private final SplittableRandom random;
  private final int concurrency;
  private final long maxAmount;
  private final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
  private final AtomicLong acknowledged = new AtomicLong();
  private final AtomicLong uncertain = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();
  private final AtomicInteger inFlight = new AtomicInteger();
  private volatile boolean running;

  /**
   * @param accounts at least two existing accounts
   * @param seed chooses the pairs and amounts
   * @param concurrency transfers in flight
   * @param maxAmount amounts are drawn from {@code [1, maxAmount]}
   */
  public TransferLoad(
      CairnClient client, List<String> accounts, long seed, int concurrency, long maxAmount) {
    this(client, accounts, null, seed, concurrency, maxAmount);
  }

  /**
   * Transfers from one of {@code sources} to one of {@code targets} (disjoint lists), for a load
   * directed at some accounts.
   */
  public static TransferLoad directed(
      CairnClient client,
      List<String> sources,
      List<String> targets,
      long seed,
      int concurrency,
      long maxAmount) {
    if (sources.isEmpty() || targets.isEmpty() || sources.stream().anyMatch(targets::contains)) {
      throw new IllegalArgumentException(
          "Expected disjoint, non-empty sources and targets, but were "
              + sources
              + " and "
              + targets);
    }
    return new TransferLoad(client, sources, List.copyOf(targets), seed, concurrency, maxAmount);
  }

  private TransferLoad(
      CairnClient client,
      List<String> accounts,
      List<String> targets,
      long seed,
      int concurrency,
      long maxAmount) {
    this.client = client;
    this.accounts = List.copyOf(accounts);
    this.targets = targets;
    this.seed = seed;
    this.random = new SplittableRandom(seed);
    this.concurrency = concurrency;
    this.maxAmount = maxAmount;
  }

  public void start() {
    running = true;
    for (int chain = 0; chain < concurrency; chain++) {
      next();
    }
  }

  private void next() {
    if (!running) {
      return;
    }
    String from;
    String to;
    long amount;
    synchronized (random) {
      int source = random.nextInt(accounts.size());
      from = accounts.get(source);
      if (targets == null) {
        int target = (source + 1 + random.nextInt(accounts.size() - 1)) % accounts.size();
        to = accounts.get(target);
      } else {
        to = targets.get(random.nextInt(targets.size()));
      }
      amount = 1 + random.nextLong(maxAmount);
    }
    inFlight.incrementAndGet();
    client
        .transferAsync(from, to, amount)
        .whenComplete(
            (accepted, error) -> {
              record(from, to, amount, error);
              // the chain's next transfer counts as in flight before this one stops counting:
              // stop() must never see zero while a chain is between two transfers
              try {
                next();
              } finally {
                inFlight.decrementAndGet();
              }
            });
  }

  private void record(String from, String to, long amount, Throwable e) {
    if (e == null) {
      acknowledged.incrementAndGet();
      outcomes.add(new Outcome(from, to, amount, Kind.ACKNOWLEDGED, null));
      return;
    }
    Throwable cause =
        e.getCause() != null && !(e instanceof CairnClientException) ? e.getCause() : e;
    ErrorCode code =
        cause instanceof CairnClientException failure ? failure.code() : ErrorCode.UNKNOWN;
    Kind kind = NO_EFFECT.contains(code) ? Kind.REJECTED : Kind.UNCERTAIN;
    (kind == Kind.REJECTED ? rejected : uncertain).incrementAndGet();
    outcomes.add(new Outcome(from, to, amount, kind, code));
  }

  /** Waits until at least {@code count} transfers were acknowledged since the start. */
  public void awaitAcknowledged(long count, Duration timeout) {
    await("at least " + count + " acknowledged transfers (" + this + ")")
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> acknowledged.get() >= count);
  }

  /** Stops sending and waits until every transfer in flight was answered. */
  public void stop(Duration timeout) {
    running = false;
    await("the transfers in flight to be answered (" + this + ")")
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> inFlight.get() == 0);
  }

  public long acknowledged() {
    return acknowledged.get();
  }

  public long uncertain() {
    return uncertain.get();
  }

  public long rejected() {
    return rejected.get();
  }

  public long seed() {
    return seed;
  }

  /** Every answered transfer so far. */
  public List<Outcome> outcomes() {
    return new ArrayList<>(outcomes);
  }

  @Override
  public String toString() {
    return "TransferLoad{seed "
        + seed
        + ", "
        + acknowledged.get()
        + " acknowledged, "
        + rejected.get()
        + " rejected, "
        + uncertain.get()
        + " uncertain, "
        + inFlight.get()
        + " in flight}";
  }
}
