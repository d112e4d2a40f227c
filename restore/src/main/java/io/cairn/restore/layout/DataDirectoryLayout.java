package io.cairn.restore.layout;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cairn.files.DurableFiles;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A broker's data directory as the broker lays it out (its {@code PartitionLayout} and {@code
 * NodeDescriptor}); a restore writes exactly this, and the module's tests check it against the
 * broker's own classes:
 *
 * <pre>
 * &lt;dataDir&gt;/
 *   node.json                          {"formatVersion":1, "clusterId", "nodeId", "partitionCount"},
 *                                      written last: a broker refuses a directory that holds
 *                                      partitions without it, so a half-restored directory is
 *                                      never opened
 *   partitions/&lt;p&gt;/
 *     journal/raft-partition-&lt;p&gt;-&lt;segmentId&gt;.log   the log, ending at the checkpoint
 *     raft-meta/term-vote.meta         the raft term of the log's last entry, no vote
 *     snapshots/snapshots/&lt;id&gt;/        the backup's snapshot, installed by the snapshot store
 *     restored-backup.json             {@link io.cairn.backup.restore.RestoreMarker}: what the partition
 *                                      must reproduce at its checkpoint
 *   .restore-staging/&lt;p&gt;/             downloads in flight; removed when the restore ends
 * </pre>
 */
public final class DataDirectoryLayout {

  /** The node descriptor's file name. */
  public static final String NODE_DESCRIPTOR_FILE = "node.json";

  /** The node descriptor format the broker reads. */
  public static final int NODE_DESCRIPTOR_FORMAT_VERSION = 1;

  /** Where downloads are staged, inside the data directory (same file system: renames work). */
  public static final String STAGING_DIRECTORY = ".restore-staging";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path dataDirectory;

  public DataDirectoryLayout(Path dataDirectory) {
    this.dataDirectory = dataDirectory.toAbsolutePath().normalize();
  }

  public Path dataDirectory() {
    return dataDirectory;
  }

  public Path nodeDescriptor() {
    return dataDirectory.resolve(NODE_DESCRIPTOR_FILE);
  }

  public Path staging() {
    return dataDirectory.resolve(STAGING_DIRECTORY);
  }

  public Path staging(int partitionId) {
    return staging().resolve(Integer.toString(partitionId));
  }

  public Path partitions() {
    return dataDirectory.resolve("partitions");
  }

  /** {@code <dataDir>/partitions/<partitionId>}. */
  public Path partition(int partitionId) {
    if (partitionId < 1) {
      throw new IllegalArgumentException(
          "Expected partitionId >= 1, but was " + partitionId + " (data directory layout)");
    }
    return partitions().resolve(Integer.toString(partitionId));
  }

  public Path journal(int partitionId) {
    return partition(partitionId).resolve("journal");
  }

  public Path raftMetaFile(int partitionId) {
    return partition(partitionId).resolve("raft-meta").resolve("term-vote.meta");
  }

  public Path snapshots(int partitionId) {
    return partition(partitionId).resolve("snapshots");
  }

  /** The live state's directory (a verification rebuilds the state there). */
  public Path runtime(int partitionId) {
    return partition(partitionId).resolve("runtime");
  }

  /** The journal's file name prefix: segment files are {@code <name>-<segmentId>.log}. */
  public static String journalName(int partitionId) {
    return "raft-partition-" + partitionId;
  }

  /** Writes {@code node.json} atomically in the broker's format. */
  public void writeNodeDescriptor(String clusterId, int nodeId, int partitionCount)
      throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("formatVersion", NODE_DESCRIPTOR_FORMAT_VERSION);
    root.put("clusterId", clusterId);
    root.put("nodeId", nodeId);
    root.put("partitionCount", partitionCount);
    DurableFiles.writeAtomically(
        nodeDescriptor(), JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
  }
}
