package io.cairn.broker.exporting;

import io.cairn.exporter.ExportedRecord;
import io.cairn.exporter.Exporter;
import io.cairn.exporter.ExporterContext;
import io.cairn.exporter.ExporterController;
import io.cairn.scheduler.Cancellable;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One exporter inside a partition's {@link ExporterDirector}: the instance, what it was handed
 * ({@link #exportedPosition()}, in memory) and what it acknowledged ({@link
 * #acknowledgedPosition()}, stored in the state by the director). It is the exporter's {@link
 * ExporterController}. Director thread only.
 */
final class ExporterContainer implements ExporterController {

  private static final Logger LOG = LoggerFactory.getLogger(ExporterContainer.class);

  private final ExporterDescriptor descriptor;
  private final int partitionId;
  private final ExporterDirector director;
  private final MeterRegistry registry;
  private final Logger exporterLogger;
  private final Set<Cancellable> tasks = new HashSet<>();
  private Exporter exporter;
  private long acknowledged;
  private long exported;
  private long handing = ExportedRecord.NO_POSITION;

  /**
   * @param acknowledged the position stored in the state, or {@link ExportedRecord#NO_POSITION}
   */
  ExporterContainer(
      ExporterDescriptor descriptor,
      int partitionId,
      long acknowledged,
      ExporterDirector director,
      MeterRegistry registry) {
    this.descriptor = descriptor;
    this.partitionId = partitionId;
    this.acknowledged = acknowledged;
    this.exported = acknowledged;
    this.director = director;
    this.registry = registry;
    this.exporterLogger = LoggerFactory.getLogger("io.cairn.exporter." + descriptor.id());
  }

  String id() {
    return descriptor.id();
  }

  boolean isOpen() {
    return exporter != null;
  }

  /**
   * Creates and opens a new instance. On failure the instance is closed again (the next attempt
   * makes a new one) and the exception is rethrown.
   */
  void open() throws Exception {
    Exporter created = descriptor.newExporter();
    try {
      created.open(
          new ExporterContext(
              descriptor.id(), partitionId, descriptor.args(), exporterLogger, registry, this));
    } catch (Exception | LinkageError e) {
      exporter = created; // so that close() sees it
      close();
      throw e;
    }
    exporter = created;
    LOG.debug(
        "Opened exporter '{}' ({}) of partition {} at position {}",
        descriptor.id(),
        descriptor.kind(),
        partitionId,
        acknowledged);
  }

  /** Whether the record is one this exporter has not been handed yet. */
  boolean wants(ExportedRecord record) {
    return record.position() > exported;
  }

  void export(ExportedRecord record) throws Exception {
    handing = record.position(); // the exporter may acknowledge the record it is handed
    try {
      exporter.export(record);
      exported = record.position();
    } finally {
      handing = ExportedRecord.NO_POSITION;
    }
  }

  long exportedPosition() {
    return exported;
  }

  long acknowledgedPosition() {
    return acknowledged;
  }

  /** Closes the instance, if one is open; never throws. */
  void close() {
    tasks.forEach(Cancellable::cancel);
    tasks.clear();
    Exporter closing = exporter;
    exporter = null;
    if (closing == null) {
      return;
    }
    try {
      closing.close();
    } catch (Exception | LinkageError e) {
      LOG.warn(
          "Exporter '{}' of partition {} failed to close; going on",
          descriptor.id(),
          partitionId,
          e);
    }
  }

  // ---- ExporterController ---------------------------------------------------------------------

  @Override
  public void updateLastExportedPosition(long position) {
    long capped = Math.min(position, Math.max(exported, handing));
    if (capped > acknowledged) {
      acknowledged = capped;
      director.positionsChanged();
    }
  }

  @Override
  public long lastExportedPosition() {
    return acknowledged;
  }

  @Override
  public ScheduledTask scheduleTask(Duration delay, Runnable task) {
    Cancellable[] handle = new Cancellable[1];
    handle[0] =
        director.scheduleForExporter(
            delay,
            () -> {
              tasks.remove(handle[0]);
              try {
                task.run();
              } catch (RuntimeException e) {
                LOG.warn(
                    "A scheduled task of exporter '{}' of partition {} failed",
                    descriptor.id(),
                    partitionId,
                    e);
              }
            });
    tasks.add(handle[0]);
    return () -> {
      handle[0].cancel();
      tasks.remove(handle[0]);
    };
  }
}
