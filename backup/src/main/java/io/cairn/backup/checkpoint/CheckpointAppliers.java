package io.cairn.backup.checkpoint;

import io.cairn.backup.BackupMetrics;
import io.cairn.backup.Checkpoint;
import io.cairn.backup.ConfirmedBackup;
import io.cairn.db.CairnDb;
import io.cairn.db.Digest128;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.Record;
import io.cairn.streamprocessor.EventApplier;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The appliers of the checkpoint events, on leaders and followers alike (the same code replays the
 * log): {@code CREATED} stores the latest checkpoint after checking it, {@code IGNORED} changes
 * nothing, {@code CONFIRMED_BACKUP} stores the confirmed backup with the highest id, {@code
 * DELETING_BACKUP} and {@code DELETED_BACKUP} begin and end a pending deletion.
 */
final class CheckpointAppliers {

  private static final Logger LOG = LoggerFactory.getLogger(CheckpointAppliers.class);

  private final int partitionId;
  private final CairnDb db;
  private final DbCheckpointState state;
  private final BackupMetrics metrics;

  CheckpointAppliers(int partitionId, CairnDb db, DbCheckpointState state, BackupMetrics metrics) {
    this.partitionId = partitionId;
    this.db = db;
    this.state = state;
    this.metrics = metrics;
  }

  /**
   * {@code CREATED}: the id must be above the latest one, and the digest it carries must equal this
   * replica's state digest at this point — on the leader that is the digest it just computed; on a
   * follower or in a replay a difference means the replicas diverged (ERROR, {@value
   * BackupMetrics#DIGEST_MISMATCHES}, and the partition fails: never continue past a broken cut).
   */
  EventApplier created() {
    return event -> {
      CheckpointValue value = (CheckpointValue) event.value();
      Checkpoint checkpoint =
          new Checkpoint(
              value.checkpointId(),
              value.checkpointPosition(),
              value.timestamp(),
              DigestBytes.fromBytes(value.stateDigest()));
      long latestId = state.latestCheckpointId();
      if (checkpoint.id() <= latestId) {
        throw new IllegalStateException(
            "Expected a CREATED checkpoint with an id above the latest "
                + latestId
                + ", but it carries "
                + checkpoint.id()
                + " (partition "
                + partitionId
                + ", checkpoint position "
                + checkpoint.position()
                + ")");
      }
      Digest128 actual = db.stateDigest().total();
      if (!actual.equals(checkpoint.stateDigest())) {
        metrics.digestMismatch();
        LOG.error(
            "Partition {} replica diverged at checkpoint {} (position {}): the CREATED event"
                + " carries state digest {}, but this replica's state has {}. Rebuild this"
                + " replica from the leader's snapshot, or restore the partition from a backup.",
            partitionId,
            checkpoint.id(),
            checkpoint.position(),
            checkpoint.stateDigestHex(),
            actual.toHex());
        throw new IllegalStateException(
            "Expected the state digest "
                + checkpoint.stateDigestHex()
                + " of checkpoint "
                + checkpoint.id()
                + " (position "
                + checkpoint.position()
                + "), but this replica's state has "
                + actual.toHex()
                + " (partition "
                + partitionId
                + "): the replicas diverged");
      }
      state.storeCheckpoint(checkpoint);
      metrics.checkpointApplied(checkpoint);
    };
  }

  /** {@code IGNORED}: nothing changes. */
  EventApplier ignored() {
    return EventApplier.NONE;
  }

  /** {@code CONFIRMED_BACKUP}: kept if its id is above the confirmed one. */
  EventApplier confirmedBackup() {
    return (Record event) -> {
      CheckpointValue value = (CheckpointValue) event.value();
      Optional<ConfirmedBackup> current = state.latestConfirmedBackup();
      if (current.isEmpty() || value.checkpointId() > current.get().checkpointId()) {
        state.storeConfirmedBackup(
            new ConfirmedBackup(value.checkpointId(), value.checkpointPosition()));
      }
    };
  }

  /** {@code DELETING_BACKUP}: the deletion is pending (kept with its first request's time). */
  EventApplier deletingBackup() {
    return (Record event) -> {
      CheckpointValue value = (CheckpointValue) event.value();
      if (!state.deletionPending(value.checkpointId())) {
        state.storeDeletion(value.checkpointId(), value.timestamp());
      }
    };
  }

  /** {@code DELETED_BACKUP}: the deletion is done. */
  EventApplier deletedBackup() {
    return (Record event) -> state.removeDeletion(((CheckpointValue) event.value()).checkpointId());
  }
}
