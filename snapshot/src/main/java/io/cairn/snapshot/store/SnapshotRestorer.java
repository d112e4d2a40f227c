package io.cairn.snapshot.store;

import io.cairn.files.DurableFiles;
import io.cairn.snapshot.CorruptedSnapshotException;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotException;
import io.cairn.snapshot.SnapshotMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * Installs a snapshot from a set of its files (fetched from a backup): every file is copied into a
 * transient directory and checked against the checksum file on the way, then the directory is
 * committed like a taken snapshot.
 */
final class SnapshotRestorer {

  private final FileSnapshotStore store;

  SnapshotRestorer(FileSnapshotStore store) {
    this.store = store;
  }

  PersistedSnapshot restore(Collection<Path> files) {
    Map<String, Path> byName = byName(files);
    String source = "being restored from " + describeSource(byName);
    Path checksumPath = byName.get(SnapshotLayout.CHECKSUM_FILE);
    if (checksumPath == null) {
      throw new CorruptedSnapshotException(
          source, SnapshotLayout.CHECKSUM_FILE, "to be among the given files", "no such file");
    }
    byte[] checksumBytes;
    ChecksumFile checksums;
    try {
      checksumBytes = Files.readAllBytes(checksumPath);
    } catch (IOException e) {
      throw new SnapshotException(
          "Expected to read " + checksumPath + " for a snapshot restore, but " + e, e);
    }
    try {
      checksums = ChecksumFile.decode(checksumBytes);
    } catch (IllegalArgumentException e) {
      throw new CorruptedSnapshotException(
          source, SnapshotLayout.CHECKSUM_FILE, "a valid checksum file", e.getMessage());
    }
    for (Map.Entry<String, ChecksumFile.Entry> listed : checksums.entries().entrySet()) {
      if (!byName.containsKey(listed.getKey())) {
        throw new CorruptedSnapshotException(
            source, listed.getKey(), listed.getValue().describe(), "no such file among the given");
      }
    }
    for (String name : byName.keySet()) {
      if (!name.equals(SnapshotLayout.CHECKSUM_FILE) && !checksums.entries().containsKey(name)) {
        throw new CorruptedSnapshotException(
            source, name, "no such file (it is not in the checksum file)", "a given file");
      }
    }
    Path directory = store.newTransientPath("restore");
    try {
      Files.createDirectory(directory);
      for (Map.Entry<String, ChecksumFile.Entry> listed : checksums.entries().entrySet()) {
        FileChecksums.Checksum actual;
        try {
          actual =
              FileChecksums.copy(byName.get(listed.getKey()), directory.resolve(listed.getKey()));
        } catch (NoSuchFileException e) {
          throw new CorruptedSnapshotException(
              source, listed.getKey(), listed.getValue().describe(), "no such file");
        }
        if (!actual.toEntry().equals(listed.getValue())) {
          throw new CorruptedSnapshotException(
              source, listed.getKey(), listed.getValue().describe(), actual.toEntry().describe());
        }
      }
      DurableFiles.writeNew(directory.resolve(SnapshotLayout.CHECKSUM_FILE), checksumBytes);
      SnapshotMetadata metadata = SnapshotReader.readMetadata(directory, source, checksums);
      DurableFiles.fsyncDirectory(directory);
      store.phase(SnapshotPhase.CHECKSUM_FILE_WRITTEN, metadata.id());
      return store.commit(directory, metadata, checksums, checksumBytes);
    } catch (IOException e) {
      store.deleteQuietly(directory);
      throw new SnapshotException(
          "Expected to restore a snapshot from " + describeSource(byName) + ", but " + e, e);
    } catch (RuntimeException e) {
      store.deleteQuietly(directory);
      throw e;
    }
  }

  private static Map<String, Path> byName(Collection<Path> files) {
    Map<String, Path> byName = new TreeMap<>();
    for (Path file : files) {
      String name = file.getFileName() == null ? "" : file.getFileName().toString();
      if (!SnapshotLayout.isValidFileName(name)) {
        throw new IllegalArgumentException(
            "Expected snapshot files named with [A-Za-z0-9._-], but got " + file);
      }
      if (byName.put(name, file) != null) {
        throw new IllegalArgumentException(
            "Expected each snapshot file name once, but '" + name + "' is given twice");
      }
    }
    return byName;
  }

  private static String describeSource(Map<String, Path> byName) {
    return byName.values().stream()
        .map(Path::getParent)
        .filter(java.util.Objects::nonNull)
        .distinct()
        .map(Path::toString)
        .sorted()
        .reduce((a, b) -> a + ", " + b)
        .orElse("no files");
  }
}
