package io.cairn.backuptestkit;

/**
 * The contract every {@link io.cairn.backupapi.BackupStore} runs: extend this class, implement the
 * hooks of {@link BackupStoreTestKitSupport}, and every contract test runs against the store.
 *
 * <p>What it proves, by group:
 *
 * <ul>
 *   <li>{@link LifecycleContractTests}: save and status with descriptor and timestamps; a save
 *       never overwrites an existing backup (COMPLETED, FAILED or IN_PROGRESS); markFailed on a
 *       missing, in-progress, failed (idempotent) and completed backup; conditional completion (a
 *       backup marked FAILED during its save ends FAILED); delete refuses IN_PROGRESS and a running
 *       save, succeeds on missing; a short or missing source fails the backup.
 *   <li>{@link ContentContractTests}: byte-identical restore with progress, only the fixed-length
 *       prefix of a growing file is stored; verify finds corrupted, missing and truncated objects,
 *       all at once; a corrupt restore is undone and names the file; hostile manifest names and an
 *       unknown major version are refused, unknown fields ignored; compression on and off.
 *   <li>{@link ReuseContractTests}: equal files of the previous backup are reused, counted in the
 *       save result, and each backup survives deleting the other.
 *   <li>{@link EncryptionContractTests}: an encrypted backup stores only ciphertext (compressed
 *       first), restores byte-identical and verifies clean; a flipped byte is a checksum mismatch
 *       naming the file and undoes the restore; a wrong or missing master key and a changed
 *       manifest are refused before anything is written; a rotated key keeps old backups readable;
 *       reuse only under the same key; plain backups stay readable.
 *   <li>{@link ListingContractTests}: listing by node, partition, exact id and id prefix, paging
 *       through everything exactly once, concurrent saves of different partitions, and a corrupt
 *       (bit-flipped or truncated) manifest listed as FAILED naming its path while the other
 *       backups are listed.
 *   <li>{@link ArchiveContractTests}: the log archive's objects are written once (of concurrent
 *       creators of a key exactly one wins), read back, listed in key order after a key and only of
 *       their directory, deleted, and bad keys refused; a {@link
 *       io.cairn.backupapi.archive.LogArchive} chain over them reads back from any index, a second
 *       writer from the same tail loses, and a gap, a changed link and a corrupt chunk are refused
 *       naming the partition and the index or object.
 * </ul>
 *
 * Tests that need a named pipe ({@link FifoGate}) are skipped where {@code mkfifo} is missing.
 */
public abstract class BackupStoreTestKit extends ArchiveContractTests {}
