package io.cairn.broker.partition;

import io.cairn.backup.BackupColumnFamily;
import io.cairn.backup.BackupConfig;
import io.cairn.backup.BackupManager;
import io.cairn.backup.BackupMetrics;
import io.cairn.backup.CheckpointListener;
import io.cairn.backup.CheckpointRecords;
import io.cairn.backup.CheckpointState;
import io.cairn.backupapi.BackupStore;
import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.engine.CheckpointIdSupplier;
import io.cairn.streamprocessor.RecordProcessors;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoints and backups (DESIGN.md §7, §9) as a partition component; one instance per partition.
 * Register it <em>first</em>: its interceptor (the consistent cut) must see every command before
 * any other processor.
 *
 * <ul>
 *   <li>Every run registers the {@code CHECKPOINT} processors, appliers and the cut interceptor
 *       over the run's database.
 *   <li>A LEADER run also gets a {@link BackupManager}, started before the stream processor (so no
 *       {@code CREATED} can be missed) and closed when the run stops: a new leader's manager marks
 *       every in-progress backup of the partition FAILED.
 * </ul>
 */
public final class BackupComponent implements PartitionComponent {

  private static final Logger LOG = LoggerFactory.getLogger(BackupComponent.class);

  private final Optional<BackupStore> store;
  private final BackupConfig config;
  private final int partitionCount;
  private final Executor uploadExecutor;

  // written on the partition thread
  private BackupMetrics metrics;
  private volatile BackupManager manager;

  /**
   * @param store where leaders write backups; empty: checkpoints are taken, no backup is written
   * @param config the backup managers' settings
   * @param partitionCount the cluster's partition count, recorded in backups
   * @param uploadExecutor collects and reads the files of backups (bounded; blocking I/O)
   */
  public BackupComponent(
      final Optional<BackupStore> store,
      final BackupConfig config,
      final int partitionCount,
      final Executor uploadExecutor) {
    this.store = Objects.requireNonNull(store, "store");
    this.config = Objects.requireNonNull(config, "config");
    this.partitionCount = partitionCount;
    this.uploadExecutor = Objects.requireNonNull(uploadExecutor, "uploadExecutor");
  }

  /**
   * The checkpoint id the ledger stamps on inter-partition commands: the latest checkpoint id in
   * {@code db}'s checkpoint records (a function of the state only). For {@link LedgerComponent}.
   */
  public static CheckpointIdSupplier checkpointIds(final CairnDb db) {
    final CheckpointState state = CheckpointState.of(db);
    return state::latestCheckpointId;
  }

  @Override
  public String name() {
    return "checkpoints";
  }

  @Override
  public List<ColumnFamilyDefinition> columnFamilies() {
    return BackupColumnFamily.all();
  }

  @Override
  public void registerProcessors(
      final ProcessingScope scope, final RecordProcessors.Builder processors) {
    final PartitionContext partition = scope.partition();
    if (metrics == null) {
      metrics =
          new BackupMetrics(partition.meterRegistry(), partition.partitionId(), partition.clock());
    }
    CheckpointListener listener = CheckpointListener.NONE;
    if (scope.isLeader() && store.isPresent()) {
      manager =
          BackupManager.builder()
              .partitionId(partition.partitionId())
              .nodeId(partition.nodeId())
              .partitionCount(partitionCount)
              .brokerVersion(partition.brokerVersion())
              .store(store.get())
              .snapshots(partition.snapshotStore())
              .journal(partition.journal())
              .writer(partition.logStream().writer())
              .uploadExecutor(uploadExecutor)
              .config(config)
              .metrics(metrics)
              .build();
      partition.scheduler().start(manager);
      listener = manager;
    }
    CheckpointRecords.register(partition.partitionId(), scope.db(), processors, listener, metrics);
  }

  @Override
  public void onProcessingStopped(final ProcessingScope scope) {
    if (manager != null) {
      final BackupManager closing = manager;
      manager = null;
      closing
          .closeAsync()
          .whenComplete(
              (ignored, error) -> {
                if (error != null) {
                  LOG.warn(
                      "Closing the backup manager of partition {} failed",
                      scope.partitionId(),
                      error);
                }
              });
    }
  }

  /** The backup manager of the running leader, if this member leads. */
  public Optional<BackupManager> manager() {
    return Optional.ofNullable(manager);
  }

  @Override
  public void close() {
    if (metrics != null) {
      metrics.close();
      metrics = null;
    }
  }
}
