package io.cairn.broker.exporting;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The meters of one partition's exporter director, removed when it closes (a partition may lead
 * again later, or move away). Tags: {@code partition}, {@code node}.
 *
 * <ul>
 *   <li>{@value #POSITION} (gauge): the lowest position the partition's exporters acknowledged; -1
 *       when one has none.
 *   <li>{@value #LAG} (gauge): committed positions not acknowledged by every exporter (commit
 *       position minus the lowest acknowledged one).
 *   <li>{@value #RECORDS} (counter): records handed to the exporters.
 *   <li>{@value #FAILURES} (counter): failed opens and exports (each retried).
 * </ul>
 *
 * And one per broker, {@link ExportingState#registerGauge}: {@value #PAUSED} (gauge, tag {@code
 * node}).
 */
public final class ExporterMetrics implements AutoCloseable {

  /** Gauge; tags partition, node: lowest position acknowledged by every exporter (-1: none). */
  public static final String POSITION = "cairn.broker.exporter.position";

  /** Gauge; tags partition, node: committed positions not yet acknowledged by every exporter. */
  public static final String LAG = "cairn.broker.exporter.lag";

  /** Counter; tags partition, node: records handed to the partition's exporters. */
  public static final String RECORDS = "cairn.broker.exporter.records";

  /** Counter; tags partition, node: failed exporter opens and exports (each retried). */
  public static final String FAILURES = "cairn.broker.exporter.failures";

  /** Gauge; tag node: 1 while exporting is paused on this broker, else 0. */
  public static final String PAUSED = "cairn.broker.exporting.paused";

  private final MeterRegistry registry;
  private final Counter records;
  private final Counter failures;
  private final List<Meter> meters;

  ExporterMetrics(
      MeterRegistry registry,
      int partitionId,
      int nodeId,
      LongSupplier lowestAcknowledged,
      LongSupplier commitPosition) {
    this.registry = registry;
    Tags tags =
        Tags.of("partition", Integer.toString(partitionId), "node", Integer.toString(nodeId));
    Gauge position =
        Gauge.builder(POSITION, lowestAcknowledged::getAsLong)
            .description("Lowest position acknowledged by every exporter of the partition")
            .tags(tags)
            .register(registry);
    Gauge lag =
        Gauge.builder(
                LAG,
                () -> {
                  long acknowledged = lowestAcknowledged.getAsLong();
                  return Math.max(0, commitPosition.getAsLong() - Math.max(0, acknowledged));
                })
            .description("Committed positions not yet acknowledged by every exporter")
            .tags(tags)
            .register(registry);
    records =
        Counter.builder(RECORDS)
            .description("Records handed to the partition's exporters")
            .tags(tags)
            .register(registry);
    failures =
        Counter.builder(FAILURES)
            .description("Failed exporter opens and exports (each is retried with backoff)")
            .tags(tags)
            .register(registry);
    meters = List.of(position, lag, records, failures);
  }

  void exported(int count) {
    records.increment(count);
  }

  void failed() {
    failures.increment();
  }

  @Override
  public void close() {
    meters.forEach(registry::remove);
  }
}
