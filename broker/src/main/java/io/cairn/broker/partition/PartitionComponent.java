package io.cairn.broker.partition;

import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessor;
import java.util.List;

/**
 * A part of a partition that plugs into its processing without the partition knowing it: the ledger
 * engine, the checkpoint processor and the backup manager are components.
 *
 * <p>Life cycle, every call on the partition's thread, in this order:
 *
 * <pre>
 * columnFamilies()                      once, when the partition opens its state
 * ┌─ registerProcessors(scope, builder)  for every stream processor (every role, every rebuild)
 * │  onBecomeLeader(scope, processor)    after a LEADER processor started   ─┐ one of
 * │  onBecomeFollower(scope, processor)  after a FOLLOWER processor started ─┘ the two
 * └─ onProcessingStopped(scope)          before that processor closes (role ends, rebuild, close)
 * close()                               once, when the partition closes
 * </pre>
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>Processors and appliers registered in {@link #registerProcessors} run on the stream
 *       processor's thread, over {@link ProcessingScope#db()}; appliers must be deterministic
 *       functions of the record and the state (they run on leaders and followers alike).
 *   <li>Leader-only work (re-sending credits, backups) starts in {@link #onBecomeLeader} and stops
 *       in {@link #onProcessingStopped}. After that call nothing may touch the scope's database:
 *       the partition may close it and rebuild state from a snapshot.
 *   <li>Callbacks must not block; hand long work to an actor or to {@link
 *       PartitionContext#ioExecutor()}.
 *   <li>Every scope passed to {@link #registerProcessors} is ended by exactly one {@link
 *       #onProcessingStopped} — also when building or starting the run failed part way (then
 *       possibly without {@code onBecomeLeader}/{@code onBecomeFollower}, or after another
 *       component's registration threw).
 *   <li>An exception from {@link #registerProcessors}, {@link #onBecomeLeader} or {@link
 *       #onBecomeFollower} fails the transition (the partition is {@code UNHEALTHY} and retries);
 *       one from {@link #onProcessingStopped} or {@link #close} is logged and ignored.
 *   <li>One instance per partition: components keep the state of the current run in fields.
 * </ul>
 */
public interface PartitionComponent {

  /** A short name for logs, e.g. {@code "ledger"}. */
  String name();

  /** The column families this component keeps in the partition's state. */
  default List<? extends ColumnFamilyDefinition> columnFamilies() {
    return List.of();
  }

  /** Registers this component's processors, appliers and interceptors for one stream processor. */
  void registerProcessors(ProcessingScope scope, RecordProcessors.Builder processors);

  /** A LEADER stream processor of {@code scope} started (it replays first, then processes). */
  default void onBecomeLeader(ProcessingScope scope, StreamProcessor processor) {}

  /** A FOLLOWER stream processor of {@code scope} started. */
  default void onBecomeFollower(ProcessingScope scope, StreamProcessor processor) {}

  /** The stream processor of {@code scope} is about to close: stop what runs for it. */
  default void onProcessingStopped(ProcessingScope scope) {}

  /**
   * A problem the operator must see, or "" when there is none: while it lasts the partition reports
   * {@code UNHEALTHY} with it (a healthy partition only). Any thread; must not block.
   */
  default String healthProblem() {
    return "";
  }

  /** The partition closes. */
  default void close() {}
}
