package io.cairn.gateway.routing;

import io.cairn.gateway.topology.ClusterTopology;
import io.cairn.protocol.api.ApiResponse;

/**
 * One request for a partition's leader, as {@link BrokerRequester#toLeader} sends it.
 *
 * @param <T> the body of an OK answer
 */
public interface PartitionCall<T> {

  /** The API operation, for messages and metrics ("Deposit"). */
  String operation();

  /**
   * The partition to send to, given the current topology; 0 while it cannot be known yet (the
   * partition count is unknown). Must not change between calls once known.
   */
  int partitionId(ClusterTopology topology);

  /** The transport message type ({@code cairn-command}). */
  String messageType();

  /** The request payload for the partition. */
  byte[] payload(int partitionId);

  /**
   * Decodes the answer.
   *
   * @throws io.cairn.protocol.ProtocolException if it is malformed
   */
  ApiResponse<T> decode(byte[] response);

  /**
   * Whether sending it twice has the same effect as once (queries, {@code CHECKPOINT CREATE}). Only
   * such calls are sent again after a failure that may have reached the broker.
   */
  boolean idempotent();
}
