package io.cairn.broker.partition;

import io.cairn.backup.archive.ArchiveConfig;
import io.cairn.backup.archive.ArchiveMetrics;
import io.cairn.backup.archive.LogArchiver;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.archive.LogArchive;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessor;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The continuous log archive of one partition (DESIGN.md §9, "Log archive") as a partition
 * component: one {@link LogArchiver} for the life of the partition on this broker, created at the
 * partition's first run, archiving while this member leads and reading the archive's tail while it
 * follows; it holds log compaction for what is not archived yet, and answers the other members'
 * requests for records a new leader's log no longer holds ({@link ArchivePeerRecords}). While the
 * archive is over its limit, the partition reports UNHEALTHY with the reason ({@link
 * #healthProblem()}).
 */
public final class LogArchiveComponent implements PartitionComponent {

  /** The name of the compaction hold, as logs and diagnostics show it. */
  static final String HOLD_NAME = "log-archive";

  private final BackupStore store;
  private final ArchiveConfig config;
  private final UnaryOperator<SnapshotStore> snapshots;

  // partition thread
  private volatile LogArchiver archiver;
  private PartitionContext context;

  /**
   * @param snapshots the snapshot store the archiver holds compaction in, given the partition's
   *     own: that one (a simulation's negative control gives one that holds nothing)
   */
  public LogArchiveComponent(
      BackupStore store, ArchiveConfig config, UnaryOperator<SnapshotStore> snapshots) {
    this.store = Objects.requireNonNull(store, "store");
    this.config = Objects.requireNonNull(config, "config");
    this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
  }

  /** The component of a broker with {@code backup} settings: present iff the archive is on. */
  public static Optional<PartitionComponent> of(
      BackupStore store, BrokerConfig.Backup backup, UnaryOperator<SnapshotStore> snapshots) {
    return backup.archive().map(config -> new LogArchiveComponent(store, config, snapshots));
  }

  @Override
  public String name() {
    return "log-archive";
  }

  @Override
  public void registerProcessors(ProcessingScope scope, RecordProcessors.Builder processors) {
    if (archiver == null) {
      PartitionContext partition = scope.partition();
      archiver =
          new LogArchiver(
              partition.nodeId(),
              partition.partitionId(),
              new LogArchive(store.archive(), partition.partitionId()),
              partition.journal(),
              partition.logStream()::commitPosition,
              snapshots
                  .apply(partition.snapshotStore())
                  .registerCompactionHold(HOLD_NAME, partition.journal().getFirstIndex()),
              new ArchivePeerRecords(
                  partition.messagingService(), partition.partitionId(), partition.members()),
              config,
              new ArchiveMetrics(partition.meterRegistry(), partition.partitionId()));
      partition.scheduler().start(archiver);
      ArchivePeerRecords.serve(
          partition.messagingService(),
          partition.partitionId(),
          archiver::recordsForPeer,
          PartitionLogging.wrap(
              partition.nodeId(), partition.partitionId(), partition.ioExecutor()));
      context = partition;
    }
  }

  @Override
  public void onBecomeLeader(ProcessingScope scope, StreamProcessor processor) {
    archiver.leading(true);
  }

  @Override
  public void onBecomeFollower(ProcessingScope scope, StreamProcessor processor) {
    archiver.leading(false);
  }

  @Override
  public void onProcessingStopped(ProcessingScope scope) {
    if (archiver != null) {
      archiver.leading(false);
    }
  }

  @Override
  public String healthProblem() {
    LogArchiver running = archiver;
    return running == null ? "" : running.problem();
  }

  @Override
  public void close() {
    if (context != null) {
      context
          .messagingService()
          .unregisterHandler(ArchivePeerRecords.messageType(context.partitionId()));
    }
    if (archiver != null) {
      archiver.closeAsync();
    }
  }
}
