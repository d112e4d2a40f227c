package io.cairn.backupapi;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An ordered set of files with unique names.
 *
 * @param files the files, in the order they were given
 */
public record NamedFileSet(List<BackupFile> files) {

  private static final NamedFileSet EMPTY = new NamedFileSet(List.of());

  public NamedFileSet {
    files = List.copyOf(files);
    Set<String> names = new HashSet<>();
    for (BackupFile file : files) {
      if (!names.add(file.name())) {
        throw new IllegalArgumentException(
            "Expected unique file names in a file set, but '"
                + file.name()
                + "' appears twice ("
                + file.path()
                + ")");
      }
    }
  }

  public static NamedFileSet empty() {
    return EMPTY;
  }

  public static NamedFileSet of(BackupFile... files) {
    return new NamedFileSet(List.of(files));
  }

  public int size() {
    return files.size();
  }

  public boolean isEmpty() {
    return files.isEmpty();
  }

  /** The sum of every file's fixed length. */
  public long totalBytes() {
    return files.stream().mapToLong(BackupFile::lengthBytes).sum();
  }

  public Optional<BackupFile> file(String name) {
    return files.stream().filter(f -> f.name().equals(name)).findFirst();
  }
}
