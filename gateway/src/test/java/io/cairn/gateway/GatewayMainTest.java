package io.cairn.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gateway process: command line, configuration errors, start failures, SIGTERM. */
final class GatewayMainTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
  private final SplittableRandom ports =
      new SplittableRandom(
          ProcessHandle.current().pid() * 1_000_003L + System.identityHashCode(this));

  @Test
  void shouldExitWithUsageWithoutConfigOrWithAnUnknownArgument() {
    assertThat(GatewayMain.run(new String[0], Map.of(), err)).isEqualTo(GatewayMain.EXIT_USAGE);
    assertThat(GatewayMain.run(new String[] {"--port", "1"}, Map.of(), err))
        .isEqualTo(GatewayMain.EXIT_USAGE);

    assertThat(err())
        .contains("Expected --config <file>, but it is missing")
        .contains("Expected --config <file>, but got '--port'")
        .contains("Usage: GatewayMain --config <gateway.yaml>");
  }

  @Test
  void shouldExitWithUsageListingEveryConfigurationProblem() throws IOException {
    Path file =
        Files.writeString(
            dir.resolve("gateway.yaml"),
            "gateway:\n  brokers: {0: 127.0.0.1:26502}\n  grpc: {port: -5}\n");

    int code =
        GatewayMain.run(
            new String[] {"--config", file.toString()}, Map.of("CAIRN_GATEWAY_NODEID", "0"), err);

    assertThat(code).isEqualTo(GatewayMain.EXIT_USAGE);
    assertThat(err())
        .contains(
            "Expected gateway.grpc.port to be an integer in [0, 65535], but was -5",
            "Expected gateway.nodeId to differ from every broker's node id [0], but was 0 (set by"
                + " environment variable CAIRN_GATEWAY_NODEID)");
  }

  @Test
  void shouldExitWithUsageForAMissingFile() {
    int code =
        GatewayMain.run(new String[] {"--config=" + dir.resolve("nope.yaml")}, Map.of(), err);

    assertThat(code).isEqualTo(GatewayMain.EXIT_USAGE);
    assertThat(err()).contains("Expected a readable configuration file");
  }

  @Test
  void shouldExitWithFailedWhenThePortIsTakenAndReleaseWhatItBound() throws IOException {
    int httpPort;
    try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      httpPort = freePort();
      Path file =
          Files.writeString(
              dir.resolve("gateway.yaml"),
              """
          gateway:
            brokers: {0: 127.0.0.1:26502}
            grpc: {port: %d}
            http: {port: %d}
          """
                  .formatted(busy.getLocalPort(), httpPort));

      int code = GatewayMain.run(new String[] {"--config", file.toString()}, Map.of(), err);

      assertThat(code).isEqualTo(GatewayMain.EXIT_FAILED);
      assertThat(err()).startsWith("Expected the gateway to start, but");
    }
    try (ServerSocket again = new ServerSocket(httpPort, 1, InetAddress.getLoopbackAddress())) {
      assertThat(again.getLocalPort()).isEqualTo(httpPort);
    }
  }

  @Test
  void shouldServeUntilSigtermThenCloseGracefully() throws Exception {
    // ports the child process binds seconds from now: below the ephemeral range, so that no
    // outgoing connection on this machine takes them meanwhile
    int grpcPort = freePortForAnotherProcess();
    int httpPort = freePortForAnotherProcess();
    Path file =
        Files.writeString(
            dir.resolve("gateway.yaml"),
            """
        gateway:
          nodeId: 1007
          brokers: {0: 127.0.0.1:1}
          grpc: {port: %d}
          http: {port: %d}
        """
                .formatted(grpcPort, httpPort));
    Path logback =
        Files.writeString(
            dir.resolve("logback.xml"),
            """
        <configuration>
          <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
            <encoder><pattern>%-5level %X{nodeId} %logger{0} - %msg%n</pattern></encoder>
          </appender>
          <root level="INFO"><appender-ref ref="OUT"/></root>
        </configuration>
        """);
    Path output = dir.resolve("gateway.out");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process =
        new ProcessBuilder(
                List.of(
                    java.toString(),
                    "--add-exports",
                    "java.base/jdk.internal.misc=ALL-UNNAMED",
                    "-Dlogback.configurationFile=" + logback,
                    "-cp",
                    System.getProperty("java.class.path"),
                    GatewayMain.class.getName(),
                    "--config",
                    file.toString()))
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    try {
      HttpClient http = HttpClient.newHttpClient();
      HttpRequest health =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/health"))
              .timeout(Duration.ofSeconds(2))
              .build();
      await()
          .atMost(Duration.ofSeconds(90))
          .ignoreExceptions()
          .until(() -> http.send(health, HttpResponse.BodyHandlers.ofString()).statusCode() == 200);

      process.destroy(); // SIGTERM

      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(process.exitValue()).isEqualTo(143);
      String log = Files.readString(output);
      assertThat(log)
          .contains("INFO  1007 GatewayMain - Gateway 1007 configuration (" + file + "):")
          .contains("  gateway.grpc.port = " + grpcPort + " (set in config file " + file + ")")
          .contains("  gateway.requestTimeout = 15s (default)")
          .contains("Gateway 1007 started: gRPC on 127.0.0.1:" + grpcPort)
          .contains("INFO  1007 Gateway - Gateway 1007 stopped");
    } finally {
      process.destroyForcibly();
    }
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /**
   * A loopback port that is free now, in [20000, 32000): below Linux's ephemeral range (32768+),
   * where the kernel picks the local ports of outgoing connections. Candidates depend on this
   * process, so that builds running at the same time try different ones.
   */
  private int freePortForAnotherProcess() {
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = 20_000 + ports.nextInt(12_000);
      try (ServerSocket socket = new ServerSocket()) {
        socket.setReuseAddress(false);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
        return port;
      } catch (IOException e) {
        // taken: try the next candidate
      }
    }
    throw new IllegalStateException(
        "Expected a free loopback port in [20000, 32000), but found" + " none in 200 attempts");
  }
}
