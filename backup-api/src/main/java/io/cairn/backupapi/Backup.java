package io.cairn.backupapi;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A partition backup to save, or one that was restored: its identifier, its descriptor, and the
 * snapshot and segment files. The descriptor's file and byte counts always match the file sets.
 *
 * <p>Build one with {@link #builder(BackupIdentifier)}, which computes the counts.
 */
public record Backup(
    BackupIdentifier id,
    BackupDescriptor descriptor,
    NamedFileSet snapshot,
    NamedFileSet segments) {

  public Backup {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(descriptor, "descriptor");
    Objects.requireNonNull(snapshot, "snapshot");
    Objects.requireNonNull(segments, "segments");
    if (!descriptor.identifier().equals(id)) {
      throw new IllegalArgumentException(
          "Expected the descriptor of " + id + ", but it describes " + descriptor.identifier());
    }
    int fileCount = snapshot.size() + segments.size();
    long sizeBytes = snapshot.totalBytes() + segments.totalBytes();
    if (descriptor.fileCount() != fileCount || descriptor.sizeBytes() != sizeBytes) {
      throw new IllegalArgumentException(
          "Expected the descriptor to count "
              + fileCount
              + " files of "
              + sizeBytes
              + " bytes, but it counts "
              + descriptor.fileCount()
              + " files of "
              + descriptor.sizeBytes()
              + " bytes ("
              + id
              + ")");
    }
    if (descriptor.snapshotId().isEmpty() && !snapshot.isEmpty()) {
      throw new IllegalArgumentException(
          "Expected no snapshot files in a log-only backup (no snapshotId), but got "
              + snapshot.size()
              + " ("
              + id
              + ")");
    }
  }

  /** The file set of that kind. */
  public NamedFileSet files(FileSetKind kind) {
    return kind == FileSetKind.SNAPSHOT ? snapshot : segments;
  }

  public static Builder builder(BackupIdentifier id) {
    return new Builder(id);
  }

  /** Builds a backup, computing the descriptor's file and byte counts from the file sets. */
  public static final class Builder {
    private final BackupIdentifier id;
    private long checkpointPosition = -1;
    private Optional<String> snapshotId = Optional.empty();
    private int numberOfPartitions;
    private String brokerVersion;
    private String stateDigest;
    private SortedMap<String, String> familyDigests = new TreeMap<>();
    private NamedFileSet snapshot = NamedFileSet.empty();
    private NamedFileSet segments = NamedFileSet.empty();

    private Builder(BackupIdentifier id) {
      this.id = Objects.requireNonNull(id, "id");
    }

    public Builder checkpointPosition(long position) {
      this.checkpointPosition = position;
      return this;
    }

    /** Sets the snapshot id and its files. */
    public Builder snapshot(String id, NamedFileSet files) {
      this.snapshotId = Optional.of(id);
      this.snapshot = files;
      return this;
    }

    public Builder numberOfPartitions(int count) {
      this.numberOfPartitions = count;
      return this;
    }

    public Builder brokerVersion(String version) {
      this.brokerVersion = version;
      return this;
    }

    public Builder stateDigest(String hex) {
      this.stateDigest = hex;
      return this;
    }

    /** The digest by column family of the state at the checkpoint (optional), lowercase hex. */
    public Builder familyDigests(Map<String, String> digests) {
      this.familyDigests = new TreeMap<>(digests);
      return this;
    }

    public Builder segments(NamedFileSet files) {
      this.segments = files;
      return this;
    }

    public Backup build() {
      var descriptor =
          new BackupDescriptor(
              id.checkpointId(),
              id.partitionId(),
              id.nodeId(),
              checkpointPosition,
              snapshotId,
              numberOfPartitions,
              brokerVersion,
              stateDigest,
              snapshot.size() + segments.size(),
              snapshot.totalBytes() + segments.totalBytes(),
              familyDigests);
      return new Backup(id, descriptor, snapshot, segments);
    }
  }
}
