package io.cairn.broker;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The partitions one broker hosts, by partition id. Immutable once the broker started them. */
public final class HostedPartitions {

  private final Map<Integer, HostedPartition> byId;

  public HostedPartitions(Collection<HostedPartition> partitions) {
    Map<Integer, HostedPartition> map = new TreeMap<>();
    for (HostedPartition partition : partitions) {
      if (map.put(partition.partitionId(), partition) != null) {
        throw new IllegalArgumentException(
            "Expected each partition once, but partition "
                + partition.partitionId()
                + " is hosted twice");
      }
    }
    byId = map;
  }

  /** The hosted partition {@code partitionId}, if this broker hosts it. */
  public Optional<HostedPartition> get(int partitionId) {
    return Optional.ofNullable(byId.get(partitionId));
  }

  /** Every hosted partition, by partition id ascending. */
  public List<HostedPartition> all() {
    return List.copyOf(byId.values());
  }

  public boolean isEmpty() {
    return byId.isEmpty();
  }
}
