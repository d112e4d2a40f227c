package io.cairn.scheduler;

import java.util.Map;

/**
 * The well-known keys of the SLF4J MDC that Cairn's log lines carry (the distribution's logback
 * pattern prints {@code node=%X{nodeId} partition=%X{partitionId}}), and the logging contexts an
 * {@link Actor} is usually given. An actor puts its context into the MDC whenever it runs on a
 * thread and restores what was there afterwards; see {@link Actor#Actor(String, Map)}.
 */
public final class LoggingContext {

  /** The MDC key of the node (broker) id. */
  public static final String NODE_ID = "nodeId";

  /** The MDC key of the partition id. */
  public static final String PARTITION_ID = "partitionId";

  private LoggingContext() {}

  /** No entries: the actor leaves the MDC alone. */
  public static Map<String, String> none() {
    return Map.of();
  }

  /** The context of work that belongs to node {@code nodeId} but to no single partition. */
  public static Map<String, String> node(int nodeId) {
    return Map.of(NODE_ID, Integer.toString(nodeId));
  }

  /** The context of work that belongs to partition {@code partitionId} on node {@code nodeId}. */
  public static Map<String, String> partition(int nodeId, int partitionId) {
    return Map.of(NODE_ID, Integer.toString(nodeId), PARTITION_ID, Integer.toString(partitionId));
  }

  /**
   * The context of partition work whose node is not known where the actor is built; the thread's
   * own {@link #NODE_ID}, if any, stays visible.
   */
  public static Map<String, String> partition(int partitionId) {
    return Map.of(PARTITION_ID, Integer.toString(partitionId));
  }
}
