package io.cairn.gateway.routing;

import io.cairn.gateway.GatewayErrorCode;
import io.cairn.gateway.GatewayException;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.transport.MessagingException;

/** How broker and transport failures become {@link GatewayException}s. */
public final class Failures {
  private Failures() {}

  /**
   * Whether the transport certainly did not deliver the request: refused locally, no connection
   * could be made, or the broker has no handler (yet). Such a request can be sent again even when
   * it is not idempotent. A connection lost after sending and a timeout are not: the broker may
   * have applied the request.
   */
  public static boolean notDelivered(Throwable cause) {
    if (cause instanceof MessagingException.Rejected
        || cause instanceof MessagingException.NoRemoteHandler) {
      return true;
    }
    // The transport words a failed connect (as opposed to a lost connection) this way.
    return cause instanceof MessagingException.Unreachable
        && String.valueOf(cause.getMessage()).contains("to accept a connection");
  }

  /** The gateway error for a broker's failure answer that is not retried. */
  public static GatewayException fromBroker(
      ApiResponse.Failure<?> failure, int nodeId, String context) {
    GatewayErrorCode code =
        switch (failure.status()) {
          case OK -> throw new IllegalArgumentException("Expected a failure, but was OK");
          case NOT_LEADER, PARTITION_UNAVAILABLE, UNAVAILABLE -> GatewayErrorCode.UNAVAILABLE;
          case BACKPRESSURE -> GatewayErrorCode.RESOURCE_EXHAUSTED;
          case TIMEOUT -> GatewayErrorCode.DEADLINE_EXCEEDED;
          case INVALID -> GatewayErrorCode.INVALID_ARGUMENT;
          case CONFLICT -> GatewayErrorCode.FAILED_PRECONDITION;
          case INTERNAL_ERROR -> GatewayErrorCode.INTERNAL;
        };
    return new GatewayException(
        code,
        failure.status() + " from broker " + nodeId + " (" + context + "): " + failure.reason());
  }
}
