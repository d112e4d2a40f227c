package io.cairn.gateway.grpc;

import io.cairn.gateway.GatewayException;
import io.cairn.gateway.admin.ClusterRestore;
import io.cairn.gateway.v1.BrokerRestore;
import io.cairn.gateway.v1.PartitionRestore;
import io.cairn.gateway.v1.RestoreStatus;
import io.cairn.protocol.api.NodeRestoreState;
import io.cairn.protocol.api.RestoreRequest;
import java.util.List;
import java.util.Optional;

/** The restore's messages of {@code admin.proto}, to and from the gateway's own types. */
final class RestoreProtos {
  private RestoreProtos() {}

  /**
   * @throws GatewayException INVALID_ARGUMENT naming the field when no target or a bad one is set
   */
  static RestoreRequest request(io.cairn.gateway.v1.RestoreRequest request) {
    return switch (request.getTargetCase()) {
      case BACKUP_ID ->
          new RestoreRequest(
              RestoreRequest.Kind.BACKUP_ID, positive("backup_id", request.getBackupId()));
      case CHECKPOINT_ID ->
          new RestoreRequest(
              RestoreRequest.Kind.CHECKPOINT_ID,
              positive("checkpoint_id", request.getCheckpointId()));
      case LATEST -> {
        if (!request.getLatest()) {
          throw GatewayException.invalid("Expected latest to be true, but was false");
        }
        yield new RestoreRequest(RestoreRequest.Kind.LATEST, 0);
      }
      case TIME -> {
        long millis =
            request.getTime().getSeconds() * 1000 + request.getTime().getNanos() / 1_000_000;
        yield new RestoreRequest(RestoreRequest.Kind.TIME, positive("time (epoch ms)", millis));
      }
      case TARGET_NOT_SET ->
          throw GatewayException.invalid(
              "Expected one of backup_id, latest, checkpoint_id or time, but none is set");
    };
  }

  private static long positive(String field, long value) {
    if (value < 1) {
      throw GatewayException.invalid("Expected " + field + " >= 1, but was " + value);
    }
    return value;
  }

  static RestoreStatus status(ClusterRestore restore) {
    Optional<NodeRestoreState> leading = restore.leading();
    RestoreStatus.Builder status =
        RestoreStatus.newBuilder()
            .setState(restore.state().name())
            .setSelection(leading.map(NodeRestoreState::selection).orElse(""))
            .setBackupId(leading.map(NodeRestoreState::backupId).orElse(0L))
            .setRestorePointId(leading.map(NodeRestoreState::restorePointId).orElse(0L));
    for (int nodeId : restore.brokers().keySet()) {
      status.addBrokers(
          BrokerRestore.newBuilder()
              .setNodeId(nodeId)
              .setPhase(restore.phaseOf(nodeId))
              .setDetail(restore.detailOf(nodeId)));
      for (NodeRestoreState.PartitionRestoreState partition :
          restore.brokers().get(nodeId).map(NodeRestoreState::partitions).orElse(List.of())) {
        PartitionRestore.Builder entry =
            PartitionRestore.newBuilder()
                .setPartitionId(partition.partitionId())
                .setNodeId(nodeId)
                .setPhase(partition.phase())
                .setBytesDone(partition.bytesDone())
                .setBytesTotal(partition.bytesTotal())
                .setBytesPerSecond(partition.bytesPerSecond())
                .setDetail(partition.detail());
        if (partition.etaMillis() >= 0) {
          entry.setEta(
              com.google.protobuf.Duration.newBuilder()
                  .setSeconds(partition.etaMillis() / 1000)
                  .setNanos((int) (partition.etaMillis() % 1000) * 1_000_000));
        }
        status.addPartitions(entry);
      }
    }
    return status.build();
  }
}
