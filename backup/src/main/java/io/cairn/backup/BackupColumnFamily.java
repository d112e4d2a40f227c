package io.cairn.backup;

import io.cairn.db.ColumnFamilyDefinition;
import java.util.List;

/**
 * The column families of the checkpoint records. Open the partition's database with {@link #all()}
 * among its families.
 */
public enum BackupColumnFamily implements ColumnFamilyDefinition {
  /**
   * The latest checkpoint {@code {id, position, timestamp, digest}} and the latest confirmed
   * backup. Not in the state digest: it is the bookkeeping of the cut, not state. The digest a
   * checkpoint records must not depend on the checkpoint records themselves, and a restored
   * partition (which takes the checkpoint again) must reach the same digest.
   */
  BACKUP_CHECKPOINTS,

  /**
   * Backup ids whose deletion from the store is pending ({@code DELETING_BACKUP} applied, {@code
   * DELETED_BACKUP} not yet) → when it was requested. Not in the state digest either: retention's
   * bookkeeping, not the ledger's state.
   */
  BACKUP_DELETIONS;

  @Override
  public boolean includedInDigest() {
    return false;
  }

  /** Every family of this module. */
  public static List<ColumnFamilyDefinition> all() {
    return List.of(values());
  }
}
