package io.cairn.cli;

import io.cairn.client.CairnClient;
import io.cairn.client.RetryPolicy;
import io.cairn.scheduler.Clock;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * What a command gets from its surroundings: environment, streams, clock, working directory and how
 * to connect to a gateway. {@link #system()} in the real process; tests pass their own.
 *
 * @param env environment variables ({@code CAIRN_GATEWAY})
 * @param out the result stream
 * @param err progress and errors
 * @param clock every time measurement of the CLI
 * @param workingDirectory what relative paths ({@code --dir}) resolve against
 * @param clients opens a client to a gateway
 */
public record CliContext(
    Map<String, String> env,
    PrintStream out,
    PrintStream err,
    Clock clock,
    Path workingDirectory,
    ClientFactory clients) {

  /** Opens a client; the caller closes it. */
  @FunctionalInterface
  public interface ClientFactory {
    CairnClient connect(String gateway, Duration requestTimeout, RetryPolicy retryPolicy);
  }

  public CliContext {
    Objects.requireNonNull(env, "env");
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(err, "err");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    Objects.requireNonNull(clients, "clients");
  }

  /** The real process: System streams and environment, the system clock, the real client. */
  public static CliContext system() {
    return new CliContext(
        System.getenv(),
        System.out,
        System.err,
        Clock.system(),
        Path.of("").toAbsolutePath(),
        CliContext::connectClient);
  }

  /**
   * A client of {@code gateway} with {@code requestTimeout} per call, sending calls answered with
   * RESOURCE_EXHAUSTED again as {@code retryPolicy} says.
   */
  public static CairnClient connectClient(
      String gateway, Duration requestTimeout, RetryPolicy retryPolicy) {
    return CairnClient.builder()
        .gateway(gateway)
        .requestTimeout(requestTimeout)
        .retryPolicy(retryPolicy)
        .build();
  }

  /** {@code path} against the working directory (unchanged when absolute). */
  public Path resolve(Path path) {
    return workingDirectory.resolve(path).normalize();
  }
}
