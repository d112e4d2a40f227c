package io.cairn.raft.state;

import io.cairn.raft.RaftSnapshot;
import io.cairn.raft.RaftSnapshotChunk;
import io.cairn.raft.RaftSnapshotChunkReader;
import java.util.Objects;

/**
 * The leader sending one snapshot to one follower, one chunk at a time. A chunk without answer is
 * sent again.
 *
 * <p>A transfer that cannot go on is <em>stopped</em>: the follower rejected a chunk, or the reader
 * has no chunk where one is due (the snapshot is gone, for example because a newer one replaced
 * it). Stopping closes the reader. A stopped transfer sends nothing more; after a request timeout
 * the leader ends it and starts a new transfer from the latest snapshot. While a transfer is not
 * stopped, {@link #current()} is the chunk sent last.
 */
public final class SnapshotTransfer {

  private final RaftSnapshot snapshot;
  private final RaftSnapshotChunkReader reader;
  private RaftSnapshotChunk current;
  private boolean stopped;

  public SnapshotTransfer(RaftSnapshot snapshot) {
    this.snapshot = Objects.requireNonNull(snapshot, "snapshot");
    this.reader = snapshot.openChunkReader();
  }

  public RaftSnapshot snapshot() {
    return snapshot;
  }

  /** The chunk sent last and not yet acknowledged; null before the first and once stopped. */
  public RaftSnapshotChunk current() {
    return current;
  }

  /**
   * Moves to the next chunk and returns it; null when the reader has no more (the caller then stops
   * the transfer). Returns null without reading once stopped.
   */
  public RaftSnapshotChunk advance() {
    current = !stopped && reader.hasNext() ? reader.next() : null;
    return current;
  }

  /** Sends nothing more: closes the reader. Safe to call more than once. */
  public void stop() {
    if (!stopped) {
      stopped = true;
      current = null;
      reader.close();
    }
  }

  /** True once {@link #stop()} was called; the leader then starts over from the latest snapshot. */
  public boolean isStopped() {
    return stopped;
  }

  void close() {
    stop();
  }

  @Override
  public String toString() {
    return "SnapshotTransfer{index="
        + snapshot.index()
        + ", chunk="
        + (current == null ? -1 : current.chunkIndex())
        + (stopped ? ", stopped" : "")
        + '}';
  }
}
