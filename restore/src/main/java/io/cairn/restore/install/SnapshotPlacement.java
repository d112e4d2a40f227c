package io.cairn.restore.install;

import io.cairn.backupapi.BackupFile;
import io.cairn.files.DurableFiles;
import io.cairn.scheduler.Clock;
import io.cairn.snapshot.CorruptedSnapshotException;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotConfig;
import io.cairn.snapshot.SnapshotException;
import io.cairn.snapshot.SnapshotId;
import io.cairn.snapshot.SnapshotMetadata;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.snapshot.store.ChecksumFile;
import io.cairn.snapshot.store.MetadataCodec;
import io.cairn.snapshot.store.SnapshotLayout;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * Installs a downloaded snapshot into a partition's snapshot store by <b>moving</b> its files
 * there, where {@link SnapshotStore#restore} would copy every byte a second time. It checks what
 * that method checks, before anything is moved:
 *
 * <ul>
 *   <li>the checksum file is among the files and valid, and lists exactly the other files;
 *   <li>every listed file has the listed size and CRC32C (each file is read once, from the page
 *       cache the download just filled);
 *   <li>the metadata file decodes and names the snapshot the backup's descriptor records.
 * </ul>
 *
 * Then it commits the files the way the store commits a snapshot ({@link SnapshotLayout}): into a
 * new directory under {@code transient/}, fsync of that directory, atomic rename to {@code
 * snapshots/<id>}, fsync of {@code snapshots/} and of the store's root. The files' contents need no
 * fsync: {@link io.cairn.backupapi.BackupStore#restore} fsynced each once, and a rename within the
 * file system keeps the inode. Last it opens the snapshot store on the result, which checks the
 * committed directory's structure (files, sizes, metadata) itself, and returns the snapshot the
 * store sees.
 *
 * <p>The downloaded files must be on the same file system as the store (the restore stages them
 * inside the data directory), so every move is a rename.
 */
final class SnapshotPlacement {

  private static final int CRC_BUFFER_BYTES = 1 << 20;

  private SnapshotPlacement() {}

  /**
   * @param storeRoot the partition's snapshot store directory; holds no snapshot
   * @param files the downloaded snapshot files (names already checked as snapshot file names)
   * @param expectedId the snapshot id the backup's descriptor records
   * @throws CorruptedSnapshotException naming the file, if the files do not make that snapshot
   *     (nothing is moved then)
   * @throws SnapshotException if the store does not see the installed snapshot
   * @throws IOException if the file system fails
   */
  static PersistedSnapshot install(
      Path storeRoot,
      List<BackupFile> files,
      String expectedId,
      Clock clock,
      MeterRegistry meters,
      Tags tags)
      throws IOException {
    Map<String, Path> byName = new TreeMap<>();
    files.forEach(file -> byName.put(file.name(), file.path()));
    SnapshotId id = check(byName, expectedId);
    SnapshotLayout layout = new SnapshotLayout(storeRoot);
    Files.createDirectories(layout.snapshotsDirectory());
    Files.createDirectories(layout.transientDirectory());
    Path building = layout.transientDirectory().resolve("restore-" + id);
    Files.createDirectory(building);
    for (Map.Entry<String, Path> file : byName.entrySet()) {
      Files.move(file.getValue(), building.resolve(file.getKey()), StandardCopyOption.ATOMIC_MOVE);
    }
    DurableFiles.fsyncDirectory(building);
    Files.move(
        building,
        layout.snapshotsDirectory().resolve(id.toString()),
        StandardCopyOption.ATOMIC_MOVE);
    DurableFiles.fsyncDirectory(layout.snapshotsDirectory());
    DurableFiles.fsyncDirectory(layout.root());
    try (SnapshotStore store =
        SnapshotStore.open(storeRoot, SnapshotConfig.defaults(), clock, meters, tags)) {
      List<PersistedSnapshot> found = store.snapshots();
      if (found.size() != 1 || !found.get(0).id().equals(id)) {
        throw new SnapshotException(
            "Expected the snapshot store in "
                + storeRoot
                + " to hold exactly the installed snapshot "
                + id
                + ", but it holds "
                + found.stream().map(PersistedSnapshot::id).toList());
      }
      return found.get(0);
    }
  }

  /** Everything {@link SnapshotStore#restore} checks; returns the snapshot's id. */
  private static SnapshotId check(Map<String, Path> byName, String expectedId) throws IOException {
    Path checksumPath = byName.get(SnapshotLayout.CHECKSUM_FILE);
    if (checksumPath == null) {
      throw new CorruptedSnapshotException(
          expectedId, SnapshotLayout.CHECKSUM_FILE, "a copy in the backup", "none");
    }
    ChecksumFile checksums;
    try {
      checksums = ChecksumFile.decode(Files.readAllBytes(checksumPath));
    } catch (IllegalArgumentException e) {
      throw new CorruptedSnapshotException(
          expectedId, SnapshotLayout.CHECKSUM_FILE, "a valid checksum file", e.getMessage());
    }
    for (String name : byName.keySet()) {
      if (!name.equals(SnapshotLayout.CHECKSUM_FILE) && !checksums.entries().containsKey(name)) {
        throw new CorruptedSnapshotException(
            expectedId, name, "no copy in the backup (it is not in the checksum file)", "one");
      }
    }
    ByteBuffer buffer = ByteBuffer.allocateDirect(CRC_BUFFER_BYTES);
    for (Map.Entry<String, ChecksumFile.Entry> listed : checksums.entries().entrySet()) {
      Path path = byName.get(listed.getKey());
      if (path == null) {
        throw new CorruptedSnapshotException(
            expectedId, listed.getKey(), listed.getValue().describe(), "no copy in the backup");
      }
      ChecksumFile.Entry actual = checksum(path, buffer);
      if (!actual.equals(listed.getValue())) {
        throw new CorruptedSnapshotException(
            expectedId, listed.getKey(), listed.getValue().describe(), actual.describe());
      }
    }
    Path metadataPath = byName.get(SnapshotLayout.METADATA_FILE);
    if (metadataPath == null) {
      throw new CorruptedSnapshotException(
          expectedId, SnapshotLayout.METADATA_FILE, "an entry in the checksum file", "none");
    }
    SnapshotMetadata metadata;
    try {
      metadata = MetadataCodec.decode(Files.readAllBytes(metadataPath));
    } catch (IllegalArgumentException e) {
      throw new CorruptedSnapshotException(
          expectedId,
          SnapshotLayout.METADATA_FILE,
          "valid metadata",
          "invalid content: " + e.getMessage());
    }
    if (!metadata.id().toString().equals(expectedId)) {
      throw new CorruptedSnapshotException(
          expectedId,
          SnapshotLayout.METADATA_FILE,
          "the id " + expectedId + " the backup's descriptor records",
          "the id " + metadata.id());
    }
    return metadata.id();
  }

  /** Size and CRC32C of a file as read. */
  private static ChecksumFile.Entry checksum(Path file, ByteBuffer buffer) throws IOException {
    CRC32C crc = new CRC32C();
    long size = 0;
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      while (channel.read(buffer.clear()) >= 0) {
        buffer.flip();
        size += buffer.remaining();
        crc.update(buffer);
      }
    }
    return new ChecksumFile.Entry(size, crc.getValue());
  }
}
