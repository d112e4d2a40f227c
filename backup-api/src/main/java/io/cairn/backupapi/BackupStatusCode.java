package io.cairn.backupapi;

/**
 * The state of one partition's backup in a store.
 *
 * <pre>
 *   (none) ──save──▶ IN_PROGRESS ──contents stored──▶ COMPLETED
 *     │                  │
 *     │                  └──markFailed / save error──▶ FAILED
 *     └──markFailed──────────────────────────────────▶ FAILED
 * </pre>
 *
 * COMPLETED and FAILED are final: only {@link BackupStore#delete} removes them.
 */
public enum BackupStatusCode {
  /** No manifest: never saved, or deleted. */
  DOES_NOT_EXIST,
  /** The manifest was written and contents are being stored. */
  IN_PROGRESS,
  /** Every file is stored and listed in the manifest. */
  COMPLETED,
  /** Saving failed, or the backup was marked failed (for example LEADER_CHANGED). */
  FAILED
}
