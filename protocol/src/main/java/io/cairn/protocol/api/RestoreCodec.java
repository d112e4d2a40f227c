package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes and decodes {@link ApiDescriptor#TYPE_RESTORE} messages: a {@link RestoreRequest}, and
 * the broker's {@link NodeRestoreState} as the OK body. A broker that cannot start the restore
 * asked for answers {@code CONFLICT} (it holds data, or restores already) or {@code INVALID}; a
 * broker without a backup store answers {@code UNAVAILABLE}. Stateless.
 */
public final class RestoreCodec {
  private static final String REQUEST = ApiDescriptor.TYPE_RESTORE + " request";
  private static final String RESPONSE = ApiDescriptor.TYPE_RESTORE + " response";

  /** A partition entry's smallest encoding: id, two empty strings' lengths, four longs. */
  private static final int PARTITION_MIN_BYTES = Integer.BYTES * 3 + Long.BYTES * 4;

  private RestoreCodec() {}

  public static byte[] encodeRequest(RestoreRequest request) {
    PayloadWriter writer = PayloadWriter.start();
    writer.writeByte(request.kind().code());
    writer.writeLong(request.value());
    return writer.toBytes();
  }

  /**
   * @throws ProtocolException if the payload is not exactly one valid request
   */
  public static RestoreRequest decodeRequest(byte[] payload) {
    PayloadReader reader = PayloadReader.start(payload, REQUEST);
    RestoreRequest.Kind kind = reader.readCode(RestoreRequest.Kind::fromCode, "kind");
    long value = reader.readLong("value");
    reader.finish();
    return reader.build(() -> new RestoreRequest(kind, value));
  }

  /** A failure detail longer than the protocol allows is cut. */
  public static byte[] encodeResponse(ApiResponse<NodeRestoreState> response) {
    PayloadWriter writer = PayloadWriter.startResponse(response);
    if (response instanceof ApiResponse.Ok<NodeRestoreState> ok) {
      NodeRestoreState state = ok.body();
      writer.writeInt(state.nodeId());
      writer.writeByte(state.phase().code());
      writer.writeString(
          ApiStrings.truncate(state.selection(), ApiDescriptor.NAME_MAX_BYTES),
          0,
          ApiDescriptor.NAME_MAX_BYTES,
          "selection");
      writer.writeLong(state.backupId());
      writer.writeLong(state.restorePointId());
      writeReason(writer, state.detail(), "detail");
      writer.writeLong(state.startedMillis());
      writer.writeLong(state.finishedMillis());
      writer.writeInt(state.partitions().size());
      for (NodeRestoreState.PartitionRestoreState partition : state.partitions()) {
        writer.writeInt(partition.partitionId());
        writer.writeString(partition.phase(), 1, ApiDescriptor.NAME_MAX_BYTES, "partition phase");
        writer.writeLong(partition.bytesDone());
        writer.writeLong(partition.bytesTotal());
        writer.writeLong(partition.bytesPerSecond());
        writer.writeLong(partition.etaMillis());
        writeReason(writer, partition.detail(), "partition detail");
      }
    }
    return writer.toBytes();
  }

  private static void writeReason(PayloadWriter writer, String text, String what) {
    writer.writeString(
        ApiStrings.truncate(text, ApiDescriptor.REASON_MAX_BYTES),
        0,
        ApiDescriptor.REASON_MAX_BYTES,
        what);
  }

  /**
   * @throws ProtocolException if the payload is not exactly one valid response
   */
  public static ApiResponse<NodeRestoreState> decodeResponse(byte[] payload) {
    PayloadReader reader = PayloadReader.start(payload, RESPONSE);
    return reader.readResponse(RestoreCodec::readState);
  }

  private static NodeRestoreState readState(PayloadReader body) {
    int nodeId = body.readInt("node id");
    NodeRestoreState.Phase phase = body.readCode(NodeRestoreState.Phase::fromCode, "phase");
    String selection = body.readString(0, ApiDescriptor.NAME_MAX_BYTES, "selection");
    long backupId = body.readLong("backup id");
    long pointId = body.readLong("restore point id");
    String detail = body.readString(0, ApiDescriptor.REASON_MAX_BYTES, "detail");
    long started = body.readLong("started");
    long finished = body.readLong("finished");
    int count = body.readCount(NodeRestoreState.PARTITIONS_MAX, PARTITION_MIN_BYTES, "partitions");
    List<NodeRestoreState.PartitionRestoreState> partitions = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int partitionId = body.readPartitionId("partition id");
      String partitionPhase = body.readString(1, ApiDescriptor.NAME_MAX_BYTES, "partition phase");
      long done = body.readLong("bytes done");
      long total = body.readLong("bytes total");
      long rate = body.readLong("bytes per second");
      long eta = body.readLong("eta");
      String partitionDetail =
          body.readString(0, ApiDescriptor.REASON_MAX_BYTES, "partition detail");
      partitions.add(
          body.build(
              () ->
                  new NodeRestoreState.PartitionRestoreState(
                      partitionId, partitionPhase, done, total, rate, eta, partitionDetail)));
    }
    return body.build(
        () ->
            new NodeRestoreState(
                nodeId,
                phase,
                selection,
                backupId,
                pointId,
                detail,
                started,
                finished,
                partitions));
  }
}
