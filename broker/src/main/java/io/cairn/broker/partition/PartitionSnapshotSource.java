package io.cairn.broker.partition;

import io.cairn.db.CairnDb;
import io.cairn.db.StateDigest;
import io.cairn.logstreams.LogStream;
import io.cairn.raft.RaftRole;
import io.cairn.raft.RaftServer;
import io.cairn.snapshot.SnapshotPositions;
import io.cairn.snapshot.SnapshotSource;
import io.cairn.streamprocessor.ProcessingPositions;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What the snapshot director of one run reads, on the stream processor's thread (the owner of the
 * state).
 *
 * <ul>
 *   <li><b>Index and term</b>: of the last raft entry whose records are all at or below {@code
 *       min(lastProcessed, lastWritten)} ({@link SnapshotIndexLookup}) — the state resumes reading
 *       after that position, so everything from there on must stay in the log.
 *   <li><b>Exported position</b>: the lowest position the partition's exporters acknowledged, as
 *       the state holds it ({@link ExportedPositionSource}); without exporters the processed
 *       position.
 *   <li><b>Committed position</b>: a leader's state may hold effects of batches not committed yet;
 *       a snapshot is persisted only once they are. For a LEADER run the log's commit position
 *       counts only while raft still leads in the run's term: then no other leader can have
 *       replaced this leader's batches at those positions. A stale run (raft installed a snapshot)
 *       reports nothing.
 * </ul>
 */
final class PartitionSnapshotSource implements SnapshotSource, AutoCloseable {

  private final CairnDb db;
  private final ProcessingPositions positions;
  private final FencedLogStream logStream;
  private final RaftServer raft;
  private final boolean leader;
  private final long term;
  private final SnapshotIndexLookup lookup;
  private final ExportedPositionSource exported;

  /**
   * @param exported the exporters' position in the state; {@code null} without exporters
   */
  PartitionSnapshotSource(
      CairnDb db,
      FencedLogStream logStream,
      RaftServer raft,
      SnapshotIndexLookup lookup,
      boolean leader,
      long term,
      ExportedPositionSource exported) {
    this.db = db;
    this.positions = new ProcessingPositions(db);
    this.logStream = logStream;
    this.raft = raft;
    this.lookup = lookup;
    this.leader = leader;
    this.term = term;
    this.exported = exported;
  }

  @Override
  public Optional<SnapshotPositions> positions() {
    if (!logStream.isLive()) {
      return Optional.empty();
    }
    long processed = positions.lastProcessedPosition();
    long written = positions.lastWrittenPosition();
    long resumeAfter = Math.min(processed, written);
    long exportedPosition =
        exported == null ? Math.max(0, processed) : Math.max(0, exported.exportedPosition(db));
    return lookup
        .lastEntryUpTo(resumeAfter)
        .map(
            entry ->
                new SnapshotPositions(
                    entry.index(),
                    entry.term(),
                    Math.max(0, processed),
                    exportedPosition,
                    Math.max(0, written)));
  }

  @Override
  public StateDigest stateDigest() {
    return db.stateDigest();
  }

  @Override
  public void writeState(Path target) {
    db.createCheckpoint(target);
  }

  @Override
  public long committedPosition() {
    if (!logStream.isLive()) {
      return LogStream.NO_POSITION;
    }
    long committed = logStream.commitPosition();
    if (leader && !(raft.role() == RaftRole.LEADER && raft.term() == term)) {
      return LogStream.NO_POSITION; // read after the commit position: still leading in our term
    }
    return committed;
  }

  @Override
  public void close() {
    lookup.close();
  }
}
