package io.cairn.cli;

import io.cairn.scheduler.Clock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/** Runs {@code cairn} in this JVM with captured stdout and stderr. */
public final class CliRunner {
  private CliRunner() {}

  /** What one run printed and returned. */
  public record Run(int exitCode, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  public static Run run(String... args) {
    return run(Map.of(), Path.of("").toAbsolutePath(), CliContext::connectClient, args);
  }

  public static Run run(
      Map<String, String> env,
      Path workingDirectory,
      CliContext.ClientFactory clients,
      String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CliContext context =
        new CliContext(
            env,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            Clock.system(),
            workingDirectory,
            clients);
    int code = CairnMain.execute(args, context);
    return new Run(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
