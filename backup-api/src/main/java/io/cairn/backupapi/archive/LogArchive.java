package io.cairn.backupapi.archive;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * One partition's continuous log archive over a store's {@link ArchiveObjects}: a chain of links,
 * each describing a chunk of consecutive journal records (DESIGN.md §9, "Log archive").
 *
 * <p><b>Writing</b> ({@link #append}): the chunk object first, then its link, created only if no
 * link starts at that index yet. The link key is the chunk's first index, so when two leaders race
 * to continue the chain from the same tail exactly one wins; the other learns it lost ({@link
 * Appended#won()} false), reads the tail again and continues after it. Only committed records are
 * archived, so whoever wins wrote the same records.
 *
 * <p><b>Reading</b> ({@link #chain}): the links from the one holding an index on, each checked to
 * follow its predecessor (next index, previous link's CRC32C); a gap or a changed link is an {@link
 * ArchiveException} naming the partition and the indexes. Reading needs one listing of the
 * partition's links directory starting near the index, never of the chunks.
 */
public final class LogArchive {

  /** A chunk holds at most this many records, so the link holding an index is found nearby. */
  public static final int MAX_CHUNK_RECORDS = 65_536;

  private static final int PAGE = 1000;

  private final ArchiveObjects objects;
  private final int partitionId;
  private final ArchiveLinkCodec codec = new ArchiveLinkCodec();

  public LogArchive(ArchiveObjects objects, int partitionId) {
    this.objects = objects;
    this.partitionId = partitionId;
  }

  public int partitionId() {
    return partitionId;
  }

  /**
   * The outcome of an append.
   *
   * @param won whether this append's link was created; false if another writer continued the chain
   *     from the same index first (nothing of the chain changed by this call then)
   * @param link the link written when {@code won}
   */
  public record Appended(boolean won, Optional<StoredLink> link) {}

  /**
   * Archives {@code records} after {@code previous} (empty: they start a chain).
   *
   * @param records consecutive, following {@code previous} unless they start a chain
   */
  public CompletableFuture<Appended> append(
      Optional<StoredLink> previous,
      List<ArchivedRecord> records,
      List<ArchivedCheckpoint> checkpoints,
      int nodeId,
      Instant now) {
    ArchivedRecord first = records.get(0);
    ArchivedRecord last = records.get(records.size() - 1);
    if (previous.isPresent() && previous.get().link().toIndex() + 1 != first.index()) {
      throw new IllegalArgumentException(
          "Expected records from index "
              + (previous.get().link().toIndex() + 1)
              + " after the chain's tail, but they start at "
              + first.index());
    }
    if (records.size() > MAX_CHUNK_RECORDS) {
      throw new IllegalArgumentException(
          "Expected at most " + MAX_CHUNK_RECORDS + " records, but got " + records.size());
    }
    ArchiveChunk.Encoded chunk = ArchiveChunk.encode(records);
    String chunkKey = ArchiveKeys.chunk(partitionId, first.index(), last.index(), nodeId);
    ArchiveLink link =
        new ArchiveLink(
            partitionId,
            first.index(),
            last.index(),
            records.stream().mapToLong(ArchivedRecord::asqn).filter(a -> a >= 0).min().orElse(-1),
            records.stream().mapToLong(ArchivedRecord::asqn).max().orElse(-1),
            last.checksum(),
            chunkKey,
            chunk.sizeBytes(),
            chunk.stored().length,
            chunk.crc32c(),
            chunk.compression(),
            previous.map(StoredLink::storedCrc32c),
            nodeId,
            now,
            checkpoints);
    byte[] stored = codec.encode(link);
    String linkKey = ArchiveKeys.link(partitionId, first.index());
    // restore points first: a point names a record index, not a link, so whichever leader's link
    // lands, the point is right; and it is never missing behind a link that landed. A chunk key
    // names its writer, so it exists already only when this node wrote it before (an append whose
    // link creation failed): its bytes are the same records
    CompletableFuture<Void> points = CompletableFuture.completedFuture(null);
    for (ArchivedCheckpoint checkpoint : checkpoints) {
      String pointKey = ArchiveKeys.point(partitionId, checkpoint.id());
      byte[] point = codec.encodePoint(partitionId, checkpoint);
      points = points.thenCompose(ignored -> objects.create(pointKey, point).thenApply(c -> null));
    }
    return points
        .thenCompose(ignored -> objects.create(chunkKey, chunk.stored()))
        .thenCompose(created -> objects.create(linkKey, stored))
        .thenApply(
            won ->
                new Appended(
                    won,
                    won
                        ? Optional.of(
                            new StoredLink(link, linkKey, ArchiveLinkCodec.crc32c(stored)))
                        : Optional.empty()));
  }

  /** Restore point {@code checkpointId} of this partition, if the archive has it. */
  public CompletableFuture<Optional<ArchivedCheckpoint>> point(long checkpointId) {
    String key = ArchiveKeys.point(partitionId, checkpointId);
    return objects
        .read(key)
        .thenApply(
            bytes ->
                bytes.map(
                    b -> checkedPoint(codec.decodePoint(b, partitionId, key), checkpointId, key)));
  }

  private static ArchivedCheckpoint checkedPoint(ArchivedCheckpoint point, long id, String key) {
    if (point.id() != id) {
      throw new ArchiveException(
          "Expected restore point "
              + key
              + " to be of checkpoint "
              + id
              + ", but it is of "
              + point.id());
    }
    return point;
  }

  /**
   * Up to {@code limit} ids of this partition's restore points, ascending, each above {@code
   * afterId} (0 for the first page).
   */
  public CompletableFuture<List<Long>> pointIds(long afterId, int limit) {
    return keys(
            ArchiveKeys.pointsDirectory(partitionId),
            afterId < 1 ? null : ArchiveKeys.point(partitionId, afterId),
            limit,
            key -> ArchiveKeys.isPoint(partitionId, key))
        .thenApply(
            keys -> keys.stream().map(k -> ArchiveKeys.checkpointIdOf(partitionId, k)).toList());
  }

  /**
   * Up to {@code limit} keys of this partition's links, in index order, each after {@code afterKey}
   * (null for the first page).
   */
  public CompletableFuture<List<String>> linkKeys(String afterKey, int limit) {
    return keys(
        ArchiveKeys.linksDirectory(partitionId),
        afterKey,
        limit,
        key -> ArchiveKeys.isLink(partitionId, key));
  }

  /**
   * Up to {@code limit} keys of {@code directory} after {@code after} that are the archive's own
   * ({@code ours}), listing on past the rest ({@link ArchiveKeys}): fewer than {@code limit} only
   * when the listing ended, so callers page on as over a plain listing.
   */
  private CompletableFuture<List<String>> keys(
      String directory, String after, int limit, Predicate<String> ours) {
    return keys(directory, after, limit, ours, new ArrayList<>());
  }

  private CompletableFuture<List<String>> keys(
      String directory, String after, int limit, Predicate<String> ours, List<String> found) {
    return objects
        .list(directory, after, limit)
        .thenCompose(
            listed -> {
              for (String key : listed) {
                if (ours.test(key) && found.size() < limit) {
                  found.add(key);
                }
              }
              boolean ended = listed.size() < limit;
              return ended || found.size() == limit
                  ? CompletableFuture.completedFuture(found)
                  : keys(directory, listed.get(listed.size() - 1), limit, ours, found);
            });
  }

  /**
   * The chain's last link: the link with the highest index, listed after {@code known} (the tail
   * the caller knew; empty to list the whole directory).
   */
  public CompletableFuture<Optional<StoredLink>> tail(Optional<StoredLink> known) {
    return lastKey(known.map(StoredLink::key).orElse(null), known.map(StoredLink::key))
        .thenCompose(
            key -> {
              if (key.isEmpty()) {
                return CompletableFuture.completedFuture(Optional.<StoredLink>empty());
              }
              if (known.isPresent() && key.get().equals(known.get().key())) {
                return CompletableFuture.completedFuture(known);
              }
              return readLink(key.get()).thenApply(Optional::of);
            });
  }

  private CompletableFuture<Optional<String>> lastKey(String after, Optional<String> last) {
    return linkKeys(after, PAGE)
        .thenCompose(
            keys -> {
              if (keys.isEmpty()) {
                return CompletableFuture.completedFuture(last);
              }
              String newest = keys.get(keys.size() - 1);
              return keys.size() < PAGE
                  ? CompletableFuture.completedFuture(Optional.of(newest))
                  : lastKey(newest, Optional.of(newest));
            });
  }

  /** Reads and decodes the link stored under {@code key}. */
  public CompletableFuture<StoredLink> readLink(String key) {
    return objects
        .read(key)
        .thenApply(
            bytes -> {
              byte[] stored =
                  bytes.orElseThrow(
                      () ->
                          new ArchiveException(
                              "Expected archive link "
                                  + key
                                  + " of partition "
                                  + partitionId
                                  + " to exist, but it does not (deleted meanwhile?)"));
              return decodeLink(key, stored);
            });
  }

  private StoredLink decodeLink(String key, byte[] stored) {
    ArchiveLink link = codec.decode(stored, key);
    long from = ArchiveKeys.fromIndexOf(partitionId, key);
    if (link.partitionId() != partitionId || link.fromIndex() != from) {
      throw new ArchiveException(
          "Expected archive link "
              + key
              + " to be of partition "
              + partitionId
              + " from index "
              + from
              + ", but it is of partition "
              + link.partitionId()
              + " from index "
              + link.fromIndex());
    }
    return new StoredLink(link, key, ArchiveLinkCodec.crc32c(stored));
  }

  /**
   * The links that hold indexes {@code fromIndex..toIndex}, in order, each following the one before
   * it.
   *
   * @return fails with an {@link ArchiveException} naming the partition and the indexes of a gap
   */
  public CompletableFuture<List<StoredLink>> chain(long fromIndex, long toIndex) {
    if (fromIndex < 1 || toIndex < fromIndex) {
      throw new IllegalArgumentException(
          "Expected 1 <= fromIndex <= toIndex, but " + fromIndex + " to " + toIndex);
    }
    long searchFrom = Math.max(0, fromIndex - MAX_CHUNK_RECORDS);
    String startAfter = searchFrom == 0 ? null : ArchiveKeys.link(partitionId, searchFrom - 1);
    return findStart(startAfter, fromIndex, Optional.empty())
        .thenCompose(
            start -> {
              if (start.isEmpty()) {
                throw gap(fromIndex, -1, toIndex);
              }
              return readLink(start.get());
            })
        .thenCompose(
            first -> {
              if (first.link().toIndex() < fromIndex) {
                return gapAfter(first.key(), fromIndex, toIndex);
              }
              List<StoredLink> chain = new ArrayList<>();
              chain.add(first);
              return follow(chain, toIndex);
            });
  }

  /** The key of the last link starting at or below {@code index}, listed after {@code after}. */
  private CompletableFuture<Optional<String>> findStart(
      String after, long index, Optional<String> best) {
    return linkKeys(after, PAGE)
        .thenCompose(
            keys -> {
              Optional<String> found = best;
              for (String key : keys) {
                if (ArchiveKeys.fromIndexOf(partitionId, key) > index) {
                  return CompletableFuture.completedFuture(found);
                }
                found = Optional.of(key);
              }
              return keys.size() < PAGE
                  ? CompletableFuture.completedFuture(found)
                  : findStart(keys.get(keys.size() - 1), index, found);
            });
  }

  /**
   * Reads on link by link (each one's key is its predecessor's last index + 1) to {@code toIndex}.
   */
  private CompletableFuture<List<StoredLink>> follow(List<StoredLink> chain, long toIndex) {
    StoredLink previous = chain.get(chain.size() - 1);
    if (previous.link().toIndex() >= toIndex) {
      return CompletableFuture.completedFuture(chain);
    }
    long needed = previous.link().toIndex() + 1;
    String key = ArchiveKeys.link(partitionId, needed);
    return objects
        .read(key)
        .thenCompose(
            bytes -> {
              if (bytes.isPresent()) {
                return CompletableFuture.completedFuture(decodeLink(key, bytes.get()));
              }
              return gapAfter(key, needed, toIndex);
            })
        .thenCompose(
            link -> {
              check(previous, link);
              chain.add(link);
              return follow(chain, toIndex);
            });
  }

  /** Fails with the gap from {@code missing} on, naming the next link after {@code key}. */
  private <T> CompletableFuture<T> gapAfter(String key, long missing, long toIndex) {
    return linkKeys(key, 1)
        .thenApply(
            next -> {
              throw gap(
                  missing,
                  next.isEmpty() ? -1 : ArchiveKeys.fromIndexOf(partitionId, next.get(0)),
                  toIndex);
            });
  }

  private void check(StoredLink previous, StoredLink link) {
    if (link.link().previousLinkCrc32c().isEmpty()
        || link.link().previousLinkCrc32c().get() != previous.storedCrc32c()) {
      throw new ArchiveException(
          "Expected archive link "
              + link.key()
              + " of partition "
              + partitionId
              + " to continue the chain after "
              + previous.key()
              + " (records its CRC32C "
              + Long.toHexString(previous.storedCrc32c())
              + "), but it "
              + link.link()
                  .previousLinkCrc32c()
                  .map(crc -> "records " + Long.toHexString(crc))
                  .orElse("starts a new chain")
              + ": the archive has a break at index "
              + link.link().fromIndex());
    }
  }

  private ArchiveException gap(long missingFrom, long nextFrom, long toIndex) {
    return new ArchiveException(
        "Expected the log archive of partition "
            + partitionId
            + " to hold index "
            + missingFrom
            + (toIndex > missingFrom ? " (on the way to index " + toIndex + ")" : "")
            + ", but "
            + (nextFrom < 0
                ? "the archive ends before it"
                : "it has a gap: the next archived index is " + nextFrom));
  }

  /** Reads and checks a link's chunk. */
  public CompletableFuture<List<ArchivedRecord>> read(ArchiveLink link) {
    return objects
        .read(link.chunkKey())
        .thenApply(
            bytes ->
                ArchiveChunk.decode(
                    bytes.orElseThrow(
                        () ->
                            new ArchiveException(
                                "Expected archive chunk "
                                    + link.chunkKey()
                                    + " of partition "
                                    + partitionId
                                    + " (indexes "
                                    + link.fromIndex()
                                    + " to "
                                    + link.toIndex()
                                    + ") to exist, but it does not")),
                    link));
  }
}
