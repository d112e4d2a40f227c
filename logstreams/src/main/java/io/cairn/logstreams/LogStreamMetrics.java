package io.cairn.logstreams;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The meters of one partition's log stream; every meter has the tag {@code partition}.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 *   <tr><td>{@value #APPENDS}</td><td>counter</td><td>result = written | backpressure |
 *       not_leader | too_large</td><td>outcomes of {@link LogStreamWriter#tryWrite}</td></tr>
 *   <tr><td>{@value #RECORDS_WRITTEN}</td><td>counter</td><td></td>
 *       <td>records in written batches</td></tr>
 *   <tr><td>{@value #APPENDS_IN_FLIGHT}</td><td>gauge</td><td></td>
 *       <td>batches written and not committed yet</td></tr>
 *   <tr><td>{@value #COMMIT_POSITION}</td><td>gauge</td><td></td>
 *       <td>position of the last committed record</td></tr>
 * </table>
 */
public final class LogStreamMetrics implements AutoCloseable {

  /** Counter; tags partition, result: outcomes of writes to the log. */
  public static final String APPENDS = "cairn.logstreams.appends";

  /** Counter; tag partition: records in batches written to the log. */
  public static final String RECORDS_WRITTEN = "cairn.logstreams.records.written";

  /** Gauge; tag partition: batches written and not committed yet. */
  public static final String APPENDS_IN_FLIGHT = "cairn.logstreams.appends.inflight";

  /** Gauge; tag partition: position of the last committed record. */
  public static final String COMMIT_POSITION = "cairn.logstreams.commit.position";

  private final MeterRegistry registry;
  private final List<Meter> meters = new ArrayList<>();
  private final Counter written;
  private final Counter backpressure;
  private final Counter notLeader;
  private final Counter tooLarge;
  private final Counter recordsWritten;
  private final AtomicLong inFlight = new AtomicLong();
  private final AtomicLong commitPosition = new AtomicLong(LogStream.NO_POSITION);

  public LogStreamMetrics(MeterRegistry registry, int partitionId) {
    this.registry = registry;
    Tags tags = Tags.of("partition", Integer.toString(partitionId));
    written = appends(tags, "written");
    backpressure = appends(tags, "backpressure");
    notLeader = appends(tags, "not_leader");
    tooLarge = appends(tags, "too_large");
    recordsWritten =
        register(
            Counter.builder(RECORDS_WRITTEN)
                .description("Records in batches written to the log")
                .tags(tags)
                .register(registry));
    register(
        Gauge.builder(APPENDS_IN_FLIGHT, inFlight, AtomicLong::get)
            .description("Batches written and not committed yet")
            .tags(tags)
            .register(registry));
    register(
        Gauge.builder(COMMIT_POSITION, commitPosition, AtomicLong::get)
            .description("Position of the last committed record")
            .tags(tags)
            .register(registry));
  }

  /** Counts the outcome of one write of {@code recordCount} records. */
  public void onWrite(WriteResult result, int recordCount) {
    if (result instanceof WriteResult.Written) {
      written.increment();
      recordsWritten.increment(recordCount);
    } else if (result instanceof WriteResult.Backpressure) {
      backpressure.increment();
    } else if (result instanceof WriteResult.NotLeader) {
      notLeader.increment();
    } else {
      tooLarge.increment();
    }
  }

  public void inFlightAppends(int count) {
    inFlight.set(count);
  }

  public void commitPosition(long position) {
    commitPosition.set(position);
  }

  /** Removes the meters from the registry. */
  @Override
  public void close() {
    meters.forEach(registry::remove);
    meters.clear();
  }

  private Counter appends(Tags tags, String result) {
    return register(
        Counter.builder(APPENDS)
            .description("Outcomes of writes to the log")
            .tags(tags.and("result", result))
            .register(registry));
  }

  private <M extends Meter> M register(M meter) {
    meters.add(meter);
    return meter;
  }
}
