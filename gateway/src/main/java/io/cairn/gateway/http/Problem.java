package io.cairn.gateway.http;

import io.cairn.gateway.GatewayErrorCode;

/**
 * An RFC 7807 problem detail, answered with {@code Content-Type: application/problem+json}: {@code
 * {"type":"about:blank","title":"Bad Request","status":400,"detail":"Expected ...",
 * "instance":"/actuator/backups"}}.
 */
final class Problem extends RuntimeException {
  private final int status;

  Problem(final int status, final String detail) {
    super(detail, null, false, false);
    this.status = status;
  }

  static Problem badRequest(final String detail) {
    return new Problem(400, detail);
  }

  static Problem of(final GatewayErrorCode code, final String detail) {
    return new Problem(code.httpStatus(), detail);
  }

  int status() {
    return status;
  }

  /** The reason phrase of an HTTP status, for the problem's title. */
  static String title(final int status) {
    return switch (status) {
      case 400 -> "Bad Request";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 409 -> "Conflict";
      case 413 -> "Payload Too Large";
      case 415 -> "Unsupported Media Type";
      case 429 -> "Too Many Requests";
      case 500 -> "Internal Server Error";
      case 503 -> "Service Unavailable";
      case 504 -> "Gateway Timeout";
      default -> "HTTP " + status;
    };
  }
}
