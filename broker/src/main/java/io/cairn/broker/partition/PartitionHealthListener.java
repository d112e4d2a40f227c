package io.cairn.broker.partition;

/** Told, on the partition's thread, when a partition's health changes. Must not block. */
@FunctionalInterface
public interface PartitionHealthListener {

  void onHealthChange(PartitionHealthReport health);
}
