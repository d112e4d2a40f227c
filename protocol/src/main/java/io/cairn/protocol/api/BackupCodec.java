package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Encodes and decodes {@link ApiDescriptor#TYPE_BACKUP} messages. Stateless. Failures the broker
 * answers with: INVALID (bad pattern or token), CONFLICT (deleting a backup still in progress),
 * UNAVAILABLE (no backup store, or the store failed), INTERNAL_ERROR.
 */
public final class BackupCodec {
  private static final String REQUEST = ApiDescriptor.TYPE_BACKUP + " request";
  private static final String RESPONSE = ApiDescriptor.TYPE_BACKUP + " response";

  /** ids, state, empty reason, timestamps, no-details flag. */
  private static final int ENTRY_MIN_BYTES = 4 + 4 + 8 + 1 + 4 + 8 + 8 + 1;

  private BackupCodec() {}

  /**
   * @throws ProtocolException if the pattern or page token is too long or not encodable
   */
  public static byte[] encodeRequest(BackupRequest request) {
    PayloadWriter writer = PayloadWriter.start();
    writer.writeByte(request.operation().code());
    writer.writeLong(request.checkpointId());
    writer.writeString(request.pattern(), 0, ApiDescriptor.PATTERN_MAX_BYTES, "pattern");
    writer.writeString(request.pageToken(), 0, ApiDescriptor.PAGE_TOKEN_MAX_BYTES, "page token");
    writer.writeInt(request.pageSize());
    return writer.toBytes();
  }

  /**
   * @throws ProtocolException if the payload is not exactly one valid request
   */
  public static BackupRequest decodeRequest(byte[] payload) {
    PayloadReader reader = PayloadReader.start(payload, REQUEST);
    BackupOperation operation = reader.readCode(BackupOperation::fromCode, "operation");
    long checkpointId = reader.readLong("checkpoint id");
    String pattern = reader.readString(0, ApiDescriptor.PATTERN_MAX_BYTES, "pattern");
    String token = reader.readString(0, ApiDescriptor.PAGE_TOKEN_MAX_BYTES, "page token");
    int pageSize = reader.readInt("page size");
    reader.finish();
    return reader.build(() -> new BackupRequest(operation, checkpointId, pattern, token, pageSize));
  }

  /**
   * @throws ProtocolException if a string is too long or not encodable
   */
  public static byte[] encodeResponse(ApiResponse<BackupEntries> response) {
    PayloadWriter writer = PayloadWriter.startResponse(response);
    if (response instanceof ApiResponse.Ok<BackupEntries> ok) {
      writer.writeInt(ok.body().entries().size());
      for (BackupStatusEntry entry : ok.body().entries()) {
        writeEntry(writer, entry);
      }
      writer.writeString(
          ok.body().nextPageToken(), 0, ApiDescriptor.PAGE_TOKEN_MAX_BYTES, "next page token");
    }
    return writer.toBytes();
  }

  /**
   * @throws ProtocolException if the payload is not exactly one valid response
   */
  public static ApiResponse<BackupEntries> decodeResponse(byte[] payload) {
    PayloadReader reader = PayloadReader.start(payload, RESPONSE);
    return reader.readResponse(
        body -> {
          int count =
              body.readCount(ApiDescriptor.BACKUP_ENTRIES_MAX, ENTRY_MIN_BYTES, "backup entries");
          List<BackupStatusEntry> entries = new ArrayList<>(count);
          for (int i = 0; i < count; i++) {
            entries.add(readEntry(body));
          }
          String token = body.readString(0, ApiDescriptor.PAGE_TOKEN_MAX_BYTES, "next page token");
          return new BackupEntries(entries, token);
        });
  }

  private static void writeEntry(PayloadWriter writer, BackupStatusEntry entry) {
    writer.writeInt(entry.nodeId());
    writer.writeInt(entry.partitionId());
    writer.writeLong(entry.checkpointId());
    writer.writeByte(entry.state().code());
    writer.writeString(entry.failureReason(), 0, ApiDescriptor.REASON_MAX_BYTES, "failure reason");
    writer.writeLong(entry.createdAtMs());
    writer.writeLong(entry.lastUpdatedAtMs());
    writer.writeBoolean(entry.details().isPresent());
    if (entry.details().isPresent()) {
      BackupDetails details = entry.details().get();
      writer.writeLong(details.checkpointPosition());
      writer.writeString(details.snapshotId(), 0, ApiDescriptor.NAME_MAX_BYTES, "snapshot id");
      writer.writeInt(details.numberOfPartitions());
      writer.writeString(
          details.brokerVersion(), 1, ApiDescriptor.NAME_MAX_BYTES, "broker version");
      writer.writeString(
          details.stateDigest(), 0, ApiDescriptor.STATE_DIGEST_MAX_BYTES, "state digest");
      writer.writeInt(details.fileCount());
      writer.writeLong(details.sizeBytes());
    }
  }

  private static BackupStatusEntry readEntry(PayloadReader reader) {
    int nodeId = reader.readInt("node id");
    int partitionId = reader.readInt("partition id");
    long checkpointId = reader.readLong("checkpoint id");
    BackupState state = reader.readCode(BackupState::fromCode, "backup state");
    String reason = reader.readString(0, ApiDescriptor.REASON_MAX_BYTES, "failure reason");
    long createdAtMs = reader.readLong("created at");
    long lastUpdatedAtMs = reader.readLong("last updated at");
    Optional<BackupDetails> details = Optional.empty();
    if (reader.readBoolean("details flag")) {
      long position = reader.readLong("checkpoint position");
      String snapshotId = reader.readString(0, ApiDescriptor.NAME_MAX_BYTES, "snapshot id");
      int numberOfPartitions = reader.readInt("number of partitions");
      String brokerVersion = reader.readString(1, ApiDescriptor.NAME_MAX_BYTES, "broker version");
      String digest = reader.readString(0, ApiDescriptor.STATE_DIGEST_MAX_BYTES, "state digest");
      int fileCount = reader.readInt("file count");
      long sizeBytes = reader.readLong("size");
      details =
          Optional.of(
              reader.build(
                  () ->
                      new BackupDetails(
                          position,
                          snapshotId,
                          numberOfPartitions,
                          brokerVersion,
                          digest,
                          fileCount,
                          sizeBytes)));
    }
    Optional<BackupDetails> found = details;
    return reader.build(
        () ->
            new BackupStatusEntry(
                nodeId,
                partitionId,
                checkpointId,
                state,
                reason,
                createdAtMs,
                lastUpdatedAtMs,
                found));
  }
}
