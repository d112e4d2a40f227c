package io.cairn.exporter;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;

/**
 * What an {@link Exporter} gets when it opens.
 *
 * @param exporterId the exporter's id in the broker configuration ({@code exporters[].id})
 * @param partitionId the partition whose records it exports
 * @param configuration its {@code args}, as text; names are case-insensitive (an argument set by
 *     environment variable arrives lower-cased), nested maps arrive as dotted names
 * @param logger a logger named for the exporter
 * @param meterRegistry where it may register meters ({@code cairn.exporter.<id-free name>}, tags
 *     {@code partition} and {@code node} only); it removes them when it closes
 * @param controller acknowledges positions and schedules tasks
 */
public record ExporterContext(
    String exporterId,
    int partitionId,
    Map<String, String> configuration,
    Logger logger,
    MeterRegistry meterRegistry,
    ExporterController controller) {

  public ExporterContext {
    Objects.requireNonNull(exporterId, "exporterId");
    Objects.requireNonNull(logger, "logger");
    Objects.requireNonNull(meterRegistry, "meterRegistry");
    Objects.requireNonNull(controller, "controller");
    Map<String, String> args = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    args.putAll(configuration);
    configuration = Collections.unmodifiableMap(args);
  }

  /** The argument {@code name} (case-insensitive), if set. */
  public Optional<String> argument(String name) {
    return Optional.ofNullable(configuration.get(name));
  }
}
