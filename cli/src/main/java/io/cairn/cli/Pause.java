package io.cairn.cli;

import java.time.Duration;

/** Waiting between polls of a command-line tool; an interrupt ends the command. */
public final class Pause {
  private Pause() {}

  /**
   * Blocks for {@code duration}.
   *
   * @throws CliException (exit code 1) when interrupted, with the interrupt flag set again
   */
  public static void of(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(ExitCode.FAILED, "Interrupted", e);
    }
  }
}
