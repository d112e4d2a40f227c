package io.cairn.cli.restore;

import io.cairn.cli.CliException;
import io.cairn.cli.ExitCode;
import io.cairn.restore.RestoreException;

/**
 * Exit codes of restore and verify failures.
 *
 * <table>
 *   <caption>RestoreException kinds</caption>
 *   <tr><th>kind</th><th>exit code</th><th>why</th></tr>
 *   <tr><td>REFUSED</td><td>5</td><td>the target conflicts with what is there (a data directory
 *       that is not empty) or the backup does not fit it (partition count, broker version)</td></tr>
 *   <tr><td>NOT_FOUND</td><td>4</td><td>no backup with that id (or none at all for latest)</td></tr>
 *   <tr><td>NOT_COMPLETED, CORRUPTED, FAILED</td><td>1</td><td>the backup cannot be restored
 *       as it is, or the store or the file system failed</td></tr>
 * </table>
 */
public final class RestoreFailures {
  private RestoreFailures() {}

  public static int exitCode(RestoreException.Kind kind) {
    return switch (kind) {
      case REFUSED -> ExitCode.CONFLICT;
      case NOT_FOUND -> ExitCode.NOT_FOUND;
      case NOT_COMPLETED, CORRUPTED, FAILED -> ExitCode.FAILED;
    };
  }

  /**
   * The failure for the user: its problem (the section of docs/troubleshooting.md that explains
   * it), then the library's message (partition, file, cause).
   */
  public static CliException of(RestoreException e) {
    return new CliException(exitCode(e.kind()), e.problem() + ": " + e.getMessage(), e);
  }
}
