package io.cairn.gateway;

/**
 * Why a gateway operation failed, independent of the protocol that carries it: the gRPC services
 * map each code to the {@code io.grpc.Status.Code} of the same name, the management HTTP endpoints
 * to an HTTP status.
 */
public enum GatewayErrorCode {
  /** The request is malformed; nothing was changed. HTTP 400. */
  INVALID_ARGUMENT(400),
  /** The account or backup does not exist. HTTP 404. */
  NOT_FOUND(404),
  /** The account exists, or the backup id is not higher than the last one. HTTP 409. */
  ALREADY_EXISTS(409),
  /** The state does not allow it (insufficient funds, a backup still in progress). HTTP 409. */
  FAILED_PRECONDITION(409),
  /** The partition is under backpressure or the gateway's queue is full. HTTP 429. */
  RESOURCE_EXHAUSTED(429),
  /** No leader known, a broker unreachable, retries exhausted. HTTP 503. */
  UNAVAILABLE(503),
  /** No answer within the deadline; the outcome is unknown. HTTP 504. */
  DEADLINE_EXCEEDED(504),
  /** A broker answered something the gateway cannot understand, or the gateway failed. HTTP 500. */
  INTERNAL(500);

  private final int httpStatus;

  GatewayErrorCode(int httpStatus) {
    this.httpStatus = httpStatus;
  }

  /** The HTTP status the management endpoints answer with. */
  public int httpStatus() {
    return httpStatus;
  }
}
