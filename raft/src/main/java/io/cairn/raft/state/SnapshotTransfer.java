package io.cairn.raft.state;

import io.cairn.raft.RaftSnapshot;
import io.cairn.raft.RaftSnapshotChunk;
import io.cairn.raft.RaftSnapshotChunkReader;

/**
 * The leader sending one snapshot to one follower, one chunk at a time. A rejected chunk restarts
 * the transfer from chunk 0 with a new reader; a chunk without answer is sent again.
 */
public final class SnapshotTransfer {

  private final RaftSnapshot snapshot;
  private RaftSnapshotChunkReader reader;
  private RaftSnapshotChunk current;
  private int restarts;

  public SnapshotTransfer(RaftSnapshot snapshot) {
    this.snapshot = snapshot;
    this.reader = snapshot.openChunkReader();
  }

  public RaftSnapshot snapshot() {
    return snapshot;
  }

  /** The chunk sent last and not yet acknowledged, or null before the first. */
  public RaftSnapshotChunk current() {
    return current;
  }

  /** Moves to the next chunk and returns it; null when the reader has no more. */
  public RaftSnapshotChunk advance() {
    current = reader.hasNext() ? reader.next() : null;
    return current;
  }

  /** Starts again from chunk 0 (after a rejection). */
  public void restart() {
    reader.close();
    reader = snapshot.openChunkReader();
    current = null;
    restarts++;
  }

  public int restarts() {
    return restarts;
  }

  void close() {
    reader.close();
  }

  @Override
  public String toString() {
    return "SnapshotTransfer{index="
        + snapshot.index()
        + ", chunk="
        + (current == null ? -1 : current.chunkIndex())
        + ", restarts="
        + restarts
        + '}';
  }
}
