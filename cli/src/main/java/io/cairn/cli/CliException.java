package io.cairn.cli;

/**
 * A command failed in a way the user should read: the message is printed to stderr (without a stack
 * trace) and the process exits with {@link #exitCode()}.
 */
public final class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int exitCode;

  public CliException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public CliException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  /** One of {@link ExitCode}'s values. */
  public int exitCode() {
    return exitCode;
  }
}
