package io.cairn.broker;

import io.cairn.broker.partition.PartitionLogging;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.MDC;

/**
 * The broker's own thread pools: fixed size, bounded queue (a full queue refuses the task with
 * {@code RejectedExecutionException}, which callers treat as backpressure), named {@code
 * cairn-node-<id>-<purpose>-<n>}, daemon threads with the node id in the logging MDC ({@value
 * #MDC_NODE_ID}).
 */
final class BrokerThreads {

  /** The MDC key of the node id. */
  static final String MDC_NODE_ID = PartitionLogging.NODE_ID;

  private BrokerThreads() {}

  static ExecutorService bounded(
      final int nodeId, final String purpose, final int threads, final int queueCapacity) {
    final String prefix = "cairn-node-" + nodeId + "-" + purpose + "-";
    final AtomicInteger counter = new AtomicInteger();
    final String node = Integer.toString(nodeId);
    final ThreadFactory factory =
        task -> {
          final Thread thread =
              new Thread(
                  () -> {
                    MDC.put(MDC_NODE_ID, node);
                    task.run();
                  },
                  prefix + counter.getAndIncrement());
          thread.setDaemon(true);
          return thread;
        };
    return new ThreadPoolExecutor(
        threads,
        threads,
        0,
        TimeUnit.MILLISECONDS,
        new ArrayBlockingQueue<>(queueCapacity),
        factory,
        new ThreadPoolExecutor.AbortPolicy());
  }
}
