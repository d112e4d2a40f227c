package io.cairn.gateway.routing;

import io.cairn.gateway.GatewayErrorCode;
import io.cairn.gateway.GatewayException;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordType;

/** Maps a partition's REJECTION record to the gateway error carrying the engine's reason. */
public final class Rejections {
  private Rejections() {}

  /**
   * INVALID_ARGUMENT → INVALID_ARGUMENT, NOT_FOUND → NOT_FOUND, ALREADY_EXISTS → ALREADY_EXISTS,
   * INSUFFICIENT_FUNDS and INVALID_STATE → FAILED_PRECONDITION, PROCESSING_ERROR → INTERNAL. The
   * message is "&lt;rejection type&gt;: &lt;reason&gt;".
   *
   * @throws IllegalArgumentException if the record is not a rejection
   */
  public static GatewayException toException(Record rejection) {
    if (rejection.metadata().recordType() != RecordType.REJECTION) {
      throw new IllegalArgumentException(
          "Expected a REJECTION, but was " + rejection.metadata().recordType());
    }
    GatewayErrorCode code =
        switch (rejection.metadata().rejectionType()) {
          case INVALID_ARGUMENT -> GatewayErrorCode.INVALID_ARGUMENT;
          case NOT_FOUND -> GatewayErrorCode.NOT_FOUND;
          case ALREADY_EXISTS -> GatewayErrorCode.ALREADY_EXISTS;
          case INSUFFICIENT_FUNDS, INVALID_STATE -> GatewayErrorCode.FAILED_PRECONDITION;
          case PROCESSING_ERROR, NONE -> GatewayErrorCode.INTERNAL;
        };
    return new GatewayException(
        code, rejection.metadata().rejectionType() + ": " + rejection.metadata().rejectionReason());
  }
}
