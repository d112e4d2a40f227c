package io.cairn.broker.partition;

import io.cairn.db.CairnDb;
import io.cairn.logstreams.LogStream;
import io.cairn.streamprocessor.StreamProcessorMode;
import java.util.Objects;

/**
 * One stream processor's run on a partition: built when the partition takes a role (or rebuilds its
 * state), ended when that role ends. Components register per run, because the database and the
 * stream processor change with every run.
 *
 * @param partition what lives as long as the partition
 * @param mode {@code LEADER} or {@code FOLLOWER}
 * @param term the raft term the role was taken in (for a follower: the term raft was in)
 * @param db the state; used only on the stream processor's thread, and only until {@link
 *     PartitionComponent#onProcessingStopped} for this scope
 * @param logStream the log as this run's stream processor sees it: once the state is stale (raft
 *     installed a snapshot), its readers return nothing more and its leader writer refuses
 * @param run the number of this run on this partition, from 1; increases with every run
 */
public record ProcessingScope(
    PartitionContext partition,
    StreamProcessorMode mode,
    long term,
    CairnDb db,
    LogStream logStream,
    long run) {

  public ProcessingScope {
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(db, "db");
    Objects.requireNonNull(logStream, "logStream");
  }

  public int partitionId() {
    return partition.partitionId();
  }

  public boolean isLeader() {
    return mode == StreamProcessorMode.LEADER;
  }
}
