package io.cairn.raft;

import java.util.Optional;

/**
 * What raft needs from the snapshot store: the latest snapshot (to send to followers that lag
 * behind the compacted log), a receiver for snapshots sent by the leader, and how far the log may
 * be compacted. Called only from the raft member's thread.
 */
public interface RaftSnapshotStore {

  /** The newest committed snapshot, if any. */
  Optional<RaftSnapshot> latestSnapshot();

  /**
   * The lowest log index that must be kept: compaction never deletes this entry or any after it. It
   * accounts for every kept snapshot, reservation and reader that still needs entries. Returns 1
   * (keep everything) when there is no snapshot, or when the store needs the whole log for another
   * reason.
   */
  long compactionBoundIndex();

  /**
   * Starts receiving the snapshot at {@code index}/{@code term} from the leader. Any receiver
   * started earlier and not committed is aborted.
   */
  RaftSnapshotReceiver newReceiver(long index, long term);
}
