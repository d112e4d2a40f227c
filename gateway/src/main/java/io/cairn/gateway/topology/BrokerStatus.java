package io.cairn.gateway.topology;

import io.cairn.protocol.api.BrokerTopology;
import io.cairn.transport.MemberAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * What the gateway last learned about one configured broker.
 *
 * @param nodeId the broker's node id
 * @param address its transport address
 * @param topology its answer to the last topology request; empty when it did not answer
 * @param error why it did not answer; empty when it did
 */
public record BrokerStatus(
    int nodeId, MemberAddress address, Optional<BrokerTopology> topology, String error) {
  public BrokerStatus {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(topology, "topology");
    Objects.requireNonNull(error, "error");
  }

  public boolean reachable() {
    return topology.isPresent();
  }
}
