package io.cairn.backupapi.archive;

import io.cairn.backupapi.Compression;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One link of a partition's archive chain: it describes one chunk, the journal records {@code
 * fromIndex..toIndex}, and is stored under {@link ArchiveKeys#link} — keyed by {@code fromIndex}
 * and written once, so two leaders can never both continue the chain at the same index. Each link
 * records the CRC32C of the link before it; a link without one starts a chain (the partition's
 * first archived records, or the first after records the archive never got).
 *
 * @param partitionId the partition
 * @param fromIndex the chunk's first journal index
 * @param toIndex its last journal index, at least {@code fromIndex}
 * @param fromPosition the lowest log position in the chunk (the first asqn), or -1 if it holds none
 * @param toPosition the highest log position that starts a record in the chunk, or -1
 * @param toChecksum the journal checksum of the record at {@code toIndex}: a member whose record
 *     there differs has left the archived history (a restored cluster) and must not continue it
 * @param chunkKey the chunk object's key
 * @param sizeBytes the chunk's encoded size before compression
 * @param storedBytes the chunk object's size
 * @param crc32c the CRC32C of the chunk before compression
 * @param compression how the chunk object is compressed
 * @param previousLinkCrc32c the CRC32C of the stored previous link; empty for a chain start
 * @param nodeId the broker that archived it
 * @param archivedAt when it was archived
 * @param checkpoints the checkpoints whose {@code CREATED} event is in the chunk, in log order
 */
public record ArchiveLink(
    int partitionId,
    long fromIndex,
    long toIndex,
    long fromPosition,
    long toPosition,
    int toChecksum,
    String chunkKey,
    long sizeBytes,
    long storedBytes,
    long crc32c,
    Compression compression,
    Optional<Long> previousLinkCrc32c,
    int nodeId,
    Instant archivedAt,
    List<ArchivedCheckpoint> checkpoints) {

  public ArchiveLink {
    Objects.requireNonNull(chunkKey, "chunkKey");
    Objects.requireNonNull(compression, "compression");
    Objects.requireNonNull(previousLinkCrc32c, "previousLinkCrc32c");
    Objects.requireNonNull(archivedAt, "archivedAt");
    checkpoints = List.copyOf(checkpoints);
    if (partitionId < 1 || fromIndex < 1 || toIndex < fromIndex) {
      throw new IllegalArgumentException(
          "Expected partition >= 1 and 1 <= fromIndex <= toIndex, but partition "
              + partitionId
              + ", indexes "
              + fromIndex
              + " to "
              + toIndex);
    }
  }

  /** Whether this link starts a chain (nothing before it can be read on from it). */
  public boolean startsChain() {
    return previousLinkCrc32c.isEmpty();
  }
}
