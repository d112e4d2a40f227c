package io.cairn.streamprocessor;

/** Told, on the stream processor's thread, when a partition's health changes. Must not block. */
@FunctionalInterface
public interface HealthListener {

  void onHealthChange(PartitionHealth health);
}
