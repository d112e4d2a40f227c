package io.cairn.broker;

import io.cairn.broker.config.BrokerConfig;
import io.cairn.broker.partition.PartitionLogging;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The broker's own thread pools: fixed size, bounded queue (a full queue refuses the task with
 * {@code RejectedExecutionException}, which callers treat as backpressure), named {@code
 * cairn-node-<id>-<purpose>-<n>}, daemon threads with the node id in the logging MDC ({@value
 * #MDC_NODE_ID}). One instance holds the pools of one broker, from {@link #start} (the management
 * pool from {@link #startManagement}) until each is {@linkplain #stop stopped}; a pool that was not
 * started is null.
 */
final class BrokerThreads {

  /** The MDC key of the node id. */
  static final String MDC_NODE_ID = PartitionLogging.NODE_ID;

  /** How long a pool (or one of the broker's actors) gets to stop at shutdown. */
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

  // the broker's logger: these lines are the broker's
  private static final Logger LOG = LoggerFactory.getLogger(Broker.class);
  private static final int API_THREADS = 2;
  private static final int API_QUEUE_CAPACITY = 10_000;
  private static final int IO_QUEUE_CAPACITY = 1024;

  /** Status, list, markFailed and delete of backups: never behind a (throttled) upload. */
  private static final int BACKUP_QUERY_THREADS = 2;

  private final int nodeId;
  private ExecutorService io;
  private ExecutorService flush;
  private ExecutorService upload;
  private ExecutorService store;
  private ExecutorService backupQuery;
  private ExecutorService restorePoints;
  private ExecutorService api;
  private ExecutorService management;
  private ExecutorService restore;

  BrokerThreads(int nodeId) {
    this.nodeId = nodeId;
  }

  /** Starts every pool but the management server's, sized by {@code config}. */
  void start(BrokerConfig config) {
    io = bounded(nodeId, "io", config.processing().ioThreadCount(), IO_QUEUE_CAPACITY);
    // one fsync in flight per raft member: a thread per hosted partition lets them overlap, and
    // the actor threads never wait for the disk
    int hosted = Math.max(1, config.distribution().partitionsOf(nodeId).size());
    flush = bounded(nodeId, "journal-flush", hosted, hosted * 2);
    upload =
        bounded(nodeId, "backup-upload", config.backup().uploadConcurrency(), IO_QUEUE_CAPACITY);
    store = bounded(nodeId, "backup-store", config.backup().uploadConcurrency(), IO_QUEUE_CAPACITY);
    backupQuery = bounded(nodeId, "backup-query", BACKUP_QUERY_THREADS, IO_QUEUE_CAPACITY);
    // listings wait on several store reads each: one at a time, a few queued, off the api threads
    restorePoints = bounded(nodeId, "restore-points", 1, 4);
    api = bounded(nodeId, "api", API_THREADS, API_QUEUE_CAPACITY);
  }

  /** Starts the management server's pool. */
  ExecutorService startManagement() {
    management = bounded(nodeId, "management", 1, 64);
    return management;
  }

  /** Starts the pool of a restore through the API: one at a time, on one thread. */
  ExecutorService startRestore() {
    restore = bounded(nodeId, "restore", 1, 1);
    return restore;
  }

  /** Blocking partition work. */
  ExecutorService io() {
    return io;
  }

  /** The raft members' journal fsyncs. */
  ExecutorService flush() {
    return flush;
  }

  /** Files collected for a backup. */
  ExecutorService upload() {
    return upload;
  }

  /** The backup store's saves, restores, verifies and their throttled copies. */
  ExecutorService store() {
    return store;
  }

  /** The backup store's queries. */
  ExecutorService backupQuery() {
    return backupQuery;
  }

  /** Listings of the log archive's restore points (each waits on store reads). */
  ExecutorService restorePoints() {
    return restorePoints;
  }

  /** The request handlers. */
  ExecutorService api() {
    return api;
  }

  /** The pools in the order they stop (nulls for those not started). */
  List<ExecutorService> inStopOrder() {
    return Arrays.asList(
        restore, management, api, restorePoints, store, backupQuery, upload, io, flush);
  }

  /** Stops {@code executor}, waiting {@link #STOP_TIMEOUT} for its tasks; null: nothing. */
  void stop(ExecutorService executor) throws InterruptedException {
    if (executor == null) {
      return;
    }
    executor.shutdown();
    if (!executor.awaitTermination(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
      LOG.warn("A thread pool of node {} did not stop in {}", nodeId, STOP_TIMEOUT);
      executor.shutdownNow();
    }
  }

  private static ExecutorService bounded(
      int nodeId, String purpose, int threads, int queueCapacity) {
    String prefix = "cairn-node-" + nodeId + "-" + purpose + "-";
    AtomicInteger counter = new AtomicInteger();
    String node = Integer.toString(nodeId);
    ThreadFactory factory =
        task -> {
          Thread thread =
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
