package io.cairn.snapshot.store;

import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotId;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The store's in-memory view: which snapshots exist, how often each is reserved, which are corrupt,
 * and the compaction holds. Decisions only, no I/O. Not thread-safe: the store calls it under its
 * lock.
 */
final class SnapshotRegistry {

  /** One snapshot in the snapshots directory. */
  static final class Entry {
    private final PersistedSnapshot snapshot;
    private int reservations;
    private boolean corrupt;

    private Entry(PersistedSnapshot snapshot) {
      this.snapshot = snapshot;
    }

    PersistedSnapshot snapshot() {
      return snapshot;
    }

    int reservations() {
      return reservations;
    }

    boolean isCorrupt() {
      return corrupt;
    }
  }

  private final TreeMap<SnapshotId, Entry> entries = new TreeMap<>();
  private final Map<Object, Long> holdIndexes = new IdentityHashMap<>();

  void add(PersistedSnapshot snapshot) {
    if (entries.putIfAbsent(snapshot.id(), new Entry(snapshot)) != null) {
      throw new IllegalStateException(
          "Expected snapshot " + snapshot.id() + " to be added once, but it exists already");
    }
  }

  /** The entry, corrupt or not. */
  Optional<Entry> entry(SnapshotId id) {
    return Optional.ofNullable(entries.get(id));
  }

  /** The newest snapshot that is not corrupt. */
  Optional<PersistedSnapshot> latest() {
    for (Entry entry : entries.descendingMap().values()) {
      if (!entry.corrupt) {
        return Optional.of(entry.snapshot);
      }
    }
    return Optional.empty();
  }

  /** The snapshots that are not corrupt, oldest first. */
  List<PersistedSnapshot> visible() {
    List<PersistedSnapshot> visible = new ArrayList<>();
    for (Entry entry : entries.values()) {
      if (!entry.corrupt) {
        visible.add(entry.snapshot);
      }
    }
    return visible;
  }

  /** Reserves a snapshot that exists and is not corrupt; empty otherwise. */
  Optional<PersistedSnapshot> reserve(SnapshotId id) {
    Entry entry = entries.get(id);
    if (entry == null || entry.corrupt) {
      return Optional.empty();
    }
    entry.reservations++;
    return Optional.of(entry.snapshot);
  }

  void release(SnapshotId id) {
    Entry entry = entries.get(id);
    if (entry == null || entry.reservations == 0) {
      throw new IllegalStateException(
          "Expected a reservation on snapshot " + id + " to release, but there is none");
    }
    entry.reservations--;
  }

  /** Marks a snapshot corrupt: no longer offered or reservable. */
  void markCorrupt(SnapshotId id) {
    Entry entry = entries.get(id);
    if (entry != null) {
      entry.corrupt = true;
    }
  }

  /**
   * Removes and returns every snapshot retention does not keep: all but the newest {@code
   * retainedCount} that are not corrupt and the one kept for the newest one's base, and every
   * corrupt one — except those reserved.
   *
   * <p>The base is the newest snapshot that {@linkplain SnapshotId#isBaseFor stands in} for the
   * newest one, kept while the newest cannot stand for itself (its last written position is past
   * its processed position). A checkpoint command between the two positions is processed after the
   * newest snapshot was taken, and its backup needs a snapshot wholly below it: without the base
   * there is none (the newest's follow-ups lie past the checkpoint) and the log before the newest
   * snapshot is compacted, so the backup could only fail.
   */
  List<PersistedSnapshot> removeUnretained(int retainedCount) {
    Optional<SnapshotId> keptForBase = keptForBase();
    List<PersistedSnapshot> removed = new ArrayList<>();
    int kept = 0;
    for (Entry entry : new ArrayList<>(entries.descendingMap().values())) {
      boolean newest = !entry.corrupt && kept < retainedCount;
      boolean retained = newest || keptForBase.filter(entry.snapshot.id()::equals).isPresent();
      if (newest) {
        kept++;
      } else if (!retained && entry.reservations == 0) {
        entries.remove(entry.snapshot.id());
        removed.add(entry.snapshot);
      }
    }
    return removed;
  }

  /**
   * The older snapshot kept for the newest one: its base; or, while it needs one and has none, the
   * oldest older snapshot (not corrupt). Positions grow with the index, so the oldest has the
   * lowest last written position and is the first to become a base once processing passes it;
   * keeping only the previous one would let a backlog of commands longer than a snapshot interval
   * replace every candidate before it qualifies, and the log would never be compacted.
   */
  private Optional<SnapshotId> keptForBase() {
    if (!newestNeedsBase()) {
      return Optional.empty();
    }
    SnapshotId newest = latest().orElseThrow().id();
    return base()
        .or(
            () ->
                entries.headMap(newest, false).values().stream()
                    .filter(entry -> !entry.corrupt)
                    .map(entry -> entry.snapshot.id())
                    .findFirst());
  }

  /** The newest snapshot's base, if it needs one and one exists (not corrupt). */
  private Optional<SnapshotId> base() {
    if (!newestNeedsBase()) {
      return Optional.empty();
    }
    SnapshotId newest = latest().orElseThrow().id();
    for (Entry entry : entries.headMap(newest, false).descendingMap().values()) {
      if (!entry.corrupt && entry.snapshot.id().isBaseFor(newest)) {
        return Optional.of(entry.snapshot.id());
      }
    }
    return Optional.empty();
  }

  /** True when a snapshot is offered and the newest cannot stand for itself. */
  private boolean newestNeedsBase() {
    return latest().filter(snapshot -> !snapshot.id().isBaseFor(snapshot.id())).isPresent();
  }

  void addHold(Object hold, long index) {
    holdIndexes.put(hold, index);
  }

  /** Moves an open hold; false if it is not open. */
  boolean moveHold(Object hold, long index) {
    return holdIndexes.replace(hold, index) != null;
  }

  /** Removes a hold; false if it was not open. */
  boolean removeHold(Object hold) {
    return holdIndexes.remove(hold) != null;
  }

  /**
   * The minimum over every snapshot's index (reserved and corrupt ones included) and every hold; 1
   * when no snapshot is offered, or when the newest needs a base and has none (a partition's first
   * snapshot, nearly always): a checkpoint between its two positions can then be backed up only
   * from the log's start, so compaction waits for a snapshot that has a base or stands for itself.
   */
  long compactionBoundIndex() {
    if (latest().isEmpty() || (newestNeedsBase() && base().isEmpty())) {
      return 1;
    }
    long bound = Long.MAX_VALUE;
    for (SnapshotId id : entries.keySet()) {
      bound = Math.min(bound, id.index());
    }
    for (long index : holdIndexes.values()) {
      bound = Math.min(bound, index);
    }
    return Math.max(1, bound);
  }

  int count() {
    return entries.size();
  }

  int reservedCount() {
    int reserved = 0;
    for (Entry entry : entries.values()) {
      if (entry.reservations > 0) {
        reserved++;
      }
    }
    return reserved;
  }
}
