package io.cairn.backup.checkpoint;

import io.cairn.backup.BackupColumnFamily;
import io.cairn.backup.Checkpoint;
import io.cairn.backup.CheckpointState;
import io.cairn.backup.ConfirmedBackup;
import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamily;
import io.cairn.db.DbCodecs;
import io.cairn.protocol.RecordMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link CheckpointState} over the partition's database, with the writes the appliers make. Used on
 * the partition's thread only.
 */
public final class DbCheckpointState implements CheckpointState {

  private final ColumnFamily<Long, byte[]> family;
  private final ColumnFamily<Long, Long> deletions;

  public DbCheckpointState(CairnDb db) {
    family = db.columnFamily(BackupColumnFamily.BACKUP_CHECKPOINTS, DbCodecs.LONG, DbCodecs.BYTES);
    deletions = db.columnFamily(BackupColumnFamily.BACKUP_DELETIONS, DbCodecs.LONG, DbCodecs.LONG);
  }

  @Override
  public Optional<Checkpoint> latestCheckpoint() {
    byte[] bytes = family.get(CheckpointStateCodec.LATEST_CHECKPOINT_KEY);
    return bytes == null
        ? Optional.empty()
        : Optional.of(CheckpointStateCodec.decodeCheckpoint(bytes));
  }

  @Override
  public long latestCheckpointId() {
    return latestCheckpoint().map(Checkpoint::id).orElse(RecordMetadata.NO_CHECKPOINT_ID);
  }

  @Override
  public Optional<ConfirmedBackup> latestConfirmedBackup() {
    byte[] bytes = family.get(CheckpointStateCodec.LATEST_CONFIRMED_BACKUP_KEY);
    return bytes == null
        ? Optional.empty()
        : Optional.of(CheckpointStateCodec.decodeConfirmedBackup(bytes));
  }

  @Override
  public List<Long> pendingDeletions() {
    List<Long> ids = new ArrayList<>();
    deletions.forEach((id, requested) -> ids.add(id));
    return ids;
  }

  /** Whether the deletion of backup {@code backupId} is pending. */
  boolean deletionPending(long backupId) {
    return deletions.get(backupId) != null;
  }

  /** Applier only: the deletion of backup {@code backupId} is pending since {@code requested}. */
  void storeDeletion(long backupId, long requested) {
    deletions.put(backupId, requested);
  }

  /** Applier only: the deletion of backup {@code backupId} is done. */
  void removeDeletion(long backupId) {
    deletions.delete(backupId);
  }

  /** Applier only: the checkpoint just taken becomes the latest. */
  void storeCheckpoint(Checkpoint checkpoint) {
    family.put(CheckpointStateCodec.LATEST_CHECKPOINT_KEY, CheckpointStateCodec.encode(checkpoint));
  }

  /** Applier only: the confirmed backup becomes the latest. */
  void storeConfirmedBackup(ConfirmedBackup backup) {
    family.put(
        CheckpointStateCodec.LATEST_CONFIRMED_BACKUP_KEY, CheckpointStateCodec.encode(backup));
  }
}
