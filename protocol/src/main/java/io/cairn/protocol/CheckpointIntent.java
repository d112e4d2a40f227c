package io.cairn.protocol;

/**
 * Intents of {@link ValueType#CHECKPOINT}, the consistent cut for backups. The codes are part of
 * the binary format and never change.
 */
public enum CheckpointIntent implements Intent {
  /**
   * Command: take checkpoint {@code id} at this command's position if it is higher than the last
   * one.
   */
  CREATE(0, false),
  /** Event: the checkpoint was taken; carries its position and the state digest. */
  CREATED(1, true),
  /** Event: the id was not higher than the partition's last checkpoint; carries the current id. */
  IGNORED(2, true),
  /** Command: confirm that the backup of a checkpoint completed. */
  CONFIRM_BACKUP(3, false),
  /** Event: the backup of the checkpoint is confirmed. */
  CONFIRMED_BACKUP(4, true),
  /**
   * Command: delete this partition's backup {@code id} from the store (retention); the deletion is
   * pending until confirmed.
   */
  DELETE_BACKUP(5, false),
  /** Event: the deletion of backup {@code id} is pending; the leader deletes it from the store. */
  DELETING_BACKUP(6, true),
  /** Command: the leader deleted this partition's backup {@code id} from the store. */
  CONFIRM_DELETION(7, false),
  /** Event: backup {@code id} is gone from the store; its deletion is no longer pending. */
  DELETED_BACKUP(8, true),
  /**
   * Command: take checkpoint {@code id} as {@link #CREATE} does, as a <em>marker</em>: a restore
   * point of the log archive of which no backup is taken. Answered with {@code CREATED} or {@code
   * IGNORED} like {@code CREATE}.
   */
  MARK(9, false);

  private final short code;
  private final boolean event;

  CheckpointIntent(int code, boolean event) {
    this.code = (short) code;
    this.event = event;
  }

  @Override
  public short code() {
    return code;
  }

  @Override
  public boolean isEvent() {
    return event;
  }

  @Override
  public ValueType valueType() {
    return ValueType.CHECKPOINT;
  }
}
