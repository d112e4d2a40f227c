package io.cairn.broker.exporting;

import io.cairn.exporter.ExportedRecord;
import io.cairn.logstreams.CommitListener;
import io.cairn.logstreams.LogStream;
import io.cairn.logstreams.LogStreamReader;
import io.cairn.scheduler.Actor;
import io.cairn.scheduler.Cancellable;
import io.cairn.scheduler.LoggingContext;
import io.cairn.streamprocessor.StreamProcessor;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands a partition's committed records to its exporters, on the leader, for one leadership (one
 * LEADER run of the stream processor). Its own actor, so exporters never slow processing down.
 *
 * <ol>
 *   <li><b>Start.</b> Reads the acknowledged positions from the state (on the stream processor's
 *       thread, dropping those of exporters no longer configured), opens every exporter, and reads
 *       the log from the lowest acknowledged position on (the first record if one has none).
 *   <li><b>Export.</b> Each committed record goes to every exporter that was not handed it yet, in
 *       configuration order; at most {@code maxRecordsPerTurn} per turn, woken by commits. Nothing
 *       is handed over while exporting is paused ({@link ExportingState}).
 *   <li><b>Failures.</b> An exporter that fails to open or export stops the director (not
 *       processing) and is retried with the same record after a backoff that doubles up to a
 *       maximum; each failure is counted.
 *   <li><b>Positions.</b> Exporters acknowledge positions; every {@code positionsInterval} the
 *       changed ones are raised in the state (stream processor's thread) and sent to the other
 *       members ({@code positionsPublisher}), which raise them in theirs. So they survive restarts
 *       and leader changes through snapshots, and bound log compaction on every member.
 * </ol>
 *
 * <p>{@link #stop()} closes it: exporters close (flushing and acknowledging what they can), the
 * last positions go to the other members (the state is the stopping stream processor's, not touched
 * any more), meters are removed.
 */
final class ExporterDirector extends Actor {

  private static final Logger LOG = LoggerFactory.getLogger(ExporterDirector.class);

  private final int partitionId;
  private final int nodeId;
  private final List<ExporterDescriptor> descriptors;
  private final LogStream logStream;
  private final StreamProcessor processor;
  private final ExporterPositions positions;
  private final ExportingState exporting;
  private final ExporterDirectorConfig config;
  private final MeterRegistry registry;
  private final Consumer<Map<String, Long>> positionsPublisher;
  private final String description;
  private final AtomicBoolean wakeQueued = new AtomicBoolean();
  private final CommitListener commitListener = position -> wake();
  private final Runnable pauseListener = this::wake;
  private final List<ExporterContainer> containers = new ArrayList<>();
  private volatile boolean stopped;
  private volatile long lowestAcknowledged = ExportedRecord.NO_POSITION;

  // actor thread only
  private ExporterMetrics metrics;
  private LogStreamReader reader;
  private ExportedRecord pending;
  private boolean ready;
  private boolean broken;
  private int failures;
  private Cancellable retryTimer;
  private boolean dirty;
  private int intervalsSincePublished;

  /**
   * @param positions the state's positions; used only on {@code processor}'s thread
   * @param positionsPublisher sends acknowledged positions to the partition's other members
   */
  ExporterDirector(
      int partitionId,
      int nodeId,
      List<ExporterDescriptor> descriptors,
      LogStream logStream,
      StreamProcessor processor,
      ExporterPositions positions,
      ExportingState exporting,
      ExporterDirectorConfig config,
      MeterRegistry registry,
      Consumer<Map<String, Long>> positionsPublisher) {
    super("exporters-" + partitionId + "-" + nodeId, LoggingContext.partition(nodeId, partitionId));
    this.partitionId = partitionId;
    this.nodeId = nodeId;
    this.descriptors = List.copyOf(descriptors);
    this.logStream = logStream;
    this.processor = processor;
    this.positions = positions;
    this.exporting = exporting;
    this.config = config;
    this.registry = registry;
    this.positionsPublisher = positionsPublisher;
    this.description = "partition " + partitionId + " on node " + nodeId;
  }

  /** Stops exporting and closes the exporters; the returned future completes once closed. */
  CompletableFuture<Void> stop() {
    stopped = true;
    return closeAsync();
  }

  /** The lowest acknowledged position of this director's exporters (any thread). */
  long lowestAcknowledged() {
    return lowestAcknowledged;
  }

  // ---- life cycle (actor thread) --------------------------------------------------------------

  @Override
  protected void onStart() {
    metrics =
        new ExporterMetrics(
            registry, partitionId, nodeId, this::lowestAcknowledged, logStream::commitPosition);
    exporting.addListener(pauseListener);
    logStream.addCommitListener(commitListener);
    scheduleAtFixedRate(
        config.positionsInterval(), config.positionsInterval(), this::persistPositions);
    loadPositions();
  }

  private void loadPositions() {
    List<String> ids = descriptors.stream().map(ExporterDescriptor::id).toList();
    processor
        .call(
            () -> {
              if (stopped) {
                throw new IllegalStateException("stopped");
              }
              positions.retainOnly(ids);
              return positions.all();
            })
        .whenCompleteAsync(
            (stored, error) -> {
              if (error != null) {
                if (!stopped) {
                  onFailure("reading the exporter positions from the state", error);
                  retryTimer = schedule(config.retryDelay(failures), this::retryLoad);
                }
                return;
              }
              onPositionsLoaded(stored);
            },
            executor());
  }

  private void retryLoad() {
    retryTimer = null;
    loadPositions();
  }

  private void onPositionsLoaded(Map<String, Long> stored) {
    long from = Long.MAX_VALUE;
    for (ExporterDescriptor descriptor : descriptors) {
      long position = stored.getOrDefault(descriptor.id(), ExporterPositions.NONE);
      containers.add(new ExporterContainer(descriptor, partitionId, position, this, registry));
      from = Math.min(from, position);
    }
    updateLowest();
    reader = logStream.newReader();
    if (from == ExporterPositions.NONE) {
      reader.seekToFirst();
    } else {
      reader.seek(from + 1);
    }
    ready = true;
    failures = 0;
    LOG.info(
        "Exporting {} from position {} to {} exporter(s){}",
        description,
        from == ExporterPositions.NONE ? "first" : Long.toString(from + 1),
        containers.size(),
        exporting.isPaused() ? " (paused)" : "");
    work();
  }

  @Override
  protected void onClose() {
    exporting.removeListener(pauseListener);
    logStream.removeCommitListener(commitListener);
    for (ExporterContainer container : containers) {
      container.close();
    }
    if (ready && dirty) {
      // the state belongs to the stopping stream processor now; the other members still learn
      // what the exporters acknowledged while closing
      Map<String, Long> acknowledged = acknowledged();
      if (!acknowledged.isEmpty()) {
        positionsPublisher.accept(acknowledged);
      }
    }
    if (reader != null) {
      reader.close();
    }
    if (metrics != null) {
      metrics.close();
    }
  }

  // ---- exporting (actor thread) ---------------------------------------------------------------

  /** Any thread: queue one export turn unless one is queued already. */
  private void wake() {
    if (!stopped && wakeQueued.compareAndSet(false, true)) {
      try {
        submit(this::work);
      } catch (RuntimeException e) {
        wakeQueued.set(false); // closing
      }
    }
  }

  private void work() {
    wakeQueued.set(false);
    if (!ready || broken || stopped || retryTimer != null || exporting.isPaused()) {
      return;
    }
    for (ExporterContainer container : containers) {
      if (!container.isOpen()) {
        try {
          container.open();
        } catch (Exception | LinkageError e) {
          onFailure("opening exporter '" + container.id() + "'", e);
          scheduleRetry();
          return;
        }
      }
    }
    int handed = 0;
    try {
      while (handed < config.maxRecordsPerTurn() && !exporting.isPaused()) {
        if (pending == null) {
          if (!reader.hasNext()) {
            break;
          }
          pending = new ExportedRecord(partitionId, reader.next());
        }
        for (ExporterContainer container : containers) {
          if (container.wants(pending)) {
            try {
              container.export(pending);
            } catch (Exception | LinkageError e) {
              onFailure(
                  "exporter '" + container.id() + "' exporting position " + pending.position(), e);
              scheduleRetry();
              return;
            }
          }
        }
        pending = null;
        handed++;
        failures = 0;
      }
    } catch (RuntimeException e) {
      // the log cannot be read: the stream processor fails on the same entry and the partition
      // goes FAILED; exporting stops here until the next leadership
      broken = true;
      LOG.error("Exporting {} stopped: reading the log failed", description, e);
      return;
    } finally {
      if (handed > 0) {
        metrics.exported(handed);
      }
    }
    if (handed >= config.maxRecordsPerTurn()) {
      wake(); // more may be waiting: yield, then go on
    }
  }

  private void onFailure(String what, Throwable error) {
    failures++;
    metrics.failed();
    Duration delay = config.retryDelay(failures);
    if (failures == 1) {
      LOG.warn(
          "Exporting {} failed: {}; retrying in {} (and with backoff until it succeeds)",
          description,
          what,
          delay,
          error);
    } else {
      LOG.warn(
          "Exporting {} failed again ({} in a row): {}: {}; retrying in {}",
          description,
          failures,
          what,
          error.toString(),
          delay);
    }
  }

  private void scheduleRetry() {
    retryTimer =
        schedule(
            config.retryDelay(failures),
            () -> {
              retryTimer = null;
              work();
            });
  }

  /** For an exporter's {@link io.cairn.exporter.ExporterController#scheduleTask}. */
  Cancellable scheduleForExporter(Duration delay, Runnable task) {
    return schedule(delay, task);
  }

  // ---- positions (actor thread) ---------------------------------------------------------------

  /** An exporter acknowledged a new position. */
  void positionsChanged() {
    dirty = true;
    updateLowest();
  }

  private void updateLowest() {
    long lowest = Long.MAX_VALUE;
    for (ExporterContainer container : containers) {
      lowest = Math.min(lowest, container.acknowledgedPosition());
    }
    lowestAcknowledged = lowest == Long.MAX_VALUE ? ExportedRecord.NO_POSITION : lowest;
  }

  private void persistPositions() {
    if (!ready) {
      return;
    }
    Map<String, Long> acknowledged = acknowledged();
    if (dirty) {
      dirty = false;
      if (!acknowledged.isEmpty()) {
        processor
            .submit(
                () -> {
                  if (!stopped) {
                    positions.raise(acknowledged);
                  }
                })
            .whenComplete(
                (ignored, error) -> {
                  if (error != null && !stopped) {
                    LOG.debug("Writing exporter positions of {} failed; trying again", description);
                    submit(() -> dirty = true);
                  }
                });
      }
    } else if (++intervalsSincePublished < config.positionsResendEvery()) {
      return;
    }
    if (!acknowledged.isEmpty()) {
      intervalsSincePublished = 0;
      positionsPublisher.accept(acknowledged);
    }
  }

  private Map<String, Long> acknowledged() {
    Map<String, Long> acknowledged = new LinkedHashMap<>();
    for (ExporterContainer container : containers) {
      if (container.acknowledgedPosition() >= 0) {
        acknowledged.put(container.id(), container.acknowledgedPosition());
      }
    }
    return acknowledged;
  }
}
