package io.cairn.protocol.api;

import io.cairn.protocol.Record;
import io.cairn.protocol.RecordType;
import java.util.Objects;

/**
 * A command for one partition's leader ({@link ApiDescriptor#TYPE_COMMAND}). The sender leaves the
 * record's request id and request stream id at -1; the broker assigns its own.
 *
 * @param partitionId in [1, {@link ApiDescriptor#PARTITION_ID_MAX}]
 * @param command a {@link RecordType#COMMAND} record
 */
public record CommandRequest(int partitionId, Record command) {
  public CommandRequest {
    Objects.requireNonNull(command, "command");
    if (partitionId < 1 || partitionId > ApiDescriptor.PARTITION_ID_MAX) {
      throw new IllegalArgumentException(
          "Expected partitionId in [1, "
              + ApiDescriptor.PARTITION_ID_MAX
              + "], but was "
              + partitionId
              + " (command request)");
    }
    if (command.metadata().recordType() != RecordType.COMMAND) {
      throw new IllegalArgumentException(
          "Expected a COMMAND record, but was "
              + command.metadata().recordType()
              + " (command request for partition "
              + partitionId
              + ")");
    }
  }
}
