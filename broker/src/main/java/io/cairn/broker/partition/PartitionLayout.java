package io.cairn.broker.partition;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where one partition keeps its files on one broker:
 *
 * <pre>
 * &lt;dataDir&gt;/partitions/&lt;partitionId&gt;/
 *   journal/            raft log segments: raft-partition-&lt;p&gt;-&lt;segmentId&gt;.log
 *   raft-meta/          term-vote.meta: the persisted raft term and vote
 *   snapshots/          the snapshot store: snapshots/&lt;id&gt;/ (valid ones), transient/
 *   runtime/            the live RocksDB state; deleted and recovered from the newest snapshot
 *                       whenever the partition (re)builds its state, so it is never backed up
 * </pre>
 *
 * @param directory {@code <dataDir>/partitions/<partitionId>}
 */
public record PartitionLayout(Path directory) {

  public PartitionLayout {
    Objects.requireNonNull(directory, "directory");
  }

  /** The layout of {@code partitionId} under a broker's data directory. */
  public static PartitionLayout of(Path dataDirectory, int partitionId) {
    if (partitionId < 1) {
      throw new IllegalArgumentException(
          "Expected partitionId >= 1, but was " + partitionId + " (partition layout)");
    }
    return new PartitionLayout(
        dataDirectory.resolve("partitions").resolve(Integer.toString(partitionId)));
  }

  /** The journal's directory. */
  public Path journal() {
    return directory.resolve("journal");
  }

  /** The raft meta file (term and vote); its directory is created when the partition opens. */
  public Path raftMetaFile() {
    return directory.resolve("raft-meta").resolve("term-vote.meta");
  }

  /** The snapshot store's root. */
  public Path snapshots() {
    return directory.resolve("snapshots");
  }

  /** The live state (RocksDB), rebuilt from the newest snapshot on every state rebuild. */
  public Path runtime() {
    return directory.resolve("runtime");
  }

  /** The journal's file name prefix. */
  public static String journalName(int partitionId) {
    return "raft-partition-" + partitionId;
  }
}
