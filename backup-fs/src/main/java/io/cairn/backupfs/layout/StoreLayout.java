package io.cairn.backupfs.layout;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.FileSetKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongPredicate;
import java.util.regex.Pattern;

/**
 * Where the filesystem store keeps things under its base path:
 *
 * <pre>
 * manifests/&lt;partitionId&gt;/&lt;checkpointId&gt;/&lt;nodeId&gt;/manifest.json
 * contents/&lt;partitionId&gt;/&lt;checkpointId&gt;/&lt;nodeId&gt;/snapshot/&lt;name&gt;
 * contents/&lt;partitionId&gt;/&lt;checkpointId&gt;/&lt;nodeId&gt;/segments/&lt;name&gt;
 * contents/&lt;partitionId&gt;/&lt;checkpointId&gt;/&lt;nodeId&gt;/tmp/      (only while saving)
 * archive/&lt;key&gt;                                     (the log archive's objects)
 * </pre>
 *
 * Manifests have their own tree, so listing reads directory names and the manifests of one page,
 * never the contents. Stored objects are never rewritten once renamed into place.
 */
public final class StoreLayout {

  public static final String MANIFESTS = "manifests";
  public static final String CONTENTS = "contents";
  public static final String MANIFEST_FILE = "manifest.json";
  public static final String TEMP = "tmp";
  public static final String ARCHIVE = "archive";

  private static final Pattern NUMBER = Pattern.compile("0|[1-9][0-9]{0,18}");

  private final Path basePath;
  private final Path manifests;
  private final Path contents;

  public StoreLayout(Path basePath) {
    this.basePath = basePath;
    this.manifests = basePath.resolve(MANIFESTS);
    this.contents = basePath.resolve(CONTENTS);
  }

  public Path basePath() {
    return basePath;
  }

  public Path manifestsRoot() {
    return manifests;
  }

  public Path contentsRoot() {
    return contents;
  }

  /**
   * The file of a log archive object; {@code key} must follow {@link
   * io.cairn.backupapi.ObjectNames} (the store checks keys before they get here).
   */
  public Path archiveObject(String key) {
    Path archive = basePath.resolve(ARCHIVE);
    Path file = archive.resolve(key).normalize();
    if (!file.startsWith(archive) || file.equals(archive)) {
      throw new IllegalArgumentException(
          "Expected archive key '" + key + "' to name a file inside " + archive);
    }
    return file;
  }

  public Path manifestDirectory(BackupIdentifier id) {
    return manifests.resolve(relative(id));
  }

  public Path manifestFile(BackupIdentifier id) {
    return manifestDirectory(id).resolve(MANIFEST_FILE);
  }

  public Path contentsDirectory(BackupIdentifier id) {
    return contents.resolve(relative(id));
  }

  public Path fileSetDirectory(BackupIdentifier id, FileSetKind kind) {
    return contentsDirectory(id).resolve(kind.directoryName());
  }

  /**
   * The stored object of a file. {@code name} must follow {@link io.cairn.backupapi.ObjectNames}
   * (manifests and backups are validated before they get here); this checks again that the result
   * stays inside its file set's directory.
   */
  public Path object(BackupIdentifier id, FileSetKind kind, String name) {
    Path dir = fileSetDirectory(id, kind);
    Path object = dir.resolve(name).normalize();
    if (!object.startsWith(dir) || object.equals(dir)) {
      throw new IllegalArgumentException(
          "Expected an object name inside " + dir + ", but '" + name + "' resolves to " + object);
    }
    return object;
  }

  public Path tempDirectory(BackupIdentifier id) {
    return contentsDirectory(id).resolve(TEMP);
  }

  /** A path relative to the base path, for messages. */
  public String describe(Path path) {
    return path.startsWith(basePath) ? basePath.relativize(path).toString() : path.toString();
  }

  /**
   * The identifiers of every backup with a manifest that matches {@code wildcard}, sorted. Reads
   * directory entries only: the cost grows with the number of backups, not of files.
   */
  public List<BackupIdentifier> listIdentifiers(BackupIdentifierWildcard wildcard) {
    List<BackupIdentifier> ids = new ArrayList<>();
    for (long partition :
        children(
            manifests,
            wildcard.partitionId().map(Integer::longValue),
            p -> p >= 1 && p <= Integer.MAX_VALUE)) {
      Path partitionDir = manifests.resolve(Long.toString(partition));
      for (long checkpoint :
          children(
              partitionDir,
              wildcard.checkpointPattern().exactId(),
              c -> c >= 1 && wildcard.checkpointPattern().matches(c))) {
        Path checkpointDir = partitionDir.resolve(Long.toString(checkpoint));
        for (long node :
            children(
                checkpointDir,
                wildcard.nodeId().map(Integer::longValue),
                n -> n <= Integer.MAX_VALUE)) {
          Path manifest = checkpointDir.resolve(Long.toString(node)).resolve(MANIFEST_FILE);
          if (Files.isRegularFile(manifest)) {
            ids.add(new BackupIdentifier((int) node, (int) partition, checkpoint));
          }
        }
      }
    }
    ids.sort(null);
    return ids;
  }

  /** Numeric child directory names of {@code dir}: just {@code only} if given, else all. */
  private static List<Long> children(Path dir, Optional<Long> only, LongPredicate accept) {
    List<Long> result = new ArrayList<>();
    if (only.isPresent()) {
      if (accept.test(only.get()) && Files.isDirectory(dir.resolve(Long.toString(only.get())))) {
        result.add(only.get());
      }
      return result;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (NUMBER.matcher(name).matches()) {
          long value;
          try {
            value = Long.parseLong(name);
          } catch (NumberFormatException e) {
            continue; // beyond Long.MAX_VALUE: not a directory this store made
          }
          if (accept.test(value) && Files.isDirectory(entry)) {
            result.add(value);
          }
        }
      }
    } catch (NoSuchFileException e) {
      return result;
    } catch (IOException e) {
      throw new UncheckedIOException("Expected to list " + dir + ", but " + e.getMessage(), e);
    }
    return result;
  }

  private static Path relative(BackupIdentifier id) {
    return Path.of(
        Integer.toString(id.partitionId()),
        Long.toString(id.checkpointId()),
        Integer.toString(id.nodeId()));
  }
}
