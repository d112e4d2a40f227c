package io.cairn.raft;

/** A committed snapshot as raft sees it: the log index and term it covers, readable in chunks. */
public interface RaftSnapshot {

  /** The index of the last log entry the snapshot contains. */
  long index();

  /** The term of that entry. */
  long term();

  /**
   * Opens a reader over the snapshot's chunks, in order, from the first. The reader stays valid
   * while it is open even if a newer snapshot is committed meanwhile. A reader opened after this
   * snapshot was replaced or lost may have no chunks; the leader then starts over from the latest
   * snapshot.
   */
  RaftSnapshotChunkReader openChunkReader();
}
