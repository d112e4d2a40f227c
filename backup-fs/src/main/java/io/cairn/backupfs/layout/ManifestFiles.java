package io.cairn.backupfs.layout;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestCodec;
import io.cairn.files.DurableFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads and writes manifests at their place in the {@link StoreLayout}. Writes are atomic (temp
 * file, fsync, rename, fsync of the directory). Callers hold the backup's lock for any
 * read-modify-write.
 */
public final class ManifestFiles {

  private final StoreLayout layout;
  private final ManifestCodec codec = new ManifestCodec();

  public ManifestFiles(StoreLayout layout) {
    this.layout = layout;
  }

  /**
   * @return the manifest, or empty if there is none
   * @throws io.cairn.backupapi.ManifestException if it cannot be trusted
   */
  public Optional<Manifest> read(BackupIdentifier id) throws IOException {
    Path file = layout.manifestFile(id);
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    return Optional.of(codec.decode(bytes, layout.describe(file), id));
  }

  /** Writes (or replaces) the manifest atomically and durably. */
  public void write(Manifest manifest) throws IOException {
    Path file = layout.manifestFile(manifest.id());
    DurableFiles.writeAtomically(file, codec.encode(manifest));
  }

  /** Deletes the manifest (durably); a missing one is fine. */
  public void delete(BackupIdentifier id) throws IOException {
    Path dir = layout.manifestDirectory(id);
    Files.deleteIfExists(dir.resolve(StoreLayout.MANIFEST_FILE + ".tmp"));
    if (Files.deleteIfExists(dir.resolve(StoreLayout.MANIFEST_FILE))) {
      DurableFiles.fsyncDirectory(dir);
    }
  }
}
