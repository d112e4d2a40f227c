package io.cairn.backup.manager;

import io.cairn.backup.BackupConfig;
import io.cairn.backup.BackupManager;
import io.cairn.backup.BackupMetrics;
import io.cairn.backup.Checkpoint;
import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.db.Digest128;
import io.cairn.journal.JournalConfig;
import io.cairn.journal.SegmentedJournal;
import io.cairn.logstreams.InMemoryLogStream;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.Record;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.ThreadPoolActorScheduler;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotConfig;
import io.cairn.snapshot.SnapshotMetadata;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.snapshot.TransientSnapshot;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One partition's storage for the backup manager's tests, all real: a {@link SegmentedJournal}
 * (small segments), a file {@link SnapshotStore} (retention 1), a {@link FilesystemBackupStore}, an
 * {@code InMemoryLogStream} for {@code CONFIRM_BACKUP}, and actors on a thread-pool scheduler.
 * Calls to the two stores are recorded, in order, in {@link #events}.
 *
 * <p>Journal entries stand for log stream batches of {@value #POSITIONS_PER_ENTRY} records: entry
 * {@code i} (1-based) holds positions {@code 3(i-1)+1 .. 3i}, its asqn is the first of them.
 */
final class BackupTestPartition implements AutoCloseable {

  static final int PARTITION = 1;
  static final int PARTITION_COUNT = 3;
  static final String VERSION = "0.1.0-test";
  static final int POSITIONS_PER_ENTRY = 3;
  static final int SEGMENT_SIZE_BYTES = 8 * 1024;

  /** Every wait on the actor, store and upload threads; generous, as the machine may be loaded. */
  static final Duration TIMEOUT = Duration.ofSeconds(60);

  final List<String> events = Collections.synchronizedList(new ArrayList<>());
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final Clock clock = Clock.system();
  final Path root;
  final SegmentedJournal journal;
  final SnapshotStore realSnapshots;
  final RecordingSnapshotStore snapshots;
  final FilesystemBackupStore fsStore;
  final RecordingBackupStore store;
  final InMemoryLogStream log;
  final ThreadPoolActorScheduler scheduler;
  private final ExecutorService storeExecutor = pool("test-backup-store", 6);
  private final ExecutorService uploadExecutor = pool("test-backup-upload", 2);
  private final Random random = new Random(42);
  private final List<BackupManager> managers = new ArrayList<>();
  private long nextPosition = 1;

  BackupTestPartition(Path root) throws IOException {
    this.root = root;
    journal =
        SegmentedJournal.open(
            JournalConfig.builder()
                .directory(root.resolve("journal"))
                .name("raft-partition-1")
                .segmentSizeBytes(SEGMENT_SIZE_BYTES)
                .indexDensity(4)
                .build(),
            registry);
    realSnapshots =
        SnapshotStore.open(
            root.resolve("snapshots"),
            SnapshotConfig.defaults(),
            clock,
            registry,
            Tags.of("partition", "1"));
    snapshots = new RecordingSnapshotStore(realSnapshots, events::add);
    Files.createDirectories(root.resolve("backups"));
    fsStore =
        FilesystemBackupStore.open(
            FilesystemBackupStoreConfig.of(root.resolve("backups")),
            clock,
            storeExecutor,
            storeExecutor,
            registry);
    store = new RecordingBackupStore(fsStore, events::add);
    log = new InMemoryLogStream(PARTITION, clock);
    scheduler = new ThreadPoolActorScheduler("backup-test", 1, clock, registry);
  }

  // ---- the log ---------------------------------------------------------------------------------

  /** Appends {@code count} entries of ~400 bytes and flushes; returns the last position written. */
  long appendEntries(int count) {
    for (int i = 0; i < count; i++) {
      byte[] data = new byte[300 + random.nextInt(200)];
      random.nextBytes(data);
      journal.append(nextPosition, new UnsafeBuffer(data));
      nextPosition += POSITIONS_PER_ENTRY;
    }
    journal.flush();
    return nextPosition - 1;
  }

  /** The journal index of the entry holding {@code position}. */
  static long indexOf(long position) {
    return (position - 1) / POSITIONS_PER_ENTRY + 1;
  }

  // ---- snapshots
  // ---------------------------------------------------------------------------------

  /** Persists a snapshot with these state files. */
  PersistedSnapshot snapshot(
      long index, long processedPosition, long lastWrittenPosition, Map<String, byte[]> files) {
    TransientSnapshot snapshot =
        realSnapshots.newTransientSnapshot(
            new SnapshotMetadata(
                index,
                1,
                processedPosition,
                0,
                lastWrittenPosition,
                VERSION,
                clock.millis(),
                "0123456789abcdef0123456789abcdef"));
    snapshot.writeState(
        target -> {
          Files.createDirectories(target);
          for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Files.write(target.resolve(file.getKey()), file.getValue());
          }
        });
    return snapshot.persist();
  }

  /** Random content of {@code length} bytes. */
  byte[] bytes(int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  // ---- managers
  // ----------------------------------------------------------------------------------

  BackupManager startManager(int nodeId, BackupConfig config) {
    return startManager(nodeId, config, new BackupMetrics(registry, PARTITION, clock));
  }

  BackupManager startManager(int nodeId, BackupConfig config, BackupMetrics metrics) {
    BackupManager manager = newManager(nodeId, config, metrics);
    scheduler.start(manager).join();
    manager.ready().orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
    return manager;
  }

  /** A manager not started yet (closed with the partition). */
  BackupManager newManager(int nodeId, BackupConfig config) {
    return newManager(nodeId, config, new BackupMetrics(registry, PARTITION, clock));
  }

  private BackupManager newManager(int nodeId, BackupConfig config, BackupMetrics metrics) {
    BackupManager manager =
        BackupManager.builder()
            .partitionId(PARTITION)
            .nodeId(nodeId)
            .partitionCount(PARTITION_COUNT)
            .brokerVersion(VERSION)
            .store(store)
            .snapshots(snapshots)
            .journal(journal)
            .writer(log.writer())
            .uploadExecutor(uploadExecutor)
            .config(config)
            .metrics(metrics)
            .build();
    managers.add(manager);
    return manager;
  }

  static Checkpoint checkpoint(long id, long position) {
    return new Checkpoint(id, position, 1_700_000_000_000L + id, new Digest128(id, position));
  }

  // ---- the store
  // ---------------------------------------------------------------------------------

  BackupStatus status(int nodeId, long checkpointId) {
    return fsStore.getStatus(new BackupIdentifier(nodeId, PARTITION, checkpointId)).join();
  }

  Backup restore(int nodeId, long checkpointId, Path target) {
    return fsStore
        .restore(
            new BackupIdentifier(nodeId, PARTITION, checkpointId),
            target,
            RestoreProgressListener.NOOP)
        .orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS)
        .join();
  }

  /** The {@code CONFIRM_BACKUP} commands written to the log, by checkpoint id. */
  List<Long> confirmations() {
    return log.committedRecords().stream()
        .filter(r -> r.metadata().intent() == CheckpointIntent.CONFIRM_BACKUP)
        .map(Record::value)
        .map(v -> ((io.cairn.protocol.CheckpointValue) v).checkpointId())
        .toList();
  }

  /** Index of the first event starting with {@code prefix}, or -1. */
  int firstEvent(String prefix) {
    synchronized (events) {
      for (int i = 0; i < events.size(); i++) {
        if (events.get(i).startsWith(prefix)) {
          return i;
        }
      }
    }
    return -1;
  }

  Path root() {
    return root;
  }

  @Override
  public void close() {
    for (BackupManager manager : managers) {
      manager.closeAsync().orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
    }
    scheduler.close();
    fsStore.close();
    storeExecutor.shutdownNow();
    uploadExecutor.shutdownNow();
    log.close();
    journal.close();
    realSnapshots.close();
  }

  private static ExecutorService pool(String name, int threads) {
    AtomicInteger count = new AtomicInteger();
    ThreadFactory factory =
        runnable -> {
          Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        };
    return Executors.newFixedThreadPool(threads, factory);
  }

  static void uncheckedDelete(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
