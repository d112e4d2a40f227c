package io.cairn.backupapi;

import java.util.Objects;
import java.util.Optional;

/**
 * Selects backups for {@link BackupStore#list}: an optional node, an optional partition and a
 * checkpoint id pattern. An empty optional matches every value.
 */
public record BackupIdentifierWildcard(
    Optional<Integer> nodeId, Optional<Integer> partitionId, CheckpointPattern checkpointPattern) {

  public BackupIdentifierWildcard {
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(partitionId, "partitionId");
    Objects.requireNonNull(checkpointPattern, "checkpointPattern");
    nodeId.ifPresent(
        n -> {
          if (n < 0) {
            throw new IllegalArgumentException(
                "Expected nodeId >= 0, but was " + n + " (backup identifier wildcard)");
          }
        });
    partitionId.ifPresent(
        p -> {
          if (p < 1) {
            throw new IllegalArgumentException(
                "Expected partitionId >= 1, but was " + p + " (backup identifier wildcard)");
          }
        });
  }

  /** Matches every backup. */
  public static BackupIdentifierWildcard all() {
    return new BackupIdentifierWildcard(
        Optional.empty(), Optional.empty(), CheckpointPattern.any());
  }

  /** Matches every backup of one partition. */
  public static BackupIdentifierWildcard ofPartition(int partitionId) {
    return all().withPartition(partitionId);
  }

  /** Matches every backup taken by one node. */
  public static BackupIdentifierWildcard ofNode(int nodeId) {
    return all().withNode(nodeId);
  }

  /** Matches every partition's backups of checkpoint ids matching {@code pattern}. */
  public static BackupIdentifierWildcard ofCheckpoints(CheckpointPattern pattern) {
    return new BackupIdentifierWildcard(Optional.empty(), Optional.empty(), pattern);
  }

  public BackupIdentifierWildcard withNode(int node) {
    return new BackupIdentifierWildcard(Optional.of(node), partitionId, checkpointPattern);
  }

  public BackupIdentifierWildcard withPartition(int partition) {
    return new BackupIdentifierWildcard(nodeId, Optional.of(partition), checkpointPattern);
  }

  public BackupIdentifierWildcard withCheckpoints(CheckpointPattern pattern) {
    return new BackupIdentifierWildcard(nodeId, partitionId, pattern);
  }

  public boolean matches(BackupIdentifier id) {
    return nodeId.map(n -> n == id.nodeId()).orElse(true)
        && partitionId.map(p -> p == id.partitionId()).orElse(true)
        && checkpointPattern.matches(id.checkpointId());
  }

  @Override
  public String toString() {
    return "backups{checkpoint="
        + checkpointPattern
        + ", partition="
        + partitionId.map(String::valueOf).orElse("*")
        + ", node="
        + nodeId.map(String::valueOf).orElse("*")
        + "}";
  }
}
