package io.cairn.restore;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One node's data directory to restore into, and what the broker that will open it is configured
 * with (take every value from that broker's configuration).
 *
 * @param dataDirectory the broker's {@code data.directory}; must be empty or not exist
 * @param clusterId the broker's {@code cluster.clusterId}, written into {@code node.json}
 * @param nodeId the broker's {@code cluster.nodeId}
 * @param shape the cluster's size, partition count and replication factor
 * @param brokerVersion the version of the broker that will open the directory; a backup taken by an
 *     incompatible version is refused (see {@link io.cairn.restore.catalog.VersionCompatibility})
 */
public record RestoreTarget(
    Path dataDirectory, String clusterId, int nodeId, ClusterShape shape, String brokerVersion) {

  public RestoreTarget {
    Objects.requireNonNull(dataDirectory, "dataDirectory");
    Objects.requireNonNull(shape, "shape");
    if (clusterId == null || clusterId.isBlank()) {
      throw new IllegalArgumentException(
          "Expected a non-blank clusterId, but was '" + clusterId + "' (restore target)");
    }
    if (nodeId < 0 || nodeId >= shape.clusterSize()) {
      throw new IllegalArgumentException(
          "Expected a node id in [0, "
              + (shape.clusterSize() - 1)
              + "], but was "
              + nodeId
              + " (restore target)");
    }
    if (brokerVersion == null || brokerVersion.isBlank()) {
      throw new IllegalArgumentException(
          "Expected a non-blank brokerVersion, but was '" + brokerVersion + "' (restore target)");
    }
    dataDirectory = dataDirectory.toAbsolutePath().normalize();
  }
}
