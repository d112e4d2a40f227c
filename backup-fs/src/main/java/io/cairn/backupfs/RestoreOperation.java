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
import io.cairn.backupfs.layout.StoreLayout;
import io.cairn.files.DurableFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
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
 *
 * <p>Every name is resolved and checked before the first byte is written. Files are then restored
 * up to {@code maxConcurrentFileCopies} at once on the store's executor ({@link ParallelCopies}:
 * this thread plus helpers), largest first; an uncompressed file is copied kernel-side and its
 * CRC32C computed over the bytes read back from the restored file ({@link ContentChecker#restore}).
 * Each file is fsynced once by the thread that restored it, each directory once at the end.
 * Progress events are sent one at a time, so their running totals only grow.
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

  /** Guards the running totals and serialises progress events. */
  private final Object progressLock = new Object();

  private long totalBytesDone;
  private int filesDone;

  RestoreOperation(
      FilesystemBackupStore store,
      BackupIdentifier id,
      Path targetDir,
      RestoreProgressListener listener) {
    this.store = store;
    this.layout = store.layout();
    this.id = id;
    this.targetDir = targetDir.toAbsolutePath().normalize();
    this.listener = listener;
  }

  /** One file to restore: where it is stored and where it goes. */
  private record Job(FileSetKind kind, ManifestFile entry, Path out) {}

  Backup run() throws IOException {
    Manifest manifest = store.readCompleted(id);
    BackupDescriptor descriptor = manifest.descriptor().orElseThrow();
    Files.createDirectories(targetDir);
    for (FileSetKind kind : FileSetKind.values()) {
      Path dir = targetDir.resolve(kind.directoryName());
      if (Files.exists(dir)) {
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
      Map<FileSetKind, List<Job>> jobs = new EnumMap<>(FileSetKind.class);
      Set<Path> directories = new LinkedHashSet<>();
      for (FileSetKind kind : FileSetKind.values()) {
        Path dir = Files.createDirectory(targetDir.resolve(kind.directoryName()));
        created.add(dir);
        directories.add(dir);
        jobs.put(kind, plan(manifest, kind, dir, directories));
      }
      List<Job> bySize = new ArrayList<>();
      jobs.values().forEach(bySize::addAll);
      // largest first: the last file to start is a small one, so the copies end close together
      bySize.sort(Comparator.comparingLong((Job job) -> job.entry().sizeBytes()).reversed());
      ParallelCopies.run(
          store.executor(),
          store.config().maxConcurrentFileCopies(),
          bySize.size(),
          index -> restoreFile(descriptor, bySize.get(index)));
      for (Path directory : directories) {
        DurableFiles.fsyncDirectory(directory);
      }
      DurableFiles.fsyncDirectory(targetDir);
      store.metrics().restored(descriptor.sizeBytes());
      LOG.info(
          "Restored backup {} into {}: {} files, {} bytes",
          id,
          targetDir,
          descriptor.fileCount(),
          descriptor.sizeBytes());
      return new Backup(
          id,
          descriptor,
          fileSet(jobs.get(FileSetKind.SNAPSHOT)),
          fileSet(jobs.get(FileSetKind.SEGMENTS)));
    } catch (IOException | RuntimeException e) {
      undo(created);
      throw e;
    }
  }

  /** Resolves every file of {@code kind} inside {@code dir}, creating sub-directories. */
  private List<Job> plan(Manifest manifest, FileSetKind kind, Path dir, Set<Path> directories)
      throws IOException {
    List<Job> jobs = new ArrayList<>();
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
      if (directories.add(out.getParent())) {
        Files.createDirectories(out.getParent());
      }
      jobs.add(new Job(kind, entry, out));
    }
    return jobs;
  }

  /** The restored files in manifest order. */
  private static NamedFileSet fileSet(List<Job> jobs) {
    return new NamedFileSet(
        jobs.stream()
            .map(job -> new BackupFile(job.entry().name(), job.out(), job.entry().sizeBytes()))
            .toList());
  }

  private void restoreFile(BackupDescriptor descriptor, Job job) throws IOException {
    ManifestFile entry = job.entry();
    Path object = layout.object(id, job.kind(), entry.name());
    var progress = new FileProgress(descriptor, job.kind(), entry);
    Optional<FileProblem> problem;
    try (FileChannel channel =
        FileChannel.open(
            job.out(),
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.READ,
            StandardOpenOption.WRITE)) {
      try {
        problem = ContentChecker.restore(job.kind(), entry, object, channel, progress::advance);
      } catch (ContentChecker.SinkException e) {
        throw new BackupStoreException(
            "Expected to write restored file "
                + job.out()
                + ", but "
                + e.getCause()
                + " (restore "
                + id
                + ")",
            e.getCause());
      }
      if (problem.isEmpty()) {
        channel.force(true);
      }
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

  /**
   * Reports one file's progress: every {@link #PROGRESS_INTERVAL_BYTES} and at its end. Used by the
   * one thread restoring the file; the totals are shared, so they and the event go together.
   */
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
      synchronized (progressLock) {
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

    /** Holding {@link #progressLock}. */
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
