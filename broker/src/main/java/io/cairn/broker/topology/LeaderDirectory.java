package io.cairn.broker.topology;

import io.cairn.broker.HostedPartition;
import io.cairn.broker.HostedPartitions;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.BrokerTopology;
import io.cairn.protocol.api.PartitionReplica;
import io.cairn.protocol.api.ReplicaRole;
import io.cairn.protocol.api.TopologyCodec;
import io.cairn.scheduler.Actor;
import io.cairn.scheduler.LoggingContext;
import io.cairn.transport.MessagingService;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which broker leads each partition, as this broker knows it.
 *
 * <ul>
 *   <li>For a partition this broker hosts, its raft member's leader ({@code leaderId()}), as long
 *       as it knows one.
 *   <li>Otherwise the answers of the other brokers to {@code cairn-topology}, asked every refresh
 *       interval: for each partition the replica reported as LEADER with the highest term. A broker
 *       that no longer reports itself as leader of a partition is forgotten as its leader.
 *   <li>{@link #hint} records the leader a {@code NOT_LEADER} answer named.
 * </ul>
 *
 * <p>Knowledge may be stale; whoever sends on it handles {@code NOT_LEADER} and unreachable brokers
 * (inter-partition commands are dropped and re-sent by the engine). Reads from any thread;
 * refreshes on this actor.
 */
public final class LeaderDirectory extends Actor {

  private static final Logger LOG = LoggerFactory.getLogger(LeaderDirectory.class);

  private final int nodeId;
  private final List<Integer> others;
  private final MessagingService messaging;
  private final Duration refreshInterval;
  private final Duration requestTimeout;
  private final Map<Integer, Leader> reported = new ConcurrentHashMap<>();
  // actor thread only
  private final Set<Integer> asking = new HashSet<>();
  private volatile HostedPartitions local = new HostedPartitions(List.of());

  /**
   * @param nodeId this broker
   * @param members every broker of the cluster (this one included)
   * @param messaging where {@code cairn-topology} is asked
   * @param refreshInterval how often every other broker is asked
   * @param requestTimeout how long one answer is awaited
   */
  public LeaderDirectory(
      int nodeId,
      Set<Integer> members,
      MessagingService messaging,
      Duration refreshInterval,
      Duration requestTimeout) {
    super("leader-directory-" + nodeId, LoggingContext.node(nodeId));
    this.nodeId = nodeId;
    this.others = members.stream().filter(id -> id != nodeId).sorted().toList();
    this.messaging = Objects.requireNonNull(messaging, "messaging");
    this.refreshInterval = Objects.requireNonNull(refreshInterval, "refreshInterval");
    this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
  }

  /** The partitions this broker hosts (their raft members know their leaders best). */
  public void hosted(HostedPartitions partitions) {
    local = Objects.requireNonNull(partitions, "partitions");
  }

  @Override
  protected void onStart() {
    if (!others.isEmpty()) {
      scheduleAtFixedRate(Duration.ZERO, refreshInterval, this::refresh);
    }
  }

  /** The node leading {@code partitionId} as far as this broker knows, or -1. */
  public int leaderOf(int partitionId) {
    Optional<HostedPartition> hosted = local.get(partitionId);
    if (hosted.isPresent()) {
      int leader = hosted.get().partition().leaderId();
      if (leader >= 0) {
        return leader;
      }
    }
    Leader leader = reported.get(partitionId);
    return leader == null ? ApiDescriptor.NO_NODE_ID : leader.nodeId();
  }

  /** A {@code NOT_LEADER} answer for {@code partitionId} named {@code leaderNodeId} (or -1). */
  public void hint(int partitionId, int leaderNodeId) {
    if (leaderNodeId < 0) {
      reported.remove(partitionId);
    } else {
      reported.compute(
          partitionId, (id, known) -> new Leader(leaderNodeId, known == null ? 0 : known.term()));
    }
  }

  /** Asks every other broker now (also done every refresh interval). */
  public void refreshNow() {
    submit(this::refresh);
  }

  private void refresh() {
    for (int member : others) {
      if (!asking.add(member)) {
        continue; // the previous answer is still awaited
      }
      messaging
          .sendAndReceive(
              member, ApiDescriptor.TYPE_TOPOLOGY, TopologyCodec.encodeRequest(), requestTimeout)
          .whenCompleteAsync(
              (payload, error) -> {
                asking.remove(member);
                if (error != null) {
                  LOG.debug("Node {} did not answer its topology: {}", member, error.toString());
                } else {
                  onTopology(member, payload);
                }
              },
              executor());
    }
  }

  private void onTopology(int member, byte[] payload) {
    ApiResponse<BrokerTopology> response;
    try {
      response = TopologyCodec.decodeResponse(payload);
    } catch (ProtocolException e) {
      LOG.warn("Node {} answered an undecodable topology: {}", member, e.getMessage());
      return;
    }
    if (!(response instanceof ApiResponse.Ok<BrokerTopology> ok)) {
      return;
    }
    for (PartitionReplica replica : ok.body().replicas()) {
      int partitionId = replica.partitionId();
      if (replica.role() == ReplicaRole.LEADER) {
        reported.compute(
            partitionId,
            (id, known) ->
                known == null || known.nodeId() == member || known.term() < replica.term()
                    ? new Leader(member, replica.term())
                    : known);
      } else {
        reported.computeIfPresent(
            partitionId, (id, known) -> known.nodeId() == member ? null : known);
      }
    }
  }

  @Override
  public String toString() {
    return "LeaderDirectory{node " + nodeId + ", reported " + reported + "}";
  }

  private record Leader(int nodeId, long term) {}
}
