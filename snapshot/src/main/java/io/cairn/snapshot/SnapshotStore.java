package io.cairn.snapshot;

import io.cairn.scheduler.Clock;
import io.cairn.snapshot.store.FileSnapshotStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The snapshots of one partition: taking them (transient, then persisted atomically), reserving
 * them, retention, the log compaction bound, verified recovery, replication in chunks, and
 * installation from backup files.
 *
 * <p><b>What exists.</b> A snapshot exists iff its directory in the snapshots directory is named by
 * a valid {@link SnapshotId} and holds a valid checksum file (written last, before the atomic
 * rename). Anything else found at open — a directory without a valid checksum file, leftover
 * transient directories — is deleted with a WARN.
 *
 * <p><b>Reservations and retention.</b> Retention keeps the newest {@link
 * SnapshotConfig#retainedSnapshotCount()} snapshots plus every reserved one, and the newest
 * snapshot's base while it needs one: the newest older snapshot that {@linkplain
 * SnapshotId#isBaseFor stands in} for it when its follow-ups reach past its processed position (a
 * command appended among them, a checkpoint say, needs a snapshot wholly below it), or while it has
 * none the oldest older snapshot, the first to become one. It runs after every persist, every
 * release, every snapshot found corrupt and at open. A reserved snapshot is never deleted.
 * Reserving a snapshot that no longer exists (or is being deleted) fails with {@link
 * SnapshotNotFoundException}.
 *
 * <p><b>Compaction bound.</b> {@link #compactionBoundIndex()} is the minimum over every existing
 * snapshot's index (kept and reserved) and every open {@link CompactionHold}; 1 (keep everything)
 * when there is no snapshot, or while the newest needs a base and has none (a checkpoint among its
 * follow-ups can then be backed up only from the log's start).
 *
 * <p><b>Threads.</b> Thread-safe: the partition's actors and a backup uploader use it at once. One
 * lock inside the store guards the set of snapshots, reservations, holds and the renames into and
 * out of the snapshots directory; checksumming, copying, fsyncing and deleting file contents run
 * outside it, on the caller's thread.
 */
public interface SnapshotStore extends AutoCloseable {

  /**
   * Opens the store in {@code directory} (created if missing): deletes leftovers, loads the
   * snapshots, applies retention.
   *
   * @param meterTags tags added to every meter, e.g. {@code partition}
   * @throws SnapshotException if the directory cannot be read or cleaned
   */
  static SnapshotStore open(
      Path directory,
      SnapshotConfig config,
      Clock clock,
      MeterRegistry registry,
      Iterable<Tag> meterTags) {
    return FileSnapshotStore.open(directory, config, clock, registry, meterTags);
  }

  /** The newest snapshot, if any. */
  Optional<PersistedSnapshot> latestSnapshot();

  /** Every snapshot, oldest first (corrupt ones excluded). */
  List<PersistedSnapshot> snapshots();

  /**
   * Starts taking a snapshot with the given metadata; see {@link TransientSnapshot}.
   *
   * @throws StaleSnapshotException if {@code metadata.id()} is not newer than the latest snapshot
   */
  TransientSnapshot newTransientSnapshot(SnapshotMetadata metadata);

  /**
   * Reserves a snapshot; see {@link SnapshotReservation}.
   *
   * @throws SnapshotNotFoundException if it does not exist, is being deleted or is corrupt
   */
  SnapshotReservation reserve(SnapshotId id);

  /**
   * Reserves the newest snapshot that satisfies {@code eligible}, atomically: no snapshot can be
   * deleted between the choice and the reservation. A backup reserves this way, with "processed and
   * last written positions below the checkpoint position", before it talks to its store.
   *
   * @return the reservation, or empty if no snapshot is eligible
   */
  Optional<SnapshotReservation> reserveNewest(Predicate<? super PersistedSnapshot> eligible);

  /**
   * Keeps the log from being compacted at or above {@code index} until the hold is closed.
   *
   * @param name who holds it, for diagnostics
   * @param index at least 1
   */
  CompactionHold registerCompactionHold(String name, long index);

  /**
   * The lowest log index that must be kept: entries at or above it are still needed by a kept or
   * reserved snapshot, or a compaction hold. 1 when there is no snapshot, or while the newest needs
   * a base and has none.
   */
  long compactionBoundIndex();

  /**
   * Reads every file of the snapshot and checks its size and CRC32C against the checksum file. A
   * mismatch marks the snapshot corrupt (ERROR naming file, expected and actual): it is no longer
   * offered and is deleted once unreserved.
   *
   * @throws SnapshotNotFoundException if it does not exist
   * @throws CorruptedSnapshotException on a mismatch
   */
  void verify(SnapshotId id);

  /**
   * Copies the state files of the newest valid snapshot into {@code target}, verifying every byte
   * copied against the checksum file, so the copy can be opened as a database. A snapshot that does
   * not match is marked corrupt (ERROR naming file, expected and actual) and the next older one is
   * tried; when none is left the result is empty and the caller replays the whole log. Corrupt
   * state is never left in {@code target}.
   *
   * @param target a directory that does not exist yet; its parent exists
   * @return the snapshot whose state is now in {@code target}, or empty (then {@code target} does
   *     not exist)
   * @throws IllegalArgumentException if {@code target} exists
   * @throws SnapshotException if the file system fails
   */
  Optional<PersistedSnapshot> copyForRecovery(Path target);

  /**
   * Installs a snapshot from a complete set of its files (the checksum file, the metadata file and
   * the state files; file names are taken from the paths), as fetched from a backup. Every file is
   * copied and checked against the checksum file first; the snapshot is then persisted like a taken
   * one. If a snapshot with the same id exists already, it is returned.
   *
   * @throws CorruptedSnapshotException if a file does not match, one is missing or extra (nothing
   *     is installed)
   * @throws StaleSnapshotException if a newer snapshot exists
   * @throws SnapshotException if the file system fails
   */
  PersistedSnapshot restore(Collection<Path> files);

  /**
   * Opens a reader of the snapshot's chunks; it holds a reservation until closed.
   *
   * @throws SnapshotNotFoundException if the snapshot does not exist
   */
  SnapshotChunkReader openChunkReader(SnapshotId id);

  /** Starts receiving the snapshot of raft {@code index} and {@code term} from the leader. */
  SnapshotReceiver newReceiver(long index, long term);

  /**
   * Stops offering the store. Open reservations and holds stay valid objects but the files are left
   * as they are; transient snapshots are left for the next open to clean up. Idempotent.
   */
  @Override
  void close();
}
