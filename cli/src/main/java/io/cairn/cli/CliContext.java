package io.cairn.cli;

import io.cairn.client.CairnClient;
import io.cairn.client.RetryPolicy;
import io.cairn.scheduler.Clock;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a command gets from its surroundings: environment, streams, clock, working directory and how
 * to connect to a gateway. {@link #system()} in the real process; tests pass their own.
 *
 * @param env environment variables ({@code CAIRN_GATEWAY}, {@code CAIRN_API_KEY}, ...)
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

  /**
   * How to reach a gateway.
   *
   * @param gateway its gRPC address, {@code host:port}
   * @param requestTimeout the deadline of each call
   * @param retryPolicy when RESOURCE_EXHAUSTED calls are sent again
   * @param trustedCaFile TLS, trusting the CA certificates in this PEM file; empty: plaintext
   * @param authorization the credentials presented on every call ({@code ApiKey <keyId>.<secret>}
   *     or {@code Bearer <token>}); empty: none. Never shown by {@link #toString()}
   */
  public record Connection(
      String gateway,
      Duration requestTimeout,
      RetryPolicy retryPolicy,
      Optional<Path> trustedCaFile,
      Optional<String> authorization) {

    @Override
    public String toString() {
      return "Connection{gateway="
          + gateway
          + ", requestTimeout="
          + requestTimeout
          + ", retryPolicy="
          + retryPolicy
          + ", trustedCaFile="
          + trustedCaFile.map(Path::toString).orElse("none")
          + ", credentials="
          + (authorization.isPresent() ? "(not shown)" : "none")
          + "}";
    }
  }

  /** Opens a client; the caller closes it. */
  @FunctionalInterface
  public interface ClientFactory {
    CairnClient connect(Connection connection);
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

  /** The real client of {@code connection}. */
  public static CairnClient connectClient(Connection connection) {
    CairnClient.Builder builder =
        CairnClient.builder()
            .gateway(connection.gateway())
            .requestTimeout(connection.requestTimeout())
            .retryPolicy(connection.retryPolicy());
    connection.trustedCaFile().ifPresent(builder::trustedCaFile);
    connection.authorization().ifPresent(builder::credentials);
    return builder.build();
  }

  /** {@code path} against the working directory (unchanged when absolute). */
  public Path resolve(Path path) {
    return workingDirectory.resolve(path).normalize();
  }
}
