package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordType;

/**
 * Encodes and decodes {@link ApiDescriptor#TYPE_COMMAND} messages. Stateless and thread-safe. The
 * OK body is the response record exactly as the partition's command response writer produced it: an
 * EVENT (the command was applied) or a REJECTION (with its type and reason).
 */
public final class CommandCodec {
  private static final String REQUEST = ApiDescriptor.TYPE_COMMAND + " request";
  private static final String RESPONSE = ApiDescriptor.TYPE_COMMAND + " response";

  private CommandCodec() {}

  /**
   * @throws ProtocolException if a field of the record is outside its encoded bounds
   */
  public static byte[] encodeRequest(CommandRequest request) {
    PayloadWriter writer = PayloadWriter.start();
    writer.writeInt(request.partitionId());
    writer.writeRecord(request.command());
    return writer.toBytes();
  }

  /**
   * @throws ProtocolException if the payload is not exactly one valid request
   */
  public static CommandRequest decodeRequest(byte[] payload) {
    PayloadReader reader = PayloadReader.start(payload, REQUEST);
    int partitionId = reader.readPartitionId("partition id");
    Record command = reader.readRecordToEnd("command record");
    if (command.metadata().recordType() != RecordType.COMMAND) {
      throw reader.invalid("a COMMAND record", command.metadata().recordType());
    }
    return new CommandRequest(partitionId, command);
  }

  /**
   * @param response OK with an EVENT or REJECTION record, or a failure
   * @throws ProtocolException if a field is outside its encoded bounds
   * @throws IllegalArgumentException if an OK body is a COMMAND record
   */
  public static byte[] encodeResponse(ApiResponse<Record> response) {
    PayloadWriter writer = PayloadWriter.startResponse(response);
    if (response instanceof ApiResponse.Ok<Record> ok) {
      if (ok.body().metadata().recordType() == RecordType.COMMAND) {
        throw new IllegalArgumentException(
            "Expected an EVENT or REJECTION record in a command response, but was a COMMAND");
      }
      writer.writeRecord(ok.body());
    }
    return writer.toBytes();
  }

  /**
   * @throws ProtocolException if the payload is not exactly one valid response
   */
  public static ApiResponse<Record> decodeResponse(byte[] payload) {
    PayloadReader reader = PayloadReader.start(payload, RESPONSE);
    return reader.readResponse(
        body -> {
          Record record = body.readRecordToEnd("response record");
          if (record.metadata().recordType() == RecordType.COMMAND) {
            throw body.invalid("an EVENT or REJECTION record", "a COMMAND");
          }
          return record;
        });
  }
}
