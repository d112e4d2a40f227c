package io.cairn.raft;

import java.util.Iterator;

/** Reads a snapshot's chunks in order. Used by one thread; closed when the transfer ends. */
public interface RaftSnapshotChunkReader extends Iterator<RaftSnapshotChunk>, AutoCloseable {

  @Override
  void close();
}
