package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;
import java.util.Objects;

/**
 * Encodes and decodes {@link ApiDescriptor#TYPE_EXPORTING} messages. The OK body is whether
 * exporting is paused on this broker after the operation. Stateless.
 */
public final class ExportingCodec {
  private static final String REQUEST = ApiDescriptor.TYPE_EXPORTING + " request";
  private static final String RESPONSE = ApiDescriptor.TYPE_EXPORTING + " response";

  private ExportingCodec() {}

  public static byte[] encodeRequest(ExportingOperation operation) {
    Objects.requireNonNull(operation, "operation");
    PayloadWriter writer = PayloadWriter.start();
    writer.writeByte(operation.code());
    return writer.toBytes();
  }

  /**
   * @throws ProtocolException if the payload is not exactly one valid request
   */
  public static ExportingOperation decodeRequest(byte[] payload) {
    PayloadReader reader = PayloadReader.start(payload, REQUEST);
    ExportingOperation operation = reader.readCode(ExportingOperation::fromCode, "operation");
    reader.finish();
    return operation;
  }

  /**
   * @param response OK with the paused flag, or a failure
   */
  public static byte[] encodeResponse(ApiResponse<Boolean> response) {
    PayloadWriter writer = PayloadWriter.startResponse(response);
    if (response instanceof ApiResponse.Ok<Boolean> ok) {
      writer.writeBoolean(ok.body());
    }
    return writer.toBytes();
  }

  /**
   * @throws ProtocolException if the payload is not exactly one valid response
   */
  public static ApiResponse<Boolean> decodeResponse(byte[] payload) {
    PayloadReader reader = PayloadReader.start(payload, RESPONSE);
    return reader.readResponse(body -> body.readBoolean("paused flag"));
  }
}
