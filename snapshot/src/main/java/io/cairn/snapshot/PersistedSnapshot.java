package io.cairn.snapshot;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A committed snapshot: complete, checksummed, in the store's snapshots directory. Immutable.
 *
 * <p>Its files can disappear once retention deletes it: read them only while holding a {@link
 * SnapshotReservation} on it.
 *
 * @param metadata what the snapshot's metadata file says
 * @param directory the snapshot's directory, named by its id
 * @param files every file in the directory, by name: the state, the metadata file and the checksum
 *     file (whose CRC32C is {@link #checksum()})
 * @param checksum the whole-snapshot checksum: CRC32C of the checksum file's content, unsigned
 */
public record PersistedSnapshot(
    SnapshotMetadata metadata, Path directory, List<SnapshotFile> files, long checksum) {

  public PersistedSnapshot {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(directory, "directory");
    files = List.copyOf(files);
  }

  public SnapshotId id() {
    return metadata.id();
  }

  public long index() {
    return metadata.index();
  }

  public long term() {
    return metadata.term();
  }

  /** The sum of every file's size. */
  public long sizeBytes() {
    long total = 0;
    for (SnapshotFile file : files) {
      total += file.sizeBytes();
    }
    return total;
  }

  @Override
  public String toString() {
    return "PersistedSnapshot{" + id() + ", files=" + files.size() + ", bytes=" + sizeBytes() + '}';
  }
}
