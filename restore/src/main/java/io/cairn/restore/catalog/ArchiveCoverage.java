package io.cairn.restore.catalog;

import io.cairn.backupapi.archive.ArchiveKeys;
import io.cairn.backupapi.archive.ArchiveLink;
import io.cairn.backupapi.archive.LogArchive;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Which journal indexes one partition's log archive holds, learned as {@link RestorePoints} asks
 * and kept for one listing or resolution. A restore point is written before the chunk and link that
 * archive its records, so a point can name an index the archive does not hold: one past its tail
 * (the archive is behind and will catch up), or one inside a gap (the leader that recorded the
 * point lost its records, and a later leader started a new chain after them): a restore to such a
 * point would fail on the gap.
 *
 * <p>Lists the link keys from the lowest index asked about (looking back from it in steps of 16,
 * 256, ... records for the link that starts at or below it) and reads only the links that would
 * hold an asked index and the last one (the tail), each once. Ask about indexes in ascending order
 * and the keys are listed once.
 */
final class ArchiveCoverage {

  private static final int PAGE = 1000;
  private static final int LOOK_BACK_STEP = 16;

  private final LogArchive archive;
  private final Duration timeout;
  private final OptionalInt partition;
  private long tail = -1;

  /**
   * Link keys by first index: every key from the one that holds {@link #listedFrom} (if any) on, so
   * that the floor key of an index at or above it is the link that would hold it.
   */
  private final NavigableMap<Long, String> keys = new TreeMap<>();

  private long listedFrom = Long.MAX_VALUE;
  private final Map<String, ArchiveLink> links = new TreeMap<>();

  ArchiveCoverage(LogArchive archive, Duration timeout) {
    this.archive = archive;
    this.timeout = timeout;
    this.partition = OptionalInt.of(archive.partitionId());
  }

  /**
   * The last index the archive holds, 0 when it is empty: the last link listed from the one that
   * would hold {@code index} on, so that asking about an index lists the keys once, not also the
   * whole directory for the tail.
   */
  long tail(long index) {
    if (index < listedFrom) {
      listFrom(index);
    }
    Map.Entry<Long, String> last = keys.lastEntry();
    if (last != null) {
      return links.computeIfAbsent(last.getValue(), this::read).toIndex();
    }
    // no link from a chunk's reach below index on: the tail, if any, lies further back
    if (tail < 0) {
      tail =
          StoreCalls.await(
                  archive.tail(Optional.empty()),
                  timeout,
                  "reading the last link of the log archive of partition " + archive.partitionId(),
                  partition)
              .map(stored -> stored.link().toIndex())
              .orElse(0L);
    }
    return tail;
  }

  /**
   * Why the archive does not hold {@code index}, for people ("not archived yet on partition 2", "in
   * a gap of partition 2's archive (indexes 11 to 20 are not archived)"); empty when it holds it.
   */
  Optional<String> missing(long index) {
    int partitionId = archive.partitionId();
    if (tail(index) < index) {
      return Optional.of("not archived yet on partition " + partitionId);
    }
    Map.Entry<Long, String> floor = keys.floorEntry(index);
    Long next = keys.higherKey(index);
    if (floor == null) {
      // no link starts at or below index within a chunk's reach: none holds it
      return Optional.of(
          "not in partition "
              + partitionId
              + "'s archive (no link holds index "
              + index
              + (next == null ? "" : "; the next archived index is " + next)
              + ")");
    }
    ArchiveLink link = links.computeIfAbsent(floor.getValue(), this::read);
    if (link.toIndex() >= index) {
      return Optional.empty();
    }
    return Optional.of(
        "in a gap of partition "
            + partitionId
            + "'s archive (indexes "
            + (link.toIndex() + 1)
            + " to "
            + (next == null ? "its tail" : String.valueOf(next - 1))
            + " are not archived)");
  }

  /**
   * Lists the link keys from the last one starting at or below {@code index} up to those known. A
   * chunk holds at most {@link LogArchive#MAX_CHUNK_RECORDS} records, so no link starting further
   * back can hold {@code index}.
   */
  private void listFrom(long index) {
    long start = Math.max(1, index - LogArchive.MAX_CHUNK_RECORDS + 1);
    // the floor key of every index from here on will be known: the first key a probe finds at or
    // below index, or index itself when no link within reach starts at or below it
    long known = index;
    for (long back = LOOK_BACK_STEP; ; back *= LOOK_BACK_STEP) {
      long probe = Math.max(start, index - back + 1);
      List<String> first = page(probe, 1);
      if (!first.isEmpty() && fromIndex(first.get(0)) <= index) {
        start = probe;
        known = fromIndex(first.get(0));
        break;
      }
      if (probe == start) {
        break;
      }
    }
    // every key from start on, up to those listed before
    long after = start - 1;
    while (true) {
      List<String> listed = page(after + 1, PAGE);
      for (String key : listed) {
        long from = fromIndex(key);
        if (from >= listedFrom) {
          listedFrom = known;
          return;
        }
        keys.put(from, key);
      }
      if (listed.size() < PAGE) {
        listedFrom = known;
        return;
      }
      after = fromIndex(listed.get(listed.size() - 1));
    }
  }

  /** Up to {@code limit} link keys starting at or above {@code fromIndex}. */
  private List<String> page(long fromIndex, int limit) {
    String after = fromIndex <= 1 ? null : ArchiveKeys.link(archive.partitionId(), fromIndex - 1);
    return StoreCalls.await(
        archive.linkKeys(after, limit),
        timeout,
        "listing the links of the log archive of partition " + archive.partitionId(),
        partition);
  }

  private ArchiveLink read(String key) {
    return StoreCalls.await(
            archive.readLink(key),
            timeout,
            "reading archive link " + key + " of partition " + archive.partitionId(),
            partition)
        .link();
  }

  private long fromIndex(String key) {
    return ArchiveKeys.fromIndexOf(archive.partitionId(), key);
  }
}
