package io.cairn.backups3;

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
import io.cairn.backups3.transfer.ObjectChecker;
import io.cairn.files.DurableFiles;
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
 * One restore: downloads every file of a COMPLETED backup, several at once, decoding it into {@code
 * targetDir/snapshot} or {@code targetDir/segments}, checking size and CRC32C, fsyncing files and
 * directories. On any failure the other downloads stop, and both directories are removed again.
 * Progress is reported under a lock, so totals only grow.
 */
final class RestoreOperation {

  private static final Logger LOG = LoggerFactory.getLogger(RestoreOperation.class);

  /** Progress is reported at least every this many bytes of a file, and at its end. */
  private static final long PROGRESS_INTERVAL_BYTES = 4L * 1024 * 1024;

  private final S3BackupStore store;
  private final BackupIdentifier id;
  private final Path targetDir;
  private final RestoreProgressListener listener;
  private final Object progressLock = new Object();
  private long totalBytesDone;
  private int filesDone;

  RestoreOperation(
      S3BackupStore store, BackupIdentifier id, Path targetDir, RestoreProgressListener listener) {
    this.store = store;
    this.id = id;
    this.targetDir = targetDir.toAbsolutePath().normalize();
    this.listener = listener;
  }

  Backup run() throws Exception {
    Manifest manifest = store.readCompleted(id);
    BackupDescriptor descriptor = manifest.descriptor().orElseThrow();
    Files.createDirectories(targetDir);
    for (FileSetKind kind : FileSetKind.values()) {
      if (Files.exists(targetDir.resolve(kind.directoryName()))) {
        throw new IllegalArgumentException(
            "Expected no '"
                + kind.directoryName()
                + "' in the "
                + "restore target "
                + targetDir
                + ", but it exists (restore "
                + id
                + "). Restore "
                + "into an empty directory.");
      }
    }
    List<Path> created = new ArrayList<>();
    try {
      Map<FileSetKind, Path> dirs = new EnumMap<>(FileSetKind.class);
      for (FileSetKind kind : FileSetKind.values()) {
        Path dir = Files.createDirectory(targetDir.resolve(kind.directoryName()));
        created.add(dir);
        dirs.put(kind, dir);
      }
      Map<FileSetKind, NamedFileSet> restored = restoreAll(manifest, descriptor, dirs);
      fsyncDirectory(targetDir);
      LOG.info(
          "Restored backup {} into {}: {} files, {} bytes",
          id,
          targetDir,
          descriptor.fileCount(),
          descriptor.sizeBytes());
      return new Backup(
          id, descriptor, restored.get(FileSetKind.SNAPSHOT), restored.get(FileSetKind.SEGMENTS));
    } catch (Exception e) {
      undo(created);
      throw e;
    }
  }

  private Map<FileSetKind, NamedFileSet> restoreAll(
      Manifest manifest, BackupDescriptor descriptor, Map<FileSetKind, Path> dirs)
      throws Exception {
    var tasks = new FileTasks(store.transferExecutor());
    List<FileTasks.Task<BackupFile>> work = new ArrayList<>();
    Set<Path> directories = new LinkedHashSet<>(dirs.values());
    for (FileSetKind kind : FileSetKind.values()) {
      Path dir = dirs.get(kind);
      for (ManifestFile entry : manifest.files(kind)) {
        Path out = dir.resolve(entry.name()).normalize();
        if (!out.startsWith(dir) || out.equals(dir)) {
          throw new IllegalArgumentException(
              "Expected '"
                  + entry.name()
                  + "' to stay inside "
                  + dir
                  + ", but it resolves to "
                  + out
                  + " (restore "
                  + id
                  + ")");
        }
        Files.createDirectories(out.getParent());
        directories.add(out.getParent());
        work.add(
            () -> {
              tasks.checkNotStopped(kind.directoryName() + "/" + entry.name());
              restoreFile(descriptor, kind, entry, out);
              return new BackupFile(entry.name(), out, entry.sizeBytes());
            });
      }
    }
    List<BackupFile> files = tasks.runAll(work);
    for (Path directory : directories) {
      fsyncDirectory(directory);
    }
    Map<FileSetKind, NamedFileSet> result = new EnumMap<>(FileSetKind.class);
    int index = 0;
    for (FileSetKind kind : FileSetKind.values()) {
      int count = manifest.files(kind).size();
      result.put(kind, new NamedFileSet(files.subList(index, index + count)));
      index += count;
    }
    return result;
  }

  private void restoreFile(
      BackupDescriptor descriptor, FileSetKind kind, ManifestFile entry, Path out)
      throws IOException {
    String key = store.layout().objectKey(id, kind, entry.name());
    var progress = new FileProgress(descriptor, kind, entry);
    Optional<FileProblem> problem;
    try (FileChannel channel =
        FileChannel.open(out, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      OutputStream sink = Channels.newOutputStream(channel);
      try {
        problem = store.checker().check(kind, entry, key, sink, progress::advance, false);
      } catch (ObjectChecker.SinkException e) {
        throw new BackupStoreException(
            "Expected to write restored file "
                + out
                + ", but "
                + e.getCause()
                + " (restore "
                + id
                + ")",
            e.getCause());
      }
      channel.force(true);
    }
    if (problem.isPresent()) {
      throw new BackupCorruptedException(id, problem.get());
    }
    progress.finish();
  }

  private void undo(List<Path> created) {
    for (Path dir : created) {
      try {
        DurableFiles.deleteRecursively(dir);
      } catch (IOException e) {
        LOG.error(
            "Could not remove partly restored {} of backup {}: {}. Remove it before "
                + "restoring again.",
            dir,
            id,
            e.toString());
      }
    }
  }

  private static void fsyncDirectory(Path dir) throws IOException {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /** One file's progress: every {@link #PROGRESS_INTERVAL_BYTES} and at its end. */
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
      synchronized (progressLock) {
        done += bytes;
        totalBytesDone += bytes;
        if (done - reported >= PROGRESS_INTERVAL_BYTES) {
          report();
        }
      }
    }

    void finish() {
      synchronized (progressLock) {
        filesDone++;
        report();
      }
    }

    private void report() {
      reported = done;
      listener.onProgress(
          new RestoreProgress(
              kind,
              entry.name(),
              done,
              entry.sizeBytes(),
              totalBytesDone,
              descriptor.sizeBytes(),
              filesDone,
              descriptor.fileCount()));
    }
  }
}
