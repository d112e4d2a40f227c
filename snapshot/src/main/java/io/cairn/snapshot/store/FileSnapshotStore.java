package io.cairn.snapshot.store;

import io.cairn.files.DurableFiles;
import io.cairn.scheduler.Clock;
import io.cairn.snapshot.CompactionHold;
import io.cairn.snapshot.CorruptedSnapshotException;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotChunkReader;
import io.cairn.snapshot.SnapshotConfig;
import io.cairn.snapshot.SnapshotException;
import io.cairn.snapshot.SnapshotId;
import io.cairn.snapshot.SnapshotMetadata;
import io.cairn.snapshot.SnapshotMetrics;
import io.cairn.snapshot.SnapshotNotFoundException;
import io.cairn.snapshot.SnapshotReceiver;
import io.cairn.snapshot.SnapshotReservation;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.snapshot.StaleSnapshotException;
import io.cairn.snapshot.TransientSnapshot;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link SnapshotStore} on a local file system; layout in {@link SnapshotLayout}.
 *
 * <p>Concurrency: one {@link ReentrantLock} guards the {@link SnapshotRegistry} (snapshots,
 * reservations, holds) and every rename into or out of the snapshots directory, so a snapshot is
 * never deleted while a reservation on it is being taken, and never renamed over. Checksumming,
 * copying, fsyncing state files and deleting the contents of removed snapshots run outside the lock
 * on the calling thread; only the parent directory fsync after a rename runs under it.
 */
public final class FileSnapshotStore implements SnapshotStore {

  private static final Logger LOG = LoggerFactory.getLogger(FileSnapshotStore.class);

  private final SnapshotLayout layout;
  private final SnapshotConfig config;
  private final Clock clock;
  private final SnapshotMetrics metrics;
  private final SnapshotPhaseListener listener;
  private final ReentrantLock lock = new ReentrantLock();
  private final SnapshotRegistry registry = new SnapshotRegistry();
  private final AtomicLong sequence = new AtomicLong();
  private volatile boolean closed;

  private FileSnapshotStore(
      Path root,
      SnapshotConfig config,
      Clock clock,
      MeterRegistry meterRegistry,
      Iterable<Tag> meterTags,
      SnapshotPhaseListener listener) {
    this.layout = new SnapshotLayout(root);
    this.config = Objects.requireNonNull(config, "config");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.metrics = new SnapshotMetrics(meterRegistry, meterTags);
  }

  /** {@link SnapshotStore#open}. */
  public static FileSnapshotStore open(
      Path directory,
      SnapshotConfig config,
      Clock clock,
      MeterRegistry meterRegistry,
      Iterable<Tag> meterTags) {
    return open(directory, config, clock, meterRegistry, meterTags, SnapshotPhaseListener.NONE);
  }

  /** {@link SnapshotStore#open} with a listener told about every {@link SnapshotPhase}. */
  public static FileSnapshotStore open(
      Path directory,
      SnapshotConfig config,
      Clock clock,
      MeterRegistry meterRegistry,
      Iterable<Tag> meterTags,
      SnapshotPhaseListener listener) {
    FileSnapshotStore store =
        new FileSnapshotStore(directory, config, clock, meterRegistry, meterTags, listener);
    try {
      store.load();
    } catch (IOException e) {
      store.metrics.close();
      throw new SnapshotException(
          "Expected to open the snapshot store in " + directory + ", but " + e, e);
    }
    return store;
  }

  private void load() throws IOException {
    for (PersistedSnapshot snapshot : SnapshotReader.scan(layout, metrics)) {
      registry.add(snapshot);
    }
    List<Removal> removals;
    lock.lock();
    try {
      removals = removeUnretained();
      updateMetrics();
    } finally {
      lock.unlock();
    }
    delete(removals);
    LOG.info(
        "Opened snapshot store {} with snapshots {}",
        layout.root(),
        snapshots().stream().map(PersistedSnapshot::id).toList());
  }

  // ---- reading --------------------------------------------------------------------------------

  @Override
  public Optional<PersistedSnapshot> latestSnapshot() {
    lock.lock();
    try {
      return registry.latest();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public List<PersistedSnapshot> snapshots() {
    lock.lock();
    try {
      return List.copyOf(registry.visible());
    } finally {
      lock.unlock();
    }
  }

  /** The store's root directory. */
  public Path directory() {
    return layout.root();
  }

  // ---- taking ---------------------------------------------------------------------------------

  @Override
  public TransientSnapshot newTransientSnapshot(SnapshotMetadata metadata) {
    Objects.requireNonNull(metadata, "metadata");
    ensureOpen();
    requireNewerThanLatest(metadata.id());
    return new FileTransientSnapshot(this, metadata, clock.nanos());
  }

  private void requireNewerThanLatest(SnapshotId id) {
    lock.lock();
    try {
      Optional<PersistedSnapshot> latest = registry.latest();
      if (latest.isPresent() && !id.isNewerThan(latest.get().id())) {
        throw new StaleSnapshotException(id, latest.get().id());
      }
    } finally {
      lock.unlock();
    }
  }

  // ---- reservations and holds -----------------------------------------------------------------

  @Override
  public SnapshotReservation reserve(SnapshotId id) {
    Objects.requireNonNull(id, "id");
    ensureOpen();
    lock.lock();
    try {
      PersistedSnapshot snapshot =
          registry
              .reserve(id)
              .orElseThrow(() -> new SnapshotNotFoundException(id, "reserve in " + layout.root()));
      updateMetrics();
      return new Reservation(snapshot);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Optional<SnapshotReservation> reserveNewest(
      Predicate<? super PersistedSnapshot> eligible) {
    Objects.requireNonNull(eligible, "eligible");
    ensureOpen();
    lock.lock();
    try {
      List<PersistedSnapshot> visible = registry.visible();
      for (int i = visible.size() - 1; i >= 0; i--) {
        PersistedSnapshot snapshot = visible.get(i);
        if (eligible.test(snapshot)) {
          registry.reserve(snapshot.id());
          updateMetrics();
          return Optional.of(new Reservation(snapshot));
        }
      }
      return Optional.empty();
    } finally {
      lock.unlock();
    }
  }

  private void release(SnapshotId id) {
    List<Removal> removals;
    lock.lock();
    try {
      registry.release(id);
      removals = removeUnretained();
      updateMetrics();
    } finally {
      lock.unlock();
    }
    delete(removals);
  }

  @Override
  public CompactionHold registerCompactionHold(String name, long index) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          "Expected a non-blank compaction hold name, but was '" + name + "'");
    }
    requireIndex(index, name);
    Hold hold = new Hold(name, index);
    lock.lock();
    try {
      registry.addHold(hold, index);
    } finally {
      lock.unlock();
    }
    return hold;
  }

  @Override
  public long compactionBoundIndex() {
    lock.lock();
    try {
      return registry.compactionBoundIndex();
    } finally {
      lock.unlock();
    }
  }

  private static void requireIndex(long index, String holder) {
    if (index < 1) {
      throw new IllegalArgumentException(
          "Expected a compaction hold index >= 1, but was " + index + " (hold " + holder + ")");
    }
  }

  // ---- verification and recovery --------------------------------------------------------------

  @Override
  public void verify(SnapshotId id) {
    try (SnapshotReservation reservation = reserve(id)) {
      try {
        SnapshotReader.verifyContents(reservation.snapshot());
      } catch (CorruptedSnapshotException e) {
        markCorrupt(reservation.snapshot(), e);
        throw e;
      } catch (IOException e) {
        throw new SnapshotException(
            "Expected to read snapshot " + id + " in " + layout.root() + ", but " + e, e);
      }
    }
  }

  @Override
  public Optional<PersistedSnapshot> copyForRecovery(Path target) {
    Objects.requireNonNull(target, "target");
    if (Files.exists(target)) {
      throw new IllegalArgumentException(
          "Expected a recovery target that does not exist yet, but " + target + " exists");
    }
    ensureOpen();
    long start = clock.nanos();
    try {
      return new SnapshotRecovery(this).copyNewestValid(target);
    } finally {
      metrics.recovered(clock.nanos() - start);
    }
  }

  /** Logs the corruption, stops offering the snapshot, and deletes it once it is unreserved. */
  void markCorrupt(PersistedSnapshot snapshot, CorruptedSnapshotException cause) {
    List<Removal> removals;
    lock.lock();
    try {
      Optional<SnapshotRegistry.Entry> entry = registry.entry(snapshot.id());
      if (entry.isEmpty() || entry.get().isCorrupt()) {
        return;
      }
      LOG.error(
          "Snapshot {} in {} is corrupt: {}", snapshot.id(), layout.root(), cause.getMessage());
      metrics.corruptionFound();
      registry.markCorrupt(snapshot.id());
      removals = removeUnretained();
      updateMetrics();
    } finally {
      lock.unlock();
    }
    delete(removals);
  }

  // ---- restore --------------------------------------------------------------------------------

  @Override
  public PersistedSnapshot restore(Collection<Path> files) {
    ensureOpen();
    long start = clock.nanos();
    PersistedSnapshot snapshot = new SnapshotRestorer(this).restore(files);
    metrics.restored(clock.nanos() - start);
    return snapshot;
  }

  // ---- replication ----------------------------------------------------------------------------

  @Override
  public SnapshotChunkReader openChunkReader(SnapshotId id) {
    SnapshotReservation reservation = reserve(id);
    return new FileSnapshotChunkReader(
        this, reservation, config.replicationChunkSizeBytes(), metrics);
  }

  @Override
  public SnapshotReceiver newReceiver(long index, long term) {
    ensureOpen();
    if (index < 1 || term < 1) {
      throw new IllegalArgumentException(
          "Expected index >= 1 and term >= 1, but was "
              + index
              + " and "
              + term
              + " (snapshot receiver)");
    }
    return new FileSnapshotReceiver(this, index, term, clock.nanos(), metrics);
  }

  // ---- committing (used by transient snapshots, receivers and restores) -----------------------

  /** A new path in the transient directory, which does not exist yet. */
  Path newTransientPath(String prefix) {
    return layout.transientDirectory().resolve(prefix + "-" + sequence.incrementAndGet());
  }

  void phase(SnapshotPhase phase, SnapshotId id) {
    listener.onPhase(phase, id);
  }

  Clock clock() {
    return clock;
  }

  SnapshotMetrics metrics() {
    return metrics;
  }

  /**
   * Makes a complete transient directory a snapshot: renames it atomically into the snapshots
   * directory, fsyncs that, records the snapshot and applies retention. Every file in {@code
   * directory} and the directory itself must be fsynced already.
   *
   * @return the persisted snapshot, or the existing one with the same id (then {@code directory} is
   *     deleted)
   * @throws StaleSnapshotException if a newer snapshot exists ({@code directory} is deleted)
   * @throws SnapshotException if a corrupt snapshot with the same id is still reserved ({@code
   *     directory} is deleted)
   * @throws IOException if the rename or fsync fails ({@code directory} is left to the caller)
   */
  PersistedSnapshot commit(
      Path directory, SnapshotMetadata metadata, ChecksumFile checksums, byte[] checksumBytes)
      throws IOException {
    SnapshotId id = metadata.id();
    Path target = layout.snapshotsDirectory().resolve(id.toString());
    PersistedSnapshot persisted = null;
    List<Removal> removals = List.of();
    PersistedSnapshot existingSnapshot = null;
    SnapshotException refusal = null;
    lock.lock();
    try {
      ensureOpen();
      Optional<SnapshotRegistry.Entry> existing = registry.entry(id);
      Optional<PersistedSnapshot> latest = registry.latest();
      if (existing.isPresent() && !existing.get().isCorrupt()) {
        existingSnapshot = existing.get().snapshot();
      } else if (existing.isPresent()) {
        refusal =
            new SnapshotException(
                "Expected no snapshot "
                    + id
                    + " in "
                    + layout.root()
                    + ", but a corrupt one is still reserved; try again once it is released");
      } else if (latest.isPresent() && latest.get().id().isNewerThan(id)) {
        refusal = new StaleSnapshotException(id, latest.get().id());
      } else {
        Files.move(directory, target, StandardCopyOption.ATOMIC_MOVE);
        try {
          phase(SnapshotPhase.RENAMED, id);
          DurableFiles.fsyncDirectory(layout.snapshotsDirectory());
        } catch (IOException e) {
          Files.move(target, directory, StandardCopyOption.ATOMIC_MOVE);
          throw e;
        }
        phase(SnapshotPhase.PERSISTED, id);
        persisted = SnapshotReader.snapshotAt(target, metadata, checksums, checksumBytes);
        registry.add(persisted);
        removals = removeUnretained();
        updateMetrics();
      }
    } finally {
      lock.unlock();
    }
    if (persisted == null) {
      deleteQuietly(directory); // outside the lock, like every deletion of file contents
      if (refusal != null) {
        throw refusal;
      }
      LOG.debug("Snapshot {} exists already in {}; dropped the new copy", id, layout.root());
      return existingSnapshot;
    }
    delete(removals);
    LOG.info(
        "Persisted snapshot {} in {} ({} files, {} bytes)",
        id,
        layout.root(),
        persisted.files().size(),
        persisted.sizeBytes());
    return persisted;
  }

  // ---- deletion -------------------------------------------------------------------------------

  /** A snapshot taken out of the snapshots directory, to be deleted outside the lock. */
  private record Removal(SnapshotId id, Path trash) {}

  /** Under the lock: removes what retention does not keep and moves it out of the way. */
  private List<Removal> removeUnretained() {
    List<Removal> removals = new ArrayList<>();
    for (PersistedSnapshot snapshot : registry.removeUnretained(config.retainedSnapshotCount())) {
      Path trash = newTransientPath(snapshot.id() + "-deleted");
      try {
        Files.move(snapshot.directory(), trash, StandardCopyOption.ATOMIC_MOVE);
        removals.add(new Removal(snapshot.id(), trash));
      } catch (IOException e) {
        LOG.warn(
            "Could not move snapshot {} out of {} for deletion; the next open deletes it: {}",
            snapshot.id(),
            layout.root(),
            e.toString());
      }
    }
    return removals;
  }

  private void delete(List<Removal> removals) {
    for (Removal removal : removals) {
      phase(SnapshotPhase.DELETING, removal.id());
      deleteQuietly(removal.trash());
      LOG.debug("Deleted snapshot {} from {}", removal.id(), layout.root());
    }
  }

  void deleteQuietly(Path path) {
    try {
      DurableFiles.deleteRecursively(path);
    } catch (IOException e) {
      LOG.warn("Could not delete {}; the next open deletes it: {}", path, e.toString());
    }
  }

  private void updateMetrics() {
    metrics.snapshotsChanged(
        registry.count(),
        registry.reservedCount(),
        registry.latest().map(PersistedSnapshot::sizeBytes).orElse(0L));
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException(
          "Expected an open snapshot store, but " + layout.root() + " was closed");
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      metrics.close();
    }
  }

  @Override
  public String toString() {
    return "FileSnapshotStore{" + layout.root() + '}';
  }

  // ---- handles --------------------------------------------------------------------------------

  private final class Reservation implements SnapshotReservation {
    private final PersistedSnapshot snapshot;
    private final AtomicBoolean released = new AtomicBoolean();

    private Reservation(PersistedSnapshot snapshot) {
      this.snapshot = snapshot;
    }

    @Override
    public PersistedSnapshot snapshot() {
      return snapshot;
    }

    @Override
    public void close() {
      if (released.compareAndSet(false, true)) {
        release(snapshot.id());
      }
    }

    @Override
    public String toString() {
      return "SnapshotReservation{" + snapshot.id() + (released.get() ? ", released}" : "}");
    }
  }

  private final class Hold implements CompactionHold {
    private final String name;
    private volatile long index;

    private Hold(String name, long index) {
      this.name = name;
      this.index = index;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public long index() {
      return index;
    }

    @Override
    public void moveTo(long newIndex) {
      requireIndex(newIndex, name);
      lock.lock();
      try {
        if (!registry.moveHold(this, newIndex)) {
          throw new IllegalStateException(
              "Expected an open compaction hold, but " + name + " was closed");
        }
        index = newIndex;
      } finally {
        lock.unlock();
      }
    }

    @Override
    public void close() {
      lock.lock();
      try {
        registry.removeHold(this);
      } finally {
        lock.unlock();
      }
    }

    @Override
    public String toString() {
      return "CompactionHold{" + name + ", index=" + index + '}';
    }
  }
}
