package io.cairn.gateway.routing;

import io.cairn.gateway.topology.ClusterTopology;
import io.cairn.protocol.Record;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.CommandCodec;
import io.cairn.protocol.api.CommandRequest;

/**
 * A command for one partition's leader ({@code cairn-command}), routed either to a fixed partition
 * or to the partition that owns an account ({@link AccountPlacement}, once the partition count is
 * known).
 */
public final class CommandCall implements PartitionCall<Record> {
  private final String operation;
  private final Record command;
  private final String accountId;
  private final int fixedPartitionId;
  private final boolean idempotent;

  private CommandCall(
      String operation,
      Record command,
      String accountId,
      int fixedPartitionId,
      boolean idempotent) {
    this.operation = operation;
    this.command = command;
    this.accountId = accountId;
    this.fixedPartitionId = fixedPartitionId;
    this.idempotent = idempotent;
  }

  /** A command for the partition that owns {@code accountId}; never sent twice after a doubt. */
  public static CommandCall forAccount(String operation, String accountId, Record command) {
    return new CommandCall(operation, command, accountId, 0, false);
  }

  /** A command for a fixed partition. */
  public static CommandCall forPartition(
      String operation, int partitionId, Record command, boolean idempotent) {
    return new CommandCall(operation, command, null, partitionId, idempotent);
  }

  @Override
  public String operation() {
    return operation;
  }

  @Override
  public int partitionId(ClusterTopology topology) {
    if (accountId == null) {
      return fixedPartitionId;
    }
    return topology.partitionCount() == 0
        ? 0
        : new AccountPlacement(topology.partitionCount()).partitionOf(accountId);
  }

  @Override
  public String messageType() {
    return ApiDescriptor.TYPE_COMMAND;
  }

  @Override
  public byte[] payload(int partitionId) {
    return CommandCodec.encodeRequest(new CommandRequest(partitionId, command));
  }

  @Override
  public ApiResponse<Record> decode(byte[] response) {
    return CommandCodec.decodeResponse(response);
  }

  @Override
  public boolean idempotent() {
    return idempotent;
  }
}
