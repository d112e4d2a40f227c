package io.cairn.backupstore;

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
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where one restore writes, the same for every store: {@code targetDir/snapshot} and {@code
 * targetDir/segments}, which must not exist yet. {@link #prepare} checks that, creates them and
 * resolves every file's name inside them (a name that escapes its directory is refused before the
 * first byte is written). The store then restores each {@link Placement} its own way, several at
 * once, through {@link #restoreFile}: the file is created, filled and checked by the store,
 * fsynced, and its progress reported. {@link #finish} fsyncs the directories and returns the
 * restored backup; on any failure the store calls {@link #undo}, which removes both directories
 * again.
 *
 * <p>Progress events are sent one at a time, so their running totals only grow; each file reports
 * at least every {@value #PROGRESS_INTERVAL_BYTES} bytes and at its end.
 */
public final class RestoreTarget {

  private static final Logger LOG = LoggerFactory.getLogger(RestoreTarget.class);

  /** Progress is reported at least every this many bytes of a file, and at its end. */
  public static final long PROGRESS_INTERVAL_BYTES = 4L * 1024 * 1024;

  /** One file to restore: its manifest entry and the path it is restored to. */
  public record Placement(FileSetKind kind, ManifestFile entry, Path out) {}

  /** Fills one restored file from the store, checking it against its entry. */
  @FunctionalInterface
  public interface FileRestorer {
    /**
     * @param target created empty, open for reading and writing; the caller forces and closes it
     * @param progress told every restored byte
     * @return the problem with the stored object, if any
     * @throws ContentProblems.SinkException if writing {@code target} failed
     */
    Optional<FileProblem> restore(Placement placement, FileChannel target, LongConsumer progress)
        throws IOException;
  }

  private final BackupIdentifier id;
  private final BackupDescriptor descriptor;
  private final Path targetDir;
  private final RestoreProgressListener listener;
  private final List<Path> created = new ArrayList<>();
  private final Set<Path> directories = new LinkedHashSet<>();
  private final Map<FileSetKind, List<Placement>> placements = new EnumMap<>(FileSetKind.class);

  /** Guards the running totals and serialises progress events. */
  private final Object progressLock = new Object();

  private long totalBytesDone;
  private int filesDone;

  private RestoreTarget(
      BackupIdentifier id,
      BackupDescriptor descriptor,
      Path targetDir,
      RestoreProgressListener listener) {
    this.id = id;
    this.descriptor = descriptor;
    this.targetDir = targetDir;
    this.listener = listener;
  }

  /**
   * Checks and creates the target directories of a COMPLETED backup's restore and resolves every
   * file in them.
   *
   * @throws IllegalArgumentException if a directory exists already or a name escapes its directory
   *     (nothing is left behind)
   */
  public static RestoreTarget prepare(
      Manifest manifest, Path targetDir, RestoreProgressListener listener) throws IOException {
    BackupIdentifier id = manifest.id();
    Path target = targetDir.toAbsolutePath().normalize();
    Files.createDirectories(target);
    for (FileSetKind kind : FileSetKind.values()) {
      if (Files.exists(target.resolve(kind.directoryName()))) {
        throw new IllegalArgumentException(
            "Expected no '"
                + kind.directoryName()
                + "' in the restore target "
                + target
                + ", but it exists (restore "
                + id
                + "). Restore into an empty directory.");
      }
    }
    var restore = new RestoreTarget(id, manifest.descriptor().orElseThrow(), target, listener);
    try {
      for (FileSetKind kind : FileSetKind.values()) {
        Path dir = Files.createDirectory(target.resolve(kind.directoryName()));
        restore.created.add(dir);
        restore.directories.add(dir);
        restore.placements.put(kind, restore.place(manifest, kind, dir));
      }
    } catch (IOException | RuntimeException e) {
      restore.undo();
      throw e;
    }
    return restore;
  }

  /** Every file to restore, in manifest order. */
  public List<Placement> inManifestOrder() {
    List<Placement> all = new ArrayList<>();
    placements.values().forEach(all::addAll);
    return all;
  }

  /** Every file to restore, largest first: the last to start is a small one, so they end close. */
  public List<Placement> largestFirst() {
    List<Placement> all = inManifestOrder();
    all.sort(Comparator.comparingLong((Placement p) -> p.entry().sizeBytes()).reversed());
    return all;
  }

  /**
   * Restores one file with {@code restorer}: created, filled and checked, fsynced, progress
   * reported.
   *
   * @throws BackupCorruptedException naming the file when the stored object does not match
   * @throws BackupStoreException when the restored file could not be written
   */
  public void restoreFile(Placement placement, FileRestorer restorer) throws IOException {
    var progress = new FileProgress(placement);
    Optional<FileProblem> problem;
    try (FileChannel channel =
        FileChannel.open(
            placement.out(),
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.READ,
            StandardOpenOption.WRITE)) {
      try {
        problem = restorer.restore(placement, channel, progress::advance);
      } catch (ContentProblems.SinkException e) {
        throw new BackupStoreException(
            "Expected to write restored file "
                + placement.out()
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

  /** Fsyncs every directory of the restore and returns the restored backup. */
  public Backup finish() throws IOException {
    for (Path directory : directories) {
      DurableFiles.fsyncDirectory(directory);
    }
    DurableFiles.fsyncDirectory(targetDir);
    LOG.info(
        "Restored backup {} into {}: {} files, {} bytes",
        id,
        targetDir,
        descriptor.fileCount(),
        descriptor.sizeBytes());
    return new Backup(
        id,
        descriptor,
        fileSet(placements.get(FileSetKind.SNAPSHOT)),
        fileSet(placements.get(FileSetKind.SEGMENTS)));
  }

  /** Removes what the restore created; a failure to do so is logged for the operator. */
  public void undo() {
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

  /** Resolves every file of {@code kind} inside {@code dir}, creating sub-directories. */
  private List<Placement> place(Manifest manifest, FileSetKind kind, Path dir) throws IOException {
    List<Placement> result = new ArrayList<>();
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
      result.add(new Placement(kind, entry, out));
    }
    return result;
  }

  /** The restored files in manifest order. */
  private static NamedFileSet fileSet(List<Placement> placements) {
    return new NamedFileSet(
        placements.stream()
            .map(p -> new BackupFile(p.entry().name(), p.out(), p.entry().sizeBytes()))
            .toList());
  }

  /** One file's progress, used by the one thread restoring it; the totals are shared. */
  private final class FileProgress {
    private final Placement placement;
    private long done;
    private long reported;

    FileProgress(Placement placement) {
      this.placement = placement;
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

    /** Holding {@link #progressLock}. */
    private void report() {
      reported = done;
      listener.onProgress(
          new RestoreProgress(
              placement.kind(),
              placement.entry().name(),
              done,
              placement.entry().sizeBytes(),
              totalBytesDone,
              descriptor.sizeBytes(),
              filesDone,
              descriptor.fileCount()));
    }
  }
}
