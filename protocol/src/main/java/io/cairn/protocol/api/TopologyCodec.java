package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;
import java.util.ArrayList;
import java.util.List;

/** Encodes and decodes {@link ApiDescriptor#TYPE_TOPOLOGY} messages. Stateless. */
public final class TopologyCodec {
  private static final String REQUEST = ApiDescriptor.TYPE_TOPOLOGY + " request";
  private static final String RESPONSE = ApiDescriptor.TYPE_TOPOLOGY + " response";

  /** partitionId, role, term, health, empty reason length. */
  private static final int REPLICA_MIN_BYTES = 4 + 1 + 8 + 1 + 4;

  private TopologyCodec() {}

  /** The request: just the version byte. */
  public static byte[] encodeRequest() {
    return PayloadWriter.start().toBytes();
  }

  /**
   * @throws ProtocolException if the payload is not exactly a version-1 request
   */
  public static void decodeRequest(byte[] payload) {
    PayloadReader.start(payload, REQUEST).finish();
  }

  /**
   * @throws ProtocolException if a string is empty or too long
   */
  public static byte[] encodeResponse(ApiResponse<BrokerTopology> response) {
    PayloadWriter writer = PayloadWriter.startResponse(response);
    if (response instanceof ApiResponse.Ok<BrokerTopology> ok) {
      BrokerTopology topology = ok.body();
      writer.writeInt(topology.nodeId());
      writer.writeString(topology.clusterId(), 1, ApiDescriptor.NAME_MAX_BYTES, "cluster id");
      writer.writeString(
          topology.brokerVersion(), 1, ApiDescriptor.NAME_MAX_BYTES, "broker version");
      writer.writeInt(topology.partitionCount());
      writer.writeInt(topology.replicationFactor());
      writer.writeInt(topology.replicas().size());
      for (PartitionReplica replica : topology.replicas()) {
        writer.writeInt(replica.partitionId());
        writer.writeByte(replica.role().code());
        writer.writeLong(replica.term());
        writer.writeByte(replica.health().code());
        writer.writeString(
            replica.healthReason(), 0, ApiDescriptor.REASON_MAX_BYTES, "health reason");
      }
    }
    return writer.toBytes();
  }

  /**
   * @throws ProtocolException if the payload is not exactly one valid response
   */
  public static ApiResponse<BrokerTopology> decodeResponse(byte[] payload) {
    PayloadReader reader = PayloadReader.start(payload, RESPONSE);
    return reader.readResponse(TopologyCodec::readTopology);
  }

  private static BrokerTopology readTopology(PayloadReader reader) {
    int nodeId = reader.readInt("node id");
    String clusterId = reader.readString(1, ApiDescriptor.NAME_MAX_BYTES, "cluster id");
    String brokerVersion = reader.readString(1, ApiDescriptor.NAME_MAX_BYTES, "broker version");
    int partitionCount = reader.readInt("partition count");
    int replicationFactor = reader.readInt("replication factor");
    int count = reader.readCount(ApiDescriptor.REPLICAS_MAX, REPLICA_MIN_BYTES, "replicas");
    List<PartitionReplica> replicas = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int partitionId = reader.readPartitionId("partition id");
      ReplicaRole role = reader.readCode(ReplicaRole::fromCode, "replica role");
      long term = reader.readLong("term");
      if (term < 0) {
        throw reader.invalid("term >= 0", term);
      }
      ReplicaHealth health = reader.readCode(ReplicaHealth::fromCode, "replica health");
      String reason = reader.readString(0, ApiDescriptor.REASON_MAX_BYTES, "health reason");
      replicas.add(new PartitionReplica(partitionId, role, term, health, reason));
    }
    String violation =
        BrokerTopology.violation(nodeId, partitionCount, replicationFactor, replicas);
    if (violation != null) {
      throw new ProtocolException(violation + " (" + RESPONSE + ")");
    }
    return new BrokerTopology(
        nodeId, clusterId, brokerVersion, partitionCount, replicationFactor, replicas);
  }
}
