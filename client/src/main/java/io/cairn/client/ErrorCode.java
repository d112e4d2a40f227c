package io.cairn.client;

/**
 * Why a call failed, the same for the gRPC and the HTTP client. Each value names the gRPC status
 * code the gateway answers with; the HTTP client maps the management endpoints' statuses onto it.
 */
public enum ErrorCode {
  /** The request is malformed (checked by the client or the gateway); nothing was changed. */
  INVALID_ARGUMENT,
  /** The account or backup does not exist. */
  NOT_FOUND,
  /** The account exists already, or the backup id is not higher than the last one. */
  ALREADY_EXISTS,
  /** The state does not allow it: insufficient funds, a backup still in progress. */
  FAILED_PRECONDITION,
  /** The gateway cannot be reached, knows no leader, or a broker is down; safe to retry. */
  UNAVAILABLE,
  /** No answer within the deadline; the outcome of a command is unknown. */
  DEADLINE_EXCEEDED,
  /**
   * A partition is under backpressure or the gateway's queue is full: nothing was written, and
   * {@link CairnClient} has sent it again as its {@link RetryPolicy} allows; retry later.
   */
  RESOURCE_EXHAUSTED,
  /** The gateway or a broker failed, or answered something this client cannot understand. */
  INTERNAL,
  /**
   * The gateway requires credentials and the call had none, or none that are valid (gRPC
   * UNAUTHENTICATED, HTTP 401); nothing was done.
   */
  UNAUTHENTICATED,
  /**
   * The credentials are valid but lack the role the operation takes (gRPC PERMISSION_DENIED, HTTP
   * 403); nothing was done.
   */
  PERMISSION_DENIED,
  /** The call was cancelled, or the calling thread was interrupted while it waited. */
  CANCELLED,
  /** Any other failure; the message says what happened. */
  UNKNOWN
}
