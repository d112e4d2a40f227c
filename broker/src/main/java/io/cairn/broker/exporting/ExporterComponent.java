package io.cairn.broker.exporting;

import io.cairn.broker.partition.ExportedPositionSource;
import io.cairn.broker.partition.PartitionComponent;
import io.cairn.broker.partition.PartitionContext;
import io.cairn.broker.partition.PartitionLogging;
import io.cairn.broker.partition.ProcessingScope;
import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.scheduler.ActorScheduler;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessor;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exporters (DESIGN.md §11) as a partition component; one instance per partition, given to the
 * partition both as a component and, with exporters configured, as its {@link
 * ExportedPositionSource}. A broker registers it also without exporters: its column family then
 * stays in the state, so removing every exporter from the configuration (or a snapshot from a
 * member with exporters) still opens.
 *
 * <ul>
 *   <li>Keeps the exporters' acknowledged positions in the partition's state ({@link
 *       ExporterPositions}); their lowest is each snapshot's exported position, and the log is not
 *       compacted past it.
 *   <li>A LEADER run gets an {@link ExporterDirector} on the exporter scheduler, stopped when the
 *       run stops.
 *   <li>A FOLLOWER run raises the positions its leader sends (message type {@code
 *       exporter-positions-<partitionId>}), so that it holds the log its exporters will need if it
 *       becomes leader, and compacts the rest.
 * </ul>
 */
public final class ExporterComponent implements PartitionComponent, ExportedPositionSource {

  private static final Logger LOG = LoggerFactory.getLogger(ExporterComponent.class);

  private final List<ExporterDescriptor> descriptors;
  private final Set<String> ids;
  private final ExportingState exporting;
  private final ExporterDirectorConfig config;
  private final ActorScheduler exporterScheduler;

  // partition thread; read by the message handler
  private volatile PartitionContext context;
  private volatile ExporterDirector director;
  private volatile FollowerRun follower;

  /** A follower run that takes positions from its leader. */
  private record FollowerRun(
      ProcessingScope scope, StreamProcessor processor, ExporterPositions positions) {}

  /**
   * @param descriptors the configured exporters; none: the component only keeps its family
   * @param exporting the broker's paused flag
   * @param config how directors work
   * @param exporterScheduler where directors run (not the partitions' scheduler: exporters do I/O);
   *     may be {@code null} without exporters
   */
  public ExporterComponent(
      List<ExporterDescriptor> descriptors,
      ExportingState exporting,
      ExporterDirectorConfig config,
      ActorScheduler exporterScheduler) {
    if (!descriptors.isEmpty()) {
      Objects.requireNonNull(exporterScheduler, "exporterScheduler");
    }
    this.descriptors = List.copyOf(descriptors);
    this.ids = descriptors.stream().map(ExporterDescriptor::id).collect(Collectors.toSet());
    this.exporting = Objects.requireNonNull(exporting, "exporting");
    this.config = Objects.requireNonNull(config, "config");
    this.exporterScheduler = exporterScheduler;
  }

  @Override
  public String name() {
    return "exporters";
  }

  @Override
  public List<? extends ColumnFamilyDefinition> columnFamilies() {
    return List.of(ExporterPositions.Family.values());
  }

  @Override
  public void registerProcessors(ProcessingScope scope, RecordProcessors.Builder processors) {
    if (context == null && !descriptors.isEmpty()) {
      context = scope.partition();
      context
          .messagingService()
          .registerMessageHandler(
              ExporterPositionsCodec.messageType(context.partitionId()),
              this::onPositions,
              PartitionLogging.wrap(context.nodeId(), context.partitionId(), context.ioExecutor()));
    }
  }

  @Override
  public void onBecomeLeader(ProcessingScope scope, StreamProcessor processor) {
    if (descriptors.isEmpty()) {
      return;
    }
    PartitionContext partition = scope.partition();
    ExporterDirector started =
        new ExporterDirector(
            partition.partitionId(),
            partition.nodeId(),
            descriptors,
            scope.logStream(),
            processor,
            new ExporterPositions(scope.db()),
            exporting,
            config,
            partition.meterRegistry(),
            positions -> publish(partition, positions));
    director = started;
    exporterScheduler
        .start(started)
        .exceptionally(
            error -> {
              LOG.warn(
                  "The exporter director of partition {} did not start",
                  partition.partitionId(),
                  error);
              return null;
            });
  }

  @Override
  public void onBecomeFollower(ProcessingScope scope, StreamProcessor processor) {
    if (descriptors.isEmpty()) {
      return;
    }
    follower = new FollowerRun(scope, processor, new ExporterPositions(scope.db()));
  }

  @Override
  public void onProcessingStopped(ProcessingScope scope) {
    FollowerRun run = follower;
    if (run != null && run.scope() == scope) {
      follower = null;
    }
    ExporterDirector stopping = director;
    if (stopping != null && scope.isLeader()) {
      director = null;
      stopping.stop();
    }
  }

  @Override
  public void close() {
    PartitionContext partition = context;
    if (partition != null) {
      partition
          .messagingService()
          .unregisterHandler(ExporterPositionsCodec.messageType(partition.partitionId()));
    }
  }

  @Override
  public long exportedPosition(CairnDb db) {
    return new ExporterPositions(db).lowest(ids);
  }

  /** The leader's director: acknowledged positions to every other member. */
  private void publish(PartitionContext partition, Map<String, Long> positions) {
    byte[] payload = ExporterPositionsCodec.encode(partition.partitionId(), positions);
    String type = ExporterPositionsCodec.messageType(partition.partitionId());
    for (int member : partition.members()) {
      if (member != partition.nodeId()) {
        partition
            .messagingService()
            .send(member, type, payload)
            .exceptionally(
                error -> {
                  LOG.debug(
                      "Sending exporter positions of partition {} to member {} failed: {}",
                      partition.partitionId(),
                      member,
                      error.toString());
                  return null;
                });
      }
    }
  }

  /** A follower: its leader's positions (I/O executor). */
  private void onPositions(int sender, byte[] payload) {
    ExporterPositionsCodec.Message message;
    try {
      message = ExporterPositionsCodec.decode(payload);
    } catch (IllegalArgumentException e) {
      LOG.warn("Dropping exporter positions from member {}: {}", sender, e.getMessage());
      return;
    }
    FollowerRun run = follower;
    if (run == null) {
      return; // leading, in a transition, or closed: the positions come again
    }
    Map<String, Long> known =
        message.positions().entrySet().stream()
            .filter(entry -> ids.contains(entry.getKey()))
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    if (known.isEmpty()) {
      return;
    }
    run.processor()
        .submit(
            () -> {
              if (follower == run) {
                run.positions().raise(known);
              }
            });
  }

  /** The director of the current LEADER run, if any (for tests and diagnostics). */
  ExporterDirector director() {
    return director;
  }
}
