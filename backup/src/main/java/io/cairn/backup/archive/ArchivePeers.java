package io.cairn.backup.archive;

import io.cairn.backupapi.archive.ArchivedRecord;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The other members of a partition, asked by a leader for committed records its own log no longer
 * holds: a member that installed a snapshot past the archive's tail and then won an election lacks
 * the records between, while the members that kept compaction held for the archive still have them.
 */
@FunctionalInterface
public interface ArchivePeers {

  /** A partition with no other member to ask: every answer is "nobody holds them". */
  ArchivePeers NONE = (from, to, maxBytes) -> CompletableFuture.completedFuture(List.of());

  /**
   * Committed records from index {@code from} on, consecutive, at most up to {@code to} and about
   * {@code maxBytes} (at least one record), as the first member that holds {@code from} answers.
   *
   * @return the records; empty when every member answered that it does not hold {@code from}. Fails
   *     when no member had them and at least one could not be asked (down, unreachable, timed out):
   *     that member may hold them, so the caller tries again later.
   */
  CompletableFuture<List<ArchivedRecord>> committedRecords(long from, long to, int maxBytes);
}
