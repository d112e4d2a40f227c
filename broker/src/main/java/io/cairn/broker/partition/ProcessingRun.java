package io.cairn.broker.partition;

import io.cairn.db.CairnDb;
import io.cairn.logstreams.CommitListener;
import io.cairn.raft.RaftServer;
import io.cairn.scheduler.ActorScheduler;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotDirector;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.streamprocessor.CommandResponseWriter;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessor;
import io.cairn.streamprocessor.StreamProcessorPhase;
import io.micrometer.core.instrument.Tag;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * One stream processor's run: the processor, the snapshot director that lives in it (the director's
 * owner actor is the processor, the only user of the state while it runs), the snapshot source and
 * the fenced log view. Built and stopped by {@link ProcessingRunner}.
 */
final class ProcessingRun {

  private final ProcessingScope scope;
  private final StreamProcessor processor;
  private final SnapshotDirector director;
  private final PartitionSnapshotSource source;
  private final FencedLogStream logStream;
  private final AtomicBoolean commitTaskQueued = new AtomicBoolean();
  private final CommitListener commitListener = position -> onCommit();

  private ProcessingRun(
      ProcessingScope scope,
      StreamProcessor processor,
      SnapshotDirector director,
      PartitionSnapshotSource source,
      FencedLogStream logStream) {
    this.scope = scope;
    this.processor = processor;
    this.director = director;
    this.source = source;
    this.logStream = logStream;
  }

  /**
   * Builds a run for {@code scope}: every component registers its processors, then the stream
   * processor, the snapshot source and the snapshot director (owned by the processor) are built.
   * Nothing starts yet.
   */
  static ProcessingRun create(
      ProcessingScope scope,
      FencedLogStream view,
      List<PartitionComponent> components,
      CommandResponseWriter responseWriter,
      PartitionConfig config,
      RaftServer raft,
      SnapshotStore snapshotStore,
      Iterable<Tag> meterTags,
      ExportedPositionSource exported) {
    PartitionContext context = scope.partition();
    RecordProcessors.Builder processors = RecordProcessors.builder();
    for (PartitionComponent component : components) {
      component.registerProcessors(scope, processors);
    }
    StreamProcessor processor =
        StreamProcessor.builder()
            .logStream(view)
            .db(scope.db())
            .processors(processors.build())
            .responseWriter(responseWriter)
            .mode(scope.mode())
            .config(config.streamProcessor())
            .meterRegistry(context.meterRegistry())
            .nodeId(context.nodeId())
            .build();
    PartitionSnapshotSource source =
        new PartitionSnapshotSource(
            scope.db(),
            view,
            raft,
            new SnapshotIndexLookup(context.journal()),
            scope.isLeader(),
            scope.term(),
            exported);
    SnapshotDirector director =
        SnapshotDirector.builder()
            .owner(processor)
            .store(snapshotStore)
            .source(source)
            .config(config.snapshot())
            .brokerVersion(context.brokerVersion())
            .clock(context.clock())
            .ioExecutor(context.ioExecutor())
            .meterRegistry(context.meterRegistry())
            .meterTags(meterTags)
            .build();
    return new ProcessingRun(scope, processor, director, source, view);
  }

  ProcessingScope scope() {
    return scope;
  }

  StreamProcessor processor() {
    return processor;
  }

  /** Starts the processor, then the director's periodic snapshots inside it. */
  CompletableFuture<Void> start(ActorScheduler scheduler) {
    return scheduler
        .start(processor)
        .thenCompose(started -> processor.submit(director::start))
        .thenRun(() -> logStream.addCommitListener(commitListener));
  }

  /** Stops the director (dropping a snapshot not persisting yet), then the processor. */
  CompletableFuture<Void> stop() {
    logStream.removeCommitListener(commitListener);
    return processor
        .submit(director::close)
        .handle((ignored, error) -> null) // a processor closed already has no director to stop
        .thenCompose(ignored -> processor.closeAsync())
        .whenComplete(
            (ignored, error) -> {
              source.close();
              logStream.close();
            });
  }

  CompletableFuture<Optional<PersistedSnapshot>> takeSnapshot() {
    return director.takeSnapshot();
  }

  /** Runs {@code reader} on the processor's thread, between two of its turns. */
  <T> CompletableFuture<T> read(Function<CairnDb, T> reader) {
    return processor.call(() -> reader.apply(scope.db()));
  }

  /**
   * Like {@link #read}, but only while the processor processes commands: a new leader's state is
   * incomplete until it has replayed the log, so a read then fails instead of answering from it.
   */
  <T> CompletableFuture<T> readProcessed(Function<CairnDb, T> reader) {
    return processor.call(
        () -> {
          StreamProcessorPhase phase = processor.phase();
          if (phase != StreamProcessorPhase.PROCESSING) {
            throw new IllegalStateException(
                "its stream processor is " + phase + ", not PROCESSING yet");
          }
          return reader.apply(scope.db());
        });
  }

  /** Commit listener (raft thread): a snapshot may be waiting for this commit. */
  private void onCommit() {
    if (commitTaskQueued.compareAndSet(false, true)) {
      processor.submit(
          () -> {
            commitTaskQueued.set(false);
            director.commitPositionUpdated();
          });
    }
  }
}
