package io.cairn.qa;

/**
 * Where one broker of an {@link EmbeddedCluster} is in its life cycle.
 *
 * <pre>
 *   NEW ──start()──▶ RUNNING ──stop()──▶ STOPPED ──restart()──▶ RUNNING
 *                       │  └──kill()──▶ KILLED ──restart()──▶ RUNNING
 *                       └──restart()──▶ (stop, then) RUNNING
 *   any ──close()──▶ CLOSED
 * </pre>
 */
public enum NodeState {
  /** Configured, not opened yet. */
  NEW,
  /** Open and started: its transport, partitions and management server run. */
  RUNNING,
  /** Shut down gracefully; its data directory and ports are kept for a restart. */
  STOPPED,
  /** Cut from the network, then shut down; its data directory and ports are kept. */
  KILLED,
  /** The cluster was closed. */
  CLOSED
}
