package io.cairn.gateway;

import io.cairn.protocol.api.BackupDetails;
import io.cairn.protocol.api.BackupState;
import io.cairn.protocol.api.BackupStatusEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The state the {@link FakeBroker}s of one test share, as a real cluster's partitions and backup
 * store would: a tiny ledger and the last checkpoint id per partition, and the backup statuses of
 * the (shared) store. Every method is synchronized; brokers call it from their handler threads.
 */
public final class FakeCluster {
  public static final String CLUSTER_ID = "cairn-test";
  public static final String VERSION = "0.1.0-test";

  public final int partitionCount;
  private final Map<Integer, Map<String, Long>> balances = new HashMap<>();
  private final Map<Integer, Long> checkpoints = new HashMap<>();
  private final Map<Integer, Long> positions = new HashMap<>();
  private final List<BackupStatusEntry> store = new ArrayList<>();
  private int refunds;

  public FakeCluster(int partitionCount) {
    this.partitionCount = partitionCount;
    reset();
  }

  public synchronized void reset() {
    balances.clear();
    checkpoints.clear();
    positions.clear();
    store.clear();
    refunds = 0;
    for (int p = 1; p <= partitionCount; p++) {
      balances.put(p, new HashMap<>());
      checkpoints.put(p, 0L);
      positions.put(p, 0L);
    }
  }

  public synchronized long nextPosition(int partitionId) {
    return positions.merge(partitionId, 1L, Long::sum);
  }

  public synchronized Long balance(int partitionId, String accountId) {
    return balances.get(partitionId).get(accountId);
  }

  public synchronized void setBalance(int partitionId, String accountId, long value) {
    balances.get(partitionId).put(accountId, value);
  }

  /** Counts a cross-partition transfer accepted for an unknown target and refunded. */
  public synchronized void refund() {
    refunds++;
  }

  /** Cross-partition transfers accepted for an unknown target (and refunded) since the reset. */
  public synchronized int refunds() {
    return refunds;
  }

  public synchronized long checkpoint(int partitionId) {
    return checkpoints.get(partitionId);
  }

  public synchronized void setCheckpoint(int partitionId, long checkpointId) {
    checkpoints.put(partitionId, checkpointId);
  }

  public synchronized void addBackup(BackupStatusEntry entry) {
    store.add(entry);
  }

  /** A completed partition backup as a broker's backup manager would record it. */
  public static BackupStatusEntry completed(
      int nodeId, int partitionId, long checkpointId, long position) {
    return new BackupStatusEntry(
        nodeId,
        partitionId,
        checkpointId,
        BackupState.COMPLETED,
        "",
        1_700_000_000_000L + checkpointId,
        1_700_000_001_000L + checkpointId,
        Optional.of(details(position)));
  }

  public static BackupStatusEntry inProgress(int nodeId, int partitionId, long checkpointId) {
    return new BackupStatusEntry(
        nodeId,
        partitionId,
        checkpointId,
        BackupState.IN_PROGRESS,
        "",
        1_700_000_000_000L,
        1_700_000_000_500L,
        Optional.of(details(7)));
  }

  public static BackupStatusEntry failed(
      int nodeId, int partitionId, long checkpointId, String reason) {
    return new BackupStatusEntry(
        nodeId,
        partitionId,
        checkpointId,
        BackupState.FAILED,
        reason,
        1_700_000_000_000L,
        1_700_000_002_000L,
        Optional.empty());
  }

  private static BackupDetails details(long position) {
    return new BackupDetails(position, "snap-" + position, 3, VERSION, "00ff", 4, 4096);
  }

  /** The store's statuses in its listing order: partition, checkpoint, node. */
  public synchronized List<BackupStatusEntry> backups() {
    List<BackupStatusEntry> sorted = new ArrayList<>(store);
    sorted.sort(
        Comparator.comparingInt(BackupStatusEntry::partitionId)
            .thenComparingLong(BackupStatusEntry::checkpointId)
            .thenComparingInt(BackupStatusEntry::nodeId));
    return sorted;
  }

  public synchronized boolean removeBackups(long checkpointId) {
    if (store.stream()
        .anyMatch(e -> e.checkpointId() == checkpointId && e.state() == BackupState.IN_PROGRESS)) {
      return false;
    }
    store.removeIf(e -> e.checkpointId() == checkpointId);
    return true;
  }
}
