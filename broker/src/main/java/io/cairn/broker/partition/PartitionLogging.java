package io.cairn.broker.partition;

import io.cairn.scheduler.LoggingContext;
import java.util.concurrent.Executor;
import org.slf4j.MDC;

/**
 * Puts a partition's node id and partition id into the SLF4J MDC ({@value #NODE_ID}, {@value
 * #PARTITION_ID}) while the broker runs that partition's work on a shared thread that is not the
 * partition's own actor (the API pool, I/O executors), so that every line logged meanwhile says
 * where it comes from (the distribution's logback pattern prints both). Actors carry their own
 * context instead ({@link io.cairn.scheduler.Actor#loggingContext()}, {@link LoggingContext}).
 * Cheap: two map writes on entry, two on exit; what was there before is restored, so nested scopes
 * and pool threads stay correct.
 */
public final class PartitionLogging {

  /** The MDC key of the node id (the broker's pools set it for their whole life). */
  public static final String NODE_ID = LoggingContext.NODE_ID;

  /** The MDC key of the partition id. */
  public static final String PARTITION_ID = LoggingContext.PARTITION_ID;

  private PartitionLogging() {}

  /** An open scope; closing it restores the MDC as it was. */
  public static final class Scope implements AutoCloseable {
    private final String previousNode;
    private final String previousPartition;

    private final boolean setsNode;

    /**
     * @param node the node id, or {@code null} to leave the thread's as it is
     */
    private Scope(String node, String partition) {
      setsNode = node != null;
      previousNode = setsNode ? MDC.get(NODE_ID) : null;
      previousPartition = MDC.get(PARTITION_ID);
      if (setsNode) {
        MDC.put(NODE_ID, node);
      }
      MDC.put(PARTITION_ID, partition);
    }

    @Override
    public void close() {
      if (setsNode) {
        restore(NODE_ID, previousNode);
      }
      restore(PARTITION_ID, previousPartition);
    }

    private static void restore(String key, String value) {
      if (value == null) {
        MDC.remove(key);
      } else {
        MDC.put(key, value);
      }
    }
  }

  /** Enters the scope of partition {@code partitionId} on node {@code nodeId}. */
  public static Scope enter(int nodeId, int partitionId) {
    return new Scope(Integer.toString(nodeId), Integer.toString(partitionId));
  }

  /**
   * Enters the scope of partition {@code partitionId} on a broker thread that carries its node id
   * already ({@code BrokerThreads}).
   */
  public static Scope enterPartition(int partitionId) {
    return new Scope(null, Integer.toString(partitionId));
  }

  /** {@code task} run inside the partition's scope. */
  public static Runnable wrap(int nodeId, int partitionId, Runnable task) {
    String node = Integer.toString(nodeId);
    String partition = Integer.toString(partitionId);
    return () -> {
      try (Scope ignored = new Scope(node, partition)) {
        task.run();
      }
    };
  }

  /** An executor that runs every task on {@code executor} inside the partition's scope. */
  public static Executor wrap(int nodeId, int partitionId, Executor executor) {
    return task -> executor.execute(wrap(nodeId, partitionId, task));
  }
}
