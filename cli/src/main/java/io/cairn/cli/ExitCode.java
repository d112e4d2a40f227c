package io.cairn.cli;

import io.cairn.client.ErrorCode;

/**
 * The exit codes scripts can rely on; {@code cairn --help} lists them.
 *
 * <table>
 *   <caption>Exit codes</caption>
 *   <tr><th>code</th><th>meaning</th><th>from the gateway</th></tr>
 *   <tr><td>0</td><td>ok</td><td></td></tr>
 *   <tr><td>1</td><td>the operation failed</td><td>INTERNAL, UNKNOWN; a FAILED backup; money not
 *       conserved</td></tr>
 *   <tr><td>2</td><td>usage or validation error</td><td>INVALID_ARGUMENT</td></tr>
 *   <tr><td>3</td><td>unavailable or unreachable (retry later)</td><td>UNAVAILABLE,
 *       DEADLINE_EXCEEDED (the outcome is unknown), RESOURCE_EXHAUSTED</td></tr>
 *   <tr><td>4</td><td>not found</td><td>NOT_FOUND</td></tr>
 *   <tr><td>5</td><td>conflict or already exists</td><td>ALREADY_EXISTS, FAILED_PRECONDITION
 *       (insufficient funds, a backup in progress)</td></tr>
 *   <tr><td>6</td><td>access refused: no valid credentials, or not the role</td><td>UNAUTHENTICATED,
 *       PERMISSION_DENIED</td></tr>
 * </table>
 */
public final class ExitCode {
  public static final int OK = 0;
  public static final int FAILED = 1;
  public static final int USAGE = 2;
  public static final int UNAVAILABLE = 3;
  public static final int NOT_FOUND = 4;
  public static final int CONFLICT = 5;
  public static final int DENIED = 6;

  private ExitCode() {}

  /** The exit code of a failed client call. */
  public static int of(ErrorCode code) {
    if (code == null) {
      return FAILED;
    }
    return switch (code) {
      case INVALID_ARGUMENT -> USAGE;
      case NOT_FOUND -> NOT_FOUND;
      case ALREADY_EXISTS, FAILED_PRECONDITION -> CONFLICT;
      case UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED -> UNAVAILABLE;
      case UNAUTHENTICATED, PERMISSION_DENIED -> DENIED;
      default -> FAILED;
    };
  }
}
