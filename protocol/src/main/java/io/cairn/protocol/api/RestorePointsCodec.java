package io.cairn.protocol.api;

import java.util.ArrayList;
import java.util.List;

/**
 * Encodes and decodes {@link ApiDescriptor#TYPE_RESTORE_POINTS} messages: the request is the most
 * points to list, in [1, {@link RestorePointEntry#LIMIT_MAX}]; the OK body the newest points,
 * newest first. A broker without a backup store answers {@code UNAVAILABLE}. Stateless.
 */
public final class RestorePointsCodec {
  private static final String REQUEST = ApiDescriptor.TYPE_RESTORE_POINTS + " request";
  private static final String RESPONSE = ApiDescriptor.TYPE_RESTORE_POINTS + " response";

  /** An entry's smallest encoding: two longs, a boolean, an empty string's length. */
  private static final int ENTRY_MIN_BYTES = Long.BYTES * 2 + 1 + Integer.BYTES;

  private RestorePointsCodec() {}

  /**
   * @param limit the most points to list, in [1, {@link RestorePointEntry#LIMIT_MAX}]
   */
  public static byte[] encodeRequest(int limit) {
    PayloadWriter writer = PayloadWriter.start();
    writer.writeInt(limit);
    return writer.toBytes();
  }

  /**
   * @return the limit asked for
   * @throws ProtocolException if the payload is not exactly one valid request
   */
  public static int decodeRequest(byte[] payload) {
    PayloadReader reader = PayloadReader.start(payload, REQUEST);
    int limit = reader.readInt("limit");
    reader.finish();
    if (limit < 1 || limit > RestorePointEntry.LIMIT_MAX) {
      throw reader.invalid("a limit in [1, " + RestorePointEntry.LIMIT_MAX + "]", limit);
    }
    return limit;
  }

  /** A detail longer than the protocol allows is cut. */
  public static byte[] encodeResponse(ApiResponse<List<RestorePointEntry>> response) {
    PayloadWriter writer = PayloadWriter.startResponse(response);
    if (response instanceof ApiResponse.Ok<List<RestorePointEntry>> ok) {
      writer.writeInt(ok.body().size());
      for (RestorePointEntry point : ok.body()) {
        writer.writeLong(point.checkpointId());
        writer.writeLong(point.takenAtMillis());
        writer.writeBoolean(point.restorable());
        writer.writeString(
            ApiStrings.truncate(point.detail(), ApiDescriptor.REASON_MAX_BYTES),
            0,
            ApiDescriptor.REASON_MAX_BYTES,
            "detail");
      }
    }
    return writer.toBytes();
  }

  /**
   * @throws ProtocolException if the payload is not exactly one valid response
   */
  public static ApiResponse<List<RestorePointEntry>> decodeResponse(byte[] payload) {
    PayloadReader reader = PayloadReader.start(payload, RESPONSE);
    return reader.readResponse(RestorePointsCodec::readPoints);
  }

  private static List<RestorePointEntry> readPoints(PayloadReader body) {
    int count = body.readCount(RestorePointEntry.LIMIT_MAX, ENTRY_MIN_BYTES, "restore points");
    List<RestorePointEntry> points = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      long id = body.readLong("checkpoint id");
      long takenAt = body.readLong("taken at");
      boolean restorable = body.readBoolean("restorable");
      String detail = body.readString(0, ApiDescriptor.REASON_MAX_BYTES, "detail");
      points.add(body.build(() -> new RestorePointEntry(id, takenAt, restorable, detail)));
    }
    return List.copyOf(points);
  }
}
