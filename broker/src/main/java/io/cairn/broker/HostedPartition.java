package io.cairn.broker;

import io.cairn.broker.partition.BackupComponent;
import io.cairn.broker.partition.LedgerComponent;
import io.cairn.broker.partition.Partition;
import io.cairn.broker.partition.PartitionHealthReport;
import io.cairn.broker.partition.PartitionRole;
import io.cairn.engine.InterPartitionReceiver;
import java.util.Objects;

/**
 * A partition this broker hosts, with the components the broker's request handlers reach into.
 *
 * @param partition the assembled partition
 * @param ledger its ledger component (account queries)
 * @param backups its checkpoint and backup component
 * @param receiver writes inter-partition commands from other partitions' leaders to its log
 */
public record HostedPartition(
    Partition partition,
    LedgerComponent ledger,
    BackupComponent backups,
    InterPartitionReceiver receiver) {

  public HostedPartition {
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(ledger, "ledger");
    Objects.requireNonNull(backups, "backups");
    Objects.requireNonNull(receiver, "receiver");
  }

  public int partitionId() {
    return partition.partitionId();
  }

  public PartitionRole role() {
    return partition.role();
  }

  public long term() {
    return partition.term();
  }

  public PartitionHealthReport health() {
    return partition.health();
  }

  /** Whether this member leads the partition and processes commands now. */
  public boolean isLeader() {
    return partition.role() == PartitionRole.LEADER;
  }
}
