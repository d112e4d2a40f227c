package io.cairn.exporter.jsonl;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The meters of the JSON-lines exporter, the only ones of this module:
 *
 * <ul>
 *   <li>{@value #WRITTEN_BYTES} (counter, bytes; tag {@code partition}): bytes of JSON lines
 *       written; registered when the exporter opens and removed when it closes.
 * </ul>
 */
public final class JsonLinesExporterMetrics {

  /** Counter, bytes; tag partition: bytes of JSON lines written by the JSON-lines exporter. */
  public static final String WRITTEN_BYTES = "cairn.exporter.jsonl.written.bytes";

  private JsonLinesExporterMetrics() {}

  /** Registers (or finds) the {@value #WRITTEN_BYTES} counter of {@code partitionId}. */
  static Counter writtenBytes(MeterRegistry registry, int partitionId) {
    return Counter.builder(WRITTEN_BYTES)
        .description("Bytes of JSON lines written by the JSON-lines exporter")
        .baseUnit("bytes")
        .tag("partition", Integer.toString(partitionId))
        .register(registry);
  }
}
