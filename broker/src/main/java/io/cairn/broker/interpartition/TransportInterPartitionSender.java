package io.cairn.broker.interpartition;

import io.cairn.broker.HostedPartition;
import io.cairn.broker.HostedPartitions;
import io.cairn.broker.topology.LeaderDirectory;
import io.cairn.engine.InterPartitionSender;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.Record;
import io.cairn.transport.MessagingService;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends inter-partition commands to the current leader of their target partition: the leader this
 * broker knows of ({@link LeaderDirectory}); a partition led by this broker gets the command
 * directly (on {@code localExecutor}), any other leader over the transport ({@value
 * InterPartitionCodec#TYPE}). Best effort, as {@link InterPartitionSender} allows: no known leader,
 * {@code NOT_LEADER} (the hint is recorded), backpressure, an unreachable broker or a timeout drop
 * the command, and the engine's retry sends it again. Never blocks the caller.
 */
public final class TransportInterPartitionSender implements InterPartitionSender {

  private static final Logger LOG = LoggerFactory.getLogger(TransportInterPartitionSender.class);

  private final int nodeId;
  private final MessagingService messaging;
  private final LeaderDirectory leaders;
  private final Executor localExecutor;
  private final Duration requestTimeout;
  private final InterPartitionMetrics metrics;
  private volatile HostedPartitions local = new HostedPartitions(List.of());

  /**
   * @param nodeId this broker
   * @param messaging carries commands to other brokers
   * @param leaders who leads which partition
   * @param localExecutor writes commands for partitions this broker leads (not the caller's thread:
   *     the caller is a partition's processing thread)
   * @param requestTimeout how long a remote leader's answer is awaited
   */
  public TransportInterPartitionSender(
      int nodeId,
      MessagingService messaging,
      LeaderDirectory leaders,
      Executor localExecutor,
      Duration requestTimeout,
      InterPartitionMetrics metrics) {
    this.nodeId = nodeId;
    this.messaging = Objects.requireNonNull(messaging, "messaging");
    this.leaders = Objects.requireNonNull(leaders, "leaders");
    this.localExecutor = Objects.requireNonNull(localExecutor, "localExecutor");
    this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /** The partitions of this broker (set once they are opened). */
  public void hosted(HostedPartitions partitions) {
    local = Objects.requireNonNull(partitions, "partitions");
  }

  @Override
  public void send(int targetPartitionId, Record command, long checkpointId) {
    int leader = leaders.leaderOf(targetPartitionId);
    if (leader < 0) {
      metrics.sent("no_leader");
      LOG.debug("Dropped a command for partition {}: no leader known", targetPartitionId);
      return;
    }
    if (leader == nodeId) {
      sendLocally(targetPartitionId, command);
    } else {
      sendRemotely(leader, targetPartitionId, command);
    }
  }

  private void sendLocally(int targetPartitionId, Record command) {
    Optional<HostedPartition> target = local.get(targetPartitionId);
    if (target.isEmpty()) {
      metrics.sent("no_leader");
      return;
    }
    try {
      localExecutor.execute(
          () -> {
            try {
              WriteResult result = target.get().receiver().receive(command);
              metrics.sent(result.isWritten() ? "local" : resultName(result));
            } catch (RuntimeException e) {
              metrics.sent("failed");
              LOG.warn(
                  "Writing an inter-partition command to local partition {} failed",
                  targetPartitionId,
                  e);
            }
          });
    } catch (RejectedExecutionException e) {
      metrics.sent("backpressure");
    }
  }

  private void sendRemotely(int leader, int targetPartitionId, Record command) {
    byte[] payload;
    try {
      payload = InterPartitionCodec.encodeRequest(targetPartitionId, command);
    } catch (RuntimeException e) {
      metrics.sent("failed");
      LOG.warn("Encoding an inter-partition command for partition {} failed", targetPartitionId, e);
      return;
    }
    messaging
        .sendAndReceive(leader, InterPartitionCodec.TYPE, payload, requestTimeout)
        .whenComplete(
            (response, error) -> {
              if (error != null) {
                metrics.sent("unreachable");
                LOG.debug(
                    "Node {} did not take a command for partition {}: {}",
                    leader,
                    targetPartitionId,
                    error.toString());
                return;
              }
              try {
                InterPartitionCodec.Response answer = InterPartitionCodec.decodeResponse(response);
                switch (answer.status()) {
                  case WRITTEN -> metrics.sent("written");
                  case NOT_LEADER -> {
                    metrics.sent("not_leader");
                    leaders.hint(targetPartitionId, answer.leaderNodeId());
                  }
                  case BACKPRESSURE -> metrics.sent("backpressure");
                  case INVALID -> metrics.sent("invalid");
                }
              } catch (RuntimeException e) {
                metrics.sent("failed");
                LOG.warn("Node {} answered an undecodable inter-partition response", leader, e);
              }
            });
  }

  static String resultName(WriteResult result) {
    if (result.isWritten()) {
      return "written";
    }
    if (result instanceof WriteResult.NotLeader) {
      return "not_leader";
    }
    return result instanceof WriteResult.Backpressure ? "backpressure" : "invalid";
  }
}
