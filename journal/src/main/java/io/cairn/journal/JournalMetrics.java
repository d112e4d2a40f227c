package io.cairn.journal;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The meters of one journal, registered in the injected {@link MeterRegistry} and removed from it
 * on close. Durations use the registry's clock ({@link Timer#start(MeterRegistry)}).
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>{@value #APPEND}</td><td>timer</td><td>time to frame and write one record (both
 *       append methods), without fsync</td></tr>
 *   <tr><td>{@value #FLUSH}</td><td>timer</td><td>time of one {@link Journal#flush()}, fsync
 *       included</td></tr>
 *   <tr><td>{@value #SEGMENTS}</td><td>gauge</td><td>number of segment files</td></tr>
 *   <tr><td>{@value #BYTES}</td><td>gauge (bytes)</td><td>committed bytes of all segments:
 *       descriptors and records, without preallocated space</td></tr>
 *   <tr><td>{@value #READERS}</td><td>gauge</td><td>readers opened and not yet closed: grows only
 *       when a reader is leaked</td></tr>
 * </table>
 *
 * <p>No tags: a registry holds the meters of one open journal per name; several journals in one
 * process (partitions) use one registry each, or a registry with common tags such as {@code
 * partition}.
 */
public final class JournalMetrics implements AutoCloseable {

  /** Timer; no tags of its own: time to frame and write one record, without fsync. */
  public static final String APPEND = "cairn.journal.append";

  /** Timer; no tags of its own: time of one {@link Journal#flush()}, fsync included. */
  public static final String FLUSH = "cairn.journal.flush";

  /** Gauge; no tags of its own: number of segment files. */
  public static final String SEGMENTS = "cairn.journal.segments";

  /** Gauge, bytes; no tags of its own: committed bytes of all segments, no preallocation. */
  public static final String BYTES = "cairn.journal.bytes";

  /** Gauge; no tags of its own: readers opened and not yet closed. */
  public static final String READERS = "cairn.journal.readers";

  private final MeterRegistry registry;
  private final Timer append;
  private final Timer flush;
  private final List<Meter> meters;

  <T> JournalMetrics(
      MeterRegistry registry,
      T journal,
      ToDoubleFunction<T> segmentCount,
      ToDoubleFunction<T> committedBytes,
      ToDoubleFunction<T> openReaders) {
    this.registry = registry;
    this.append =
        Timer.builder(APPEND)
            .description("Time to frame and write one record, without fsync")
            .register(registry);
    this.flush =
        Timer.builder(FLUSH).description("Time of one flush, fsync included").register(registry);
    Gauge segments =
        Gauge.builder(SEGMENTS, journal, segmentCount)
            .description("Number of segment files")
            .register(registry);
    Gauge bytes =
        Gauge.builder(BYTES, journal, committedBytes)
            .description("Committed bytes of all segments")
            .baseUnit("bytes")
            .register(registry);
    Gauge readers =
        Gauge.builder(READERS, journal, openReaders)
            .description("Readers opened and not yet closed")
            .register(registry);
    this.meters = List.of(append, flush, segments, bytes, readers);
  }

  MeterRegistry registry() {
    return registry;
  }

  Timer.Sample start() {
    return Timer.start(registry);
  }

  void stopAppend(Timer.Sample sample) {
    sample.stop(append);
  }

  void stopFlush(Timer.Sample sample) {
    sample.stop(flush);
  }

  @Override
  public void close() {
    for (Meter meter : meters) {
      registry.remove(meter);
    }
  }
}
