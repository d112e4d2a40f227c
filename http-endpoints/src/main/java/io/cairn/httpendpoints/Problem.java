package io.cairn.httpendpoints;

/**
 * An RFC 7807 problem detail, answered with {@code Content-Type: application/problem+json}: {@code
 * {"type":"about:blank","title":"Bad Request","status":400,"detail":"Expected ...",
 * "instance":"/actuator/backups"}}.
 *
 * <p>A handler throws it to answer with an error; the server sends it ({@link
 * Exchange#sendProblem}) and logs it at WARN from 500 up, else at DEBUG.
 */
public final class Problem extends RuntimeException {
  private final int status;

  /**
   * @param status the HTTP status, 400 to 599
   * @param detail what was expected and what was found, for the caller
   */
  public Problem(int status, String detail) {
    // no stack trace: a problem is an answer, not a failure of the server
    super(detail, null, false, false);
    if (status < 400 || status > 599) {
      throw new IllegalArgumentException(
          "Expected a problem status in [400, 599], but was " + status + " (" + detail + ")");
    }
    this.status = status;
  }

  public static Problem badRequest(String detail) {
    return new Problem(400, detail);
  }

  public int status() {
    return status;
  }

  /** The reason phrase of an HTTP status, for the problem's title. */
  public static String title(int status) {
    return switch (status) {
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
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
