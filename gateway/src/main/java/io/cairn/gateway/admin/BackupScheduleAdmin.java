package io.cairn.gateway.admin;

import io.cairn.gateway.routing.BrokerRequester;
import io.cairn.gateway.routing.Deadline;
import io.cairn.gateway.routing.PartitionCall;
import io.cairn.gateway.routing.Routed;
import io.cairn.gateway.topology.ClusterTopology;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.BackupScheduleCodec;
import io.cairn.protocol.api.BackupScheduleState;
import java.util.concurrent.CompletableFuture;

/**
 * The backup schedule's state, asked of the broker running it: the leader of partition 1 ({@code
 * cairn-backup-schedule}, routed and retried like a command). Without a schedule the broker's
 * answer becomes FAILED_PRECONDITION. Thread-safe and non-blocking.
 */
public final class BackupScheduleAdmin {

  static final String OPERATION = "GetBackupSchedule";

  private final BrokerRequester requester;

  public BackupScheduleAdmin(BrokerRequester requester) {
    this.requester = requester;
  }

  public CompletableFuture<BackupScheduleState> status(Deadline deadline) {
    return requester.toLeader(new ScheduleCall(), deadline).thenApply(Routed::body);
  }

  /** The state query for partition 1's leader; idempotent. */
  private static final class ScheduleCall implements PartitionCall<BackupScheduleState> {
    @Override
    public String operation() {
      return OPERATION;
    }

    @Override
    public int partitionId(ClusterTopology topology) {
      return 1;
    }

    @Override
    public String messageType() {
      return ApiDescriptor.TYPE_BACKUP_SCHEDULE;
    }

    @Override
    public byte[] payload(int partitionId) {
      return BackupScheduleCodec.encodeRequest();
    }

    @Override
    public ApiResponse<BackupScheduleState> decode(byte[] response) {
      return BackupScheduleCodec.decodeResponse(response);
    }

    @Override
    public boolean idempotent() {
      return true;
    }
  }
}
