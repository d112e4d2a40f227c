package io.cairn.backupfs;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupCorruptedException;
import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStoreException;
import io.cairn.backupapi.FileProblem;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.RestoreProgress;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backupfs.content.ContentChecker;
import io.cairn.backupfs.layout.DurableFiles;
import io.cairn.backupfs.layout.StoreLayout;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One restore: decode every stored file into {@code targetDir/snapshot} and {@code
 * targetDir/segments}, checking size and CRC32C, fsync; on any failure remove both directories.
 */
final class RestoreOperation {

  private static final Logger LOG = LoggerFactory.getLogger(RestoreOperation.class);
  /** Progress is reported at least every this many bytes, and at the end of every file. */
  private static final long PROGRESS_INTERVAL_BYTES = 4L * 1024 * 1024;

  private final FilesystemBackupStore store;
  private final StoreLayout layout;
  private final BackupIdentifier id;
  private final Path targetDir;
  private final RestoreProgressListener listener;

  private long totalBytesDone;
  private int filesDone;

  RestoreOperation(FilesystemBackupStore store, BackupIdentifier id, Path targetDir,
      RestoreProgressListener listener) {
    this.store = store;
    this.layout = store.layout();
    this.id = id;
    this.targetDir = targetDir.toAbsolutePath().normalize();
    this.listener = listener;
  }

  Backup run() throws IOException {
    Manifest manifest = store.readCompleted(id);
    BackupDescriptor descriptor = manifest.descriptor().orElseThrow();
    Files.createDirectories(targetDir);
    for (FileSetKind kind : FileSetKind.values()) {
      Path dir = targetDir.resolve(kind.directoryName());
      if (Files.exists(dir)) {
        throw new IllegalArgumentException("Expected no '" + kind.directoryName() + "' in the "
            + "restore target " + targetDir + ", but it exists (restore " + id + "). Restore "
            + "into an empty directory.");
      }
    }
    List<Path> created = new ArrayList<>();
    try {
      Map<FileSetKind, NamedFileSet> restored = new EnumMap<>(FileSetKind.class);
      for (FileSetKind kind : FileSetKind.values()) {
        Path dir = Files.createDirectory(targetDir.resolve(kind.directoryName()));
        created.add(dir);
        restored.put(kind, restoreSet(manifest, descriptor, kind, dir));
      }
      DurableFiles.fsyncDirectory(targetDir);
      store.metrics().restored(descriptor.sizeBytes());
      LOG.info("Restored backup {} into {}: {} files, {} bytes", id, targetDir,
          descriptor.fileCount(), descriptor.sizeBytes());
      return new Backup(id, descriptor, restored.get(FileSetKind.SNAPSHOT),
          restored.get(FileSetKind.SEGMENTS));
    } catch (IOException | RuntimeException e) {
      undo(created);
      throw e;
    }
  }

  private NamedFileSet restoreSet(Manifest manifest, BackupDescriptor descriptor,
      FileSetKind kind, Path dir) throws IOException {
    List<BackupFile> files = new ArrayList<>();
    Set<Path> directories = new LinkedHashSet<>();
    directories.add(dir);
    for (ManifestFile entry : manifest.files(kind)) {
      Path out = dir.resolve(entry.name()).normalize();
      if (!out.startsWith(dir) || out.equals(dir)) {
        throw new IllegalArgumentException("Expected '" + entry.name() + "' to stay inside "
            + dir + ", but it resolves to " + out + " (restore " + id + ")");
      }
      Files.createDirectories(out.getParent());
      directories.add(out.getParent());
      restoreFile(descriptor, kind, entry, out);
      files.add(new BackupFile(entry.name(), out, entry.sizeBytes()));
    }
    for (Path directory : directories) {
      DurableFiles.fsyncDirectory(directory);
    }
    return new NamedFileSet(files);
  }

  private void restoreFile(BackupDescriptor descriptor, FileSetKind kind, ManifestFile entry,
      Path out) throws IOException {
    Path object = layout.object(id, kind, entry.name());
    var progress = new FileProgress(descriptor, kind, entry);
    Optional<FileProblem> problem;
    try (FileChannel channel =
        FileChannel.open(out, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      OutputStream sink = Channels.newOutputStream(channel);
      try {
        problem = ContentChecker.check(kind, entry, object, sink, progress::advance);
      } catch (ContentChecker.SinkException e) {
        throw new BackupStoreException("Expected to write restored file " + out + ", but "
            + e.getCause() + " (restore " + id + ")", e.getCause());
      }
      channel.force(true);
    }
    if (problem.isPresent()) {
      throw new BackupCorruptedException(id, problem.get());
    }
    filesDone++;
    progress.finish();
  }

  private void undo(List<Path> created) {
    for (Path dir : created) {
      try {
        DurableFiles.deleteRecursively(dir);
      } catch (IOException e) {
        LOG.error("Could not remove partly restored {} of backup {}: {}. Remove it before "
            + "restoring again.", dir, id, e.toString());
      }
    }
  }

  /** Reports one file's progress: every {@link #PROGRESS_INTERVAL_BYTES} and at its end. */
  private final class FileProgress {
    private final BackupDescriptor descriptor;
    private final FileSetKind kind;
    private final ManifestFile entry;
    private long done;
    private long reported;

    FileProgress(BackupDescriptor descriptor, FileSetKind kind, ManifestFile entry) {
      this.descriptor = descriptor;
      this.kind = kind;
      this.entry = entry;
    }

    void advance(long bytes) {
      done += bytes;
      totalBytesDone += bytes;
      if (done - reported >= PROGRESS_INTERVAL_BYTES) {
        report();
      }
    }

    void finish() {
      report();
    }

    private void report() {
      reported = done;
      listener.onProgress(new RestoreProgress(kind, entry.name(), done, entry.sizeBytes(),
          totalBytesDone, descriptor.sizeBytes(), filesDone, descriptor.fileCount()));
    }
  }
}
