package io.cairn.snapshot.store;

import io.cairn.files.DurableFiles;
import io.cairn.snapshot.CorruptedSnapshotException;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotFile;
import io.cairn.snapshot.SnapshotId;
import io.cairn.snapshot.SnapshotMetadata;
import io.cairn.snapshot.SnapshotMetrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads snapshot directories: the quick structural check done at open, and the full check of every
 * byte done before a snapshot is used.
 */
final class SnapshotReader {

  /** What a directory in the snapshots directory turned out to be. */
  sealed interface LoadResult {
    /** A snapshot whose structure is right (contents not read yet). */
    record Loaded(PersistedSnapshot snapshot) implements LoadResult {}

    /** No valid checksum file: never completed, not a snapshot. */
    record NotASnapshot(String reason) implements LoadResult {}

    /** A valid checksum file that the directory does not match. */
    record Corrupt(CorruptedSnapshotException cause) implements LoadResult {}
  }

  private static final Logger LOG = LoggerFactory.getLogger(SnapshotReader.class);

  private SnapshotReader() {}

  /**
   * At open: creates the store's directories, deletes leftover transient directories and everything
   * in the snapshots directory that is not a snapshot (WARN) or is corrupt (ERROR), and returns the
   * snapshots found.
   */
  static List<PersistedSnapshot> scan(SnapshotLayout layout, SnapshotMetrics metrics)
      throws IOException {
    Files.createDirectories(layout.snapshotsDirectory());
    Files.createDirectories(layout.transientDirectory());
    for (Path leftover : DurableFiles.list(layout.transientDirectory())) {
      LOG.warn(
          "Deleting leftover transient snapshot directory {}: a snapshot being taken, received,"
              + " restored or deleted when the store last stopped",
          leftover);
      DurableFiles.deleteRecursively(leftover);
    }
    List<PersistedSnapshot> found = new ArrayList<>();
    for (Path entry : DurableFiles.list(layout.snapshotsDirectory())) {
      Optional<SnapshotId> id = SnapshotId.tryParse(entry.getFileName().toString());
      if (id.isEmpty() || !Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
        LOG.warn("Deleting {}: not a snapshot, its name is not a snapshot id", entry);
        DurableFiles.deleteRecursively(entry);
        continue;
      }
      LoadResult result = load(entry, id.get());
      if (result instanceof LoadResult.Loaded loaded) {
        found.add(loaded.snapshot());
      } else if (result instanceof LoadResult.NotASnapshot not) {
        LOG.warn("Deleting {}: not a snapshot, {}", entry, not.reason());
        DurableFiles.deleteRecursively(entry);
      } else if (result instanceof LoadResult.Corrupt corrupt) {
        LOG.error("Deleting corrupt snapshot {}: {}", entry, corrupt.cause().getMessage());
        metrics.corruptionFound();
        DurableFiles.deleteRecursively(entry);
      }
    }
    return found;
  }

  /**
   * Checks a committed snapshot directory without reading the state: the checksum file is valid,
   * the files are exactly those it lists with the listed sizes, and the metadata file matches its
   * CRC32C, parses and names {@code id}.
   */
  static LoadResult load(Path directory, SnapshotId id) throws IOException {
    Path checksumPath = directory.resolve(SnapshotLayout.CHECKSUM_FILE);
    if (!DurableFiles.isRegularFile(checksumPath)) {
      return new LoadResult.NotASnapshot("it has no checksum file");
    }
    byte[] checksumBytes = Files.readAllBytes(checksumPath);
    ChecksumFile checksums;
    try {
      checksums = ChecksumFile.decode(checksumBytes);
    } catch (IllegalArgumentException e) {
      return new LoadResult.NotASnapshot(e.getMessage());
    }
    try {
      return new LoadResult.Loaded(checkStructure(directory, id, checksums, checksumBytes));
    } catch (CorruptedSnapshotException e) {
      return new LoadResult.Corrupt(e);
    }
  }

  /**
   * Checks that {@code directory} holds exactly the listed files with the listed sizes and a valid
   * metadata file for {@code expectedId} (or any id, if null).
   *
   * @return the snapshot as found
   * @throws CorruptedSnapshotException naming the first file that does not match
   */
  static PersistedSnapshot checkStructure(
      Path directory, SnapshotId expectedId, ChecksumFile checksums, byte[] checksumBytes)
      throws IOException {
    String name = directory.getFileName().toString();
    TreeSet<String> present = new TreeSet<>();
    for (Path path : DurableFiles.list(directory)) {
      String fileName = path.getFileName().toString();
      if (fileName.equals(SnapshotLayout.CHECKSUM_FILE)) {
        continue;
      }
      if (!DurableFiles.isRegularFile(path) || !checksums.entries().containsKey(fileName)) {
        throw new CorruptedSnapshotException(
            name,
            fileName,
            "no such entry (it is not in the checksum file)",
            DurableFiles.isRegularFile(path) ? Files.size(path) + " bytes" : "a non-file entry");
      }
      present.add(fileName);
    }
    for (Map.Entry<String, ChecksumFile.Entry> listed : checksums.entries().entrySet()) {
      if (!present.contains(listed.getKey())) {
        throw new CorruptedSnapshotException(
            name, listed.getKey(), listed.getValue().describe(), "no such file");
      }
      long size = Files.size(directory.resolve(listed.getKey()));
      if (size != listed.getValue().sizeBytes()) {
        throw new CorruptedSnapshotException(
            name, listed.getKey(), listed.getValue().describe(), size + " bytes");
      }
    }
    SnapshotMetadata metadata = readMetadata(directory, name, checksums);
    if (expectedId != null && !metadata.id().equals(expectedId)) {
      throw new CorruptedSnapshotException(
          name,
          SnapshotLayout.METADATA_FILE,
          "the id " + expectedId + " of its directory",
          "the id " + metadata.id());
    }
    return snapshotAt(directory, metadata, checksums, checksumBytes);
  }

  /** The snapshot in {@code directory} as its checksum file describes it (no I/O). */
  static PersistedSnapshot snapshotAt(
      Path directory, SnapshotMetadata metadata, ChecksumFile checksums, byte[] checksumBytes) {
    List<SnapshotFile> files = new ArrayList<>();
    for (Map.Entry<String, ChecksumFile.Entry> entry : checksums.entries().entrySet()) {
      files.add(
          new SnapshotFile(
              entry.getKey(),
              directory.resolve(entry.getKey()),
              entry.getValue().sizeBytes(),
              entry.getValue().crc32c()));
    }
    long checksum = ChecksumFile.crc32c(checksumBytes);
    files.add(
        new SnapshotFile(
            SnapshotLayout.CHECKSUM_FILE,
            directory.resolve(SnapshotLayout.CHECKSUM_FILE),
            checksumBytes.length,
            checksum));
    files.sort(Comparator.comparing(SnapshotFile::name));
    return new PersistedSnapshot(metadata, directory, files, checksum);
  }

  /** Reads the metadata file and checks it against its checksum file entry. */
  static SnapshotMetadata readMetadata(Path directory, String name, ChecksumFile checksums)
      throws IOException {
    ChecksumFile.Entry entry = checksums.entries().get(SnapshotLayout.METADATA_FILE);
    if (entry == null) {
      throw new CorruptedSnapshotException(
          name, SnapshotLayout.METADATA_FILE, "an entry in the checksum file", "none");
    }
    byte[] content = Files.readAllBytes(directory.resolve(SnapshotLayout.METADATA_FILE));
    long crc = ChecksumFile.crc32c(content);
    if (content.length != entry.sizeBytes() || crc != entry.crc32c()) {
      throw new CorruptedSnapshotException(
          name,
          SnapshotLayout.METADATA_FILE,
          entry.describe(),
          content.length + " bytes with CRC32C " + ChecksumFile.hex(crc));
    }
    try {
      return MetadataCodec.decode(content);
    } catch (IllegalArgumentException e) {
      throw new CorruptedSnapshotException(
          name,
          SnapshotLayout.METADATA_FILE,
          "valid metadata",
          "invalid content: " + e.getMessage());
    }
  }

  /**
   * Reads every file of a snapshot and compares its size and CRC32C with what the snapshot records.
   *
   * @throws CorruptedSnapshotException naming the first file that does not match
   */
  static void verifyContents(PersistedSnapshot snapshot) throws IOException {
    for (SnapshotFile file : snapshot.files()) {
      FileChecksums.Checksum actual;
      try {
        actual = FileChecksums.checksum(file.path());
      } catch (java.nio.file.NoSuchFileException e) {
        throw new CorruptedSnapshotException(
            snapshot.id().toString(), file.name(), describe(file), "no such file");
      }
      check(snapshot, file, actual);
    }
  }

  /** Compares what was read or copied with what the snapshot records. */
  static void check(PersistedSnapshot snapshot, SnapshotFile file, FileChecksums.Checksum actual) {
    if (actual.sizeBytes() != file.sizeBytes() || actual.crc32c() != file.crc32c()) {
      throw new CorruptedSnapshotException(
          snapshot.id().toString(),
          file.name(),
          describe(file),
          actual.sizeBytes() + " bytes with CRC32C " + ChecksumFile.hex(actual.crc32c()));
    }
  }

  static String describe(SnapshotFile file) {
    return file.sizeBytes() + " bytes with CRC32C " + file.crc32cHex();
  }
}
