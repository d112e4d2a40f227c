package io.cairn.db;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The meters of one database. Tags given at open (typically {@code partition}) are added to every
 * meter. Time comes from the registry's clock.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 *   <tr><td>{@value #COMMIT_LATENCY}</td><td>timer</td><td></td>
 *       <td>time to write one transaction's batch (data and digest) to RocksDB</td></tr>
 *   <tr><td>{@value #TRANSACTIONS}</td><td>counter</td><td>result = committed | rolled_back |
 *       failed</td><td>finished transactions; read-only implicit ones are not counted</td></tr>
 *   <tr><td>{@value #WRITES}</td><td>counter</td><td>operation = put | delete</td>
 *       <td>writes of committed transactions (insert and update count as put)</td></tr>
 *   <tr><td>{@value #DIGEST_RECOMPUTE_LATENCY}</td><td>timer</td><td></td>
 *       <td>full scans that recompute the state digest</td></tr>
 * </table>
 *
 * <p>The incremental digest's own cost (a hash per write, plus a read for blind puts and deletes)
 * is not timed per write: two clock reads per write would cost about as much as the hash. Compare
 * runs with {@link DbConfig#digestMaintained()} on and off instead.
 */
public final class DbMetrics {

  /** Timer: time to write one transaction's batch (data and digest) to RocksDB. */
  public static final String COMMIT_LATENCY = "cairn.db.transaction.commit.latency";

  /** Counter; tag {@code result} = committed, rolled_back, failed: transactions. */
  public static final String TRANSACTIONS = "cairn.db.transactions";

  /** Counter; tag {@code operation} = put, delete: writes of committed transactions. */
  public static final String WRITES = "cairn.db.writes";

  /** Timer: full scans that recompute the state digest. */
  public static final String DIGEST_RECOMPUTE_LATENCY = "cairn.db.digest.recompute.latency";

  private final MeterRegistry registry;
  private final Timer commitLatency;
  private final Counter committed;
  private final Counter rolledBack;
  private final Counter failed;
  private final Counter puts;
  private final Counter deletes;
  private final Timer digestRecomputeLatency;

  public DbMetrics(MeterRegistry registry, Iterable<Tag> tags) {
    this.registry = registry;
    Tags base = Tags.of(tags);
    commitLatency =
        Timer.builder(COMMIT_LATENCY)
            .description("Time to write one transaction to RocksDB")
            .tags(base)
            .register(registry);
    committed = transactions(base, "committed");
    rolledBack = transactions(base, "rolled_back");
    failed = transactions(base, "failed");
    puts = writes(base, "put");
    deletes = writes(base, "delete");
    digestRecomputeLatency =
        Timer.builder(DIGEST_RECOMPUTE_LATENCY)
            .description("Full scans recomputing the state digest")
            .tags(base)
            .register(registry);
  }

  /** Starts timing a commit. */
  public Timer.Sample startTimer() {
    return Timer.start(registry);
  }

  /** A transaction was written. */
  public void committed(Timer.Sample sample, long putCount, long deleteCount) {
    sample.stop(commitLatency);
    committed.increment();
    puts.increment(putCount);
    deletes.increment(deleteCount);
  }

  /** A transaction's write failed. */
  public void commitFailed(Timer.Sample sample) {
    sample.stop(commitLatency);
    failed.increment();
  }

  public void rolledBack() {
    rolledBack.increment();
  }

  public void digestRecomputed(Timer.Sample sample) {
    sample.stop(digestRecomputeLatency);
  }

  private Counter transactions(Tags base, String result) {
    return Counter.builder(TRANSACTIONS)
        .description("Finished transactions")
        .tags(base.and("result", result))
        .register(registry);
  }

  private Counter writes(Tags base, String operation) {
    return Counter.builder(WRITES)
        .description("Writes of committed transactions")
        .tags(base.and("operation", operation))
        .register(registry);
  }
}
