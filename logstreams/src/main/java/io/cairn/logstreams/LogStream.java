package io.cairn.logstreams;

import io.cairn.protocol.RecordMetadata;

/**
 * One partition's replicated log as the stream processor sees it: a sequence of records with
 * positions that strictly increase, written in batches (one batch = one replicated entry) and
 * readable once committed.
 *
 * <p>Contract, for every implementation:
 *
 * <ul>
 *   <li>Positions are assigned by the {@linkplain #writer() writer} when a batch is written: the
 *       records of a batch get consecutive positions, and every batch's positions are higher than
 *       those of every batch before it in the log. The first position of an empty log is {@link
 *       #FIRST_POSITION}.
 *   <li>Readers return committed records only, in position order, never a record twice, and never a
 *       record that is later removed. A committed record never changes.
 *   <li>{@link #commitPosition()} never decreases. Commit listeners are told after it advanced.
 *   <li>An uncommitted batch may be dropped (the leader lost its leadership before a majority had
 *       it). Its positions may then be assigned again by the next leader.
 * </ul>
 *
 * <p>Thread-safety: every method may be called from any thread; a reader is used by one thread at a
 * time.
 */
public interface LogStream extends AutoCloseable {

  /** No position: before the first record, or nothing committed yet. */
  long NO_POSITION = RecordMetadata.NO_POSITION;

  /** The position of the first record of a partition's log. */
  long FIRST_POSITION = 1L;

  /** The partition this log belongs to. */
  int partitionId();

  /**
   * Opens a reader over the committed records, positioned at the first record. Close it when done.
   *
   * @throws IllegalStateException if the log stream is closed
   */
  LogStreamReader newReader();

  /**
   * The writer. It writes while this member leads the partition and answers {@link
   * WriteResult.NotLeader} otherwise. For writers that serve any leader term (a gateway's client
   * commands).
   */
  LogStreamWriter writer();

  /**
   * A writer bound to this member's current leadership: it writes only during the leader term in
   * which it was created and answers {@link WriteResult.NotLeader} for good once that term ends,
   * even if this member leads again later. Created while this member does not lead, it always
   * answers {@code NotLeader}.
   *
   * <p>The stream processor writes through one, so that a processor never outlives the leadership
   * it started in: state built on batches that a leader change may have dropped is never extended
   * in a later term.
   */
  LogStreamWriter newLeaderWriter();

  /** The position of the last committed record, or {@link #NO_POSITION}. Never decreases. */
  long commitPosition();

  /**
   * The highest position in this member's copy of the log, committed or not, or {@link
   * #NO_POSITION} when it holds no record. A new leader replays up to here before it processes:
   * everything a previous leader wrote that this member has will be committed by it.
   */
  long lastWrittenPosition();

  /**
   * Adds a listener told whenever the commit position advances. It is called on the thread that
   * advanced the commit (for a raft log stream, the raft member's thread): it must return quickly
   * and hand the work to its own thread.
   */
  void addCommitListener(CommitListener listener);

  /** Removes a listener added before; does nothing if it is not registered. */
  void removeCommitListener(CommitListener listener);

  /**
   * Stops the log stream: readers return no more records, the writer answers {@link
   * WriteResult.NotLeader}, listeners are no longer told. Does not close the underlying log.
   * Idempotent.
   */
  @Override
  void close();
}
