package io.cairn.backup;

import io.cairn.backupapi.BackupStore;
import io.cairn.journal.Journal;
import io.cairn.logstreams.LogStreamWriter;
import io.cairn.snapshot.SnapshotStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/** Collects what a backup manager needs; every setting is required unless it has a default. */
public final class BackupManagerBuilder {
  int partitionId;
  int nodeId = -1;
  int partitionCount;
  String brokerVersion;
  BackupStore store;
  SnapshotStore snapshots;
  Journal journal;
  LogStreamWriter writer;
  Executor uploadExecutor;
  BackupConfig config = BackupConfig.defaults();
  BackupMetrics metrics;

  BackupManagerBuilder() {}

  public BackupManagerBuilder partitionId(int value) {
    partitionId = value;
    return this;
  }

  /** This member's node id (written into backup identifiers). */
  public BackupManagerBuilder nodeId(int value) {
    nodeId = value;
    return this;
  }

  /** The cluster's partition count (written into descriptors). */
  public BackupManagerBuilder partitionCount(int value) {
    partitionCount = value;
    return this;
  }

  public BackupManagerBuilder brokerVersion(String value) {
    brokerVersion = value;
    return this;
  }

  public BackupManagerBuilder store(BackupStore value) {
    store = value;
    return this;
  }

  /** The partition's snapshot store (reservations, compaction holds). */
  public BackupManagerBuilder snapshots(SnapshotStore value) {
    snapshots = value;
    return this;
  }

  /** The partition's raft journal, whose segments are backed up. */
  public BackupManagerBuilder journal(Journal value) {
    journal = value;
    return this;
  }

  /** Writes {@code CONFIRM_BACKUP}; the partition's log stream writer. */
  public BackupManagerBuilder writer(LogStreamWriter value) {
    writer = value;
    return this;
  }

  /**
   * Runs the collection of files (journal reads): a named, bounded executor owned by the caller; it
   * may be shared by the partitions of a broker.
   */
  public BackupManagerBuilder uploadExecutor(Executor value) {
    uploadExecutor = value;
    return this;
  }

  /** {@link BackupConfig#defaults()} by default. */
  public BackupManagerBuilder config(BackupConfig value) {
    config = value;
    return this;
  }

  /** The partition's metrics, shared with its checkpoint records. */
  public BackupManagerBuilder metrics(BackupMetrics value) {
    metrics = value;
    return this;
  }

  /**
   * @throws IllegalArgumentException naming a missing or invalid setting
   */
  public BackupManager build() {
    List<String> violations = new ArrayList<>();
    if (partitionId < 1) {
      violations.add("partitionId >= 1, but was " + partitionId);
    }
    if (nodeId < 0) {
      violations.add("nodeId >= 0, but was " + nodeId);
    }
    if (partitionCount < partitionId || partitionCount < 1) {
      violations.add(
          "partitionCount >= max(1, partitionId), but was "
              + partitionCount
              + " (partitionId "
              + partitionId
              + ")");
    }
    if (brokerVersion == null || brokerVersion.isBlank()) {
      violations.add("a brokerVersion, but it is missing");
    }
    require(store, "store", violations);
    require(snapshots, "snapshots", violations);
    require(journal, "journal", violations);
    require(writer, "writer", violations);
    require(uploadExecutor, "uploadExecutor", violations);
    require(config, "config", violations);
    require(metrics, "metrics", violations);
    if (!violations.isEmpty()) {
      throw new IllegalArgumentException(
          "Expected " + String.join("; ", violations) + " (BackupManager)");
    }
    return new BackupManager(this);
  }

  private static void require(Object value, String name, List<String> out) {
    if (value == null) {
      out.add(name + " to be set, but it is missing");
    }
  }
}
