package io.cairn.broker.partition;

import io.cairn.backup.BackupColumnFamily;
import io.cairn.backup.BackupConfig;
import io.cairn.backup.BackupManager;
import io.cairn.backup.BackupMetrics;
import io.cairn.backup.BackupRequests;
import io.cairn.backup.Checkpoint;
import io.cairn.backup.CheckpointListener;
import io.cairn.backup.CheckpointOrigin;
import io.cairn.backup.CheckpointRecords;
import io.cairn.backup.CheckpointState;
import io.cairn.backup.restore.RestoreMarker;
import io.cairn.backup.restore.RestoredCheckpointCheck;
import io.cairn.backup.retention.BackupDeleter;
import io.cairn.backupapi.BackupStore;
import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.engine.CheckpointIdSupplier;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessor;
import io.cairn.streamprocessor.StreamProcessorPhase;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoints and backups (DESIGN.md §7, §9) and the state digest check of a restored partition
 * (§10) as a partition component; one instance per partition. Register it <em>first</em>: its
 * interceptor (the consistent cut) must see every command before any other processor.
 *
 * <ul>
 *   <li>Every run registers the {@code CHECKPOINT} processors, appliers and the cut interceptor
 *       over the run's database.
 *   <li>If the partition was restored from a backup ({@link RestoreMarker} in its directory, read
 *       once, at its first run), every run then registers the {@link RestoredCheckpointCheck}: the
 *       leader that processes the kept {@code CHECKPOINT CREATE} compares the state digest with the
 *       backup's and fails the partition on a mismatch (health {@code FAILED}, the report as
 *       reason; counted in {@code cairn.backup.restore.checks}). Registered in every role, since
 *       whichever member leads when the command is processed must check it. The marker also goes to
 *       the cut interceptor: a stamped inter-partition command before the kept checkpoint was
 *       deferred past it when first processed, so the restored leader drops it instead of deferring
 *       it again (see {@link CheckpointRecords}). A marker that cannot be read, or names another
 *       partition, fails the partition before it processes anything.
 *   <li>A LEADER run also gets a {@link BackupManager}, started before the stream processor (so no
 *       {@code CREATED} can be missed) and closed when the run stops: a new leader's manager marks
 *       every in-progress backup of the partition FAILED. And a {@link BackupDeleter}, which takes
 *       over the deletions pending in the state and does those retention asks for next.
 * </ul>
 */
public final class BackupComponent implements PartitionComponent {

  private static final Logger LOG = LoggerFactory.getLogger(BackupComponent.class);

  /** How often a leader's deleter reads the deletions pending in the state. */
  static final Duration PENDING_DELETIONS_INTERVAL = Duration.ofSeconds(30);

  private final Optional<BackupStore> store;
  private final BackupConfig config;
  private final int partitionCount;
  private final Executor uploadExecutor;
  private final UnaryOperator<SnapshotStore> snapshots;

  // written on the partition thread
  private BackupMetrics metrics;
  private volatile BackupManager manager;
  private volatile BackupDeleter deleter;

  /** The restore marker read at the first run; null until then. */
  private Optional<RestoreMarker> restoreMarker;

  /** Why the marker cannot be trusted, if it cannot; final for the life of the component. */
  private String restoreMarkerProblem;

  /**
   * @param store where leaders write backups; empty: checkpoints are taken, no backup is written
   * @param config the backup managers' settings
   * @param partitionCount the cluster's partition count, recorded in backups
   * @param uploadExecutor collects and reads the files of backups (bounded; blocking I/O)
   */
  public BackupComponent(
      Optional<BackupStore> store,
      BackupConfig config,
      int partitionCount,
      Executor uploadExecutor) {
    this(store, config, partitionCount, uploadExecutor, UnaryOperator.identity());
  }

  /**
   * @param snapshots the snapshot store the backup manager reserves in, given the partition's: that
   *     one, unless a simulation switches the reservation off
   */
  public BackupComponent(
      Optional<BackupStore> store,
      BackupConfig config,
      int partitionCount,
      Executor uploadExecutor,
      UnaryOperator<SnapshotStore> snapshots) {
    this.store = Objects.requireNonNull(store, "store");
    this.config = Objects.requireNonNull(config, "config");
    this.partitionCount = partitionCount;
    this.uploadExecutor = Objects.requireNonNull(uploadExecutor, "uploadExecutor");
    this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
  }

  /**
   * The checkpoint id the ledger stamps on inter-partition commands: the latest checkpoint id in
   * {@code db}'s checkpoint records (a function of the state only). For {@link LedgerComponent}.
   */
  public static CheckpointIdSupplier checkpointIds(CairnDb db) {
    CheckpointState state = CheckpointState.of(db);
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
  public void registerProcessors(ProcessingScope scope, RecordProcessors.Builder processors) {
    PartitionContext partition = scope.partition();
    Optional<RestoreMarker> marker = restoreMarker(partition);
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
              .snapshots(snapshots.apply(partition.snapshotStore()))
              .journal(partition.journal())
              .writer(partition.logStream().writer())
              .uploadExecutor(uploadExecutor)
              .config(config)
              .metrics(metrics)
              .build();
      partition.scheduler().start(manager);
      deleter =
          new BackupDeleter(
              partition.nodeId(),
              partition.partitionId(),
              store.get(),
              partition.logStream().writer(),
              BackupDeleter.BACKOFF,
              metrics);
      partition.scheduler().start(deleter);
      listener =
          new LeaderListener(new BackupRequests(manager, BackupRequests.STAMPED_GRACE), deleter);
    }
    // with the marker, the cut interceptor drops the stamped commands of the kept log that were
    // deferred past the checkpoint when first processed (they belong after the restored cut)
    CheckpointRecords.register(
        partition.partitionId(), scope.db(), processors, listener, metrics, marker);
    marker.ifPresent(
        restored ->
            processors.interceptor(
                RestoredCheckpointCheck.failingPartition(restored, scope.db(), metrics)));
  }

  /**
   * The partition's restore marker, read at the first call (the partition's start) and kept: the
   * file does not change while the broker runs.
   *
   * @throws PartitionStateCorruptedException (the partition is FAILED, not retried) if the file
   *     exists but is not a valid marker of this partition: a restored partition whose expected
   *     digest is unknown must not serve unchecked
   */
  private Optional<RestoreMarker> restoreMarker(PartitionContext partition) {
    if (restoreMarker == null && restoreMarkerProblem == null) {
      // an I/O error (UncheckedIOException) is not kept: the transition fails and is retried
      try {
        Optional<RestoreMarker> read = RestoreMarker.read(partition.layout().directory());
        if (read.isPresent() && read.get().partitionId() != partition.partitionId()) {
          restoreMarkerProblem =
              "Expected the restore marker "
                  + partition.layout().directory().resolve(RestoreMarker.FILE_NAME)
                  + " to be of partition "
                  + partition.partitionId()
                  + ", but it is of partition "
                  + read.get().partitionId()
                  + ". The partition was restored from a backup and its state cannot be checked:"
                  + " restore it again.";
        } else {
          restoreMarker = read;
          read.ifPresent(
              m ->
                  LOG.info(
                      "Partition {} was restored from backup {}: a leader that processes its"
                          + " checkpoint at position {} again checks the state digest {}",
                      partition.partitionId(),
                      m.backupId(),
                      m.checkpointPosition(),
                      m.stateDigest()));
        }
      } catch (IllegalStateException e) {
        restoreMarkerProblem = e.getMessage();
      }
    }
    if (restoreMarkerProblem != null) {
      throw new PartitionStateCorruptedException(restoreMarkerProblem);
    }
    return restoreMarker;
  }

  /** The leader's: checkpoints to the backup manager (markers not), deletions to the deleter. */
  private record LeaderListener(BackupRequests backups, BackupDeleter deleter)
      implements CheckpointListener {
    @Override
    public void onCheckpointCreated(Checkpoint checkpoint) {
      backups.onCheckpointCreated(checkpoint);
    }

    @Override
    public void onCheckpointTaken(Checkpoint checkpoint, CheckpointOrigin origin) {
      backups.onCheckpointTaken(checkpoint, origin);
    }

    @Override
    public void onCheckpointRequested(long checkpointId, CheckpointOrigin origin) {
      backups.onCheckpointRequested(checkpointId, origin);
    }

    @Override
    public void onDeletionRequested(long backupId) {
      deleter.delete(backupId);
    }
  }

  /**
   * The leader's deleter takes over the deletions pending in the state once the processor has
   * replayed the log (before, the state may lack some), and looks again every {@link
   * #PENDING_DELETIONS_INTERVAL}.
   */
  @Override
  public void onBecomeLeader(ProcessingScope scope, StreamProcessor processor) {
    BackupDeleter running = deleter;
    if (running != null) {
      CheckpointState state = CheckpointState.of(scope.db());
      running.resumeFrom(
          () ->
              processor.call(
                  () ->
                      processor.phase() == StreamProcessorPhase.PROCESSING
                          ? Optional.of(state.pendingDeletions())
                          : Optional.<List<Long>>empty()),
          PENDING_DELETIONS_INTERVAL);
    }
  }

  @Override
  public void onProcessingStopped(ProcessingScope scope) {
    if (deleter != null) {
      BackupDeleter closing = deleter;
      deleter = null;
      closing.closeAsync();
    }
    if (manager != null) {
      BackupManager closing = manager;
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
