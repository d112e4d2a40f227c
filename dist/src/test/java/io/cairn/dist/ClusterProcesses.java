package io.cairn.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.cli.cluster.FreePorts;
import io.cairn.gateway.GatewayConfig;
import io.cairn.qa.network.ProxyNetwork;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Three brokers and a gateway run by the distribution's scripts ({@code bin/broker}, {@code
 * bin/gateway}) with its sample configuration, moved to free loopback ports and to data directories
 * under {@code target/} by environment variables; and the {@code bin/cairn} tool pointed at them.
 * Every process's output goes to a file in the run's directory. {@link #close()} (also run by a
 * shutdown hook) kills every process still alive.
 *
 * <p>With a {@link ProxyNetwork}, every connection between brokers and from the gateway to a broker
 * goes through one of its relays on loopback (each process is given the relays' addresses as its
 * members), so a test can cut links between processes.
 */
final class ClusterProcesses implements AutoCloseable {
  static final int BROKERS = 3;

  /** The gateway's node id in the {@link ProxyNetwork}'s links: the one it runs with. */
  private static final int GATEWAY_NODE = GatewayConfig.DEFAULT_NODE_ID;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration CLI_TIMEOUT = Duration.ofSeconds(90);

  /** Clusters made by this JVM: each one's ports are drawn from a seed of its own. */
  private static final AtomicInteger CLUSTERS = new AtomicInteger();

  private final Path dist;
  private final Path dir;
  private final List<Process> processes = new ArrayList<>();
  private final Process[] brokers = new Process[BROKERS];
  private final int[] transportPorts = new int[BROKERS];
  private final int[] managementPorts = new int[BROKERS];
  private final int grpcPort;
  private final int httpPort;
  private final AtomicInteger cliRuns = new AtomicInteger();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final Thread shutdownHook = new Thread(this::killAll, "cairn-it-kill");
  private final Optional<ProxyNetwork> network;
  private final Map<String, String> settings = new TreeMap<>();

  /**
   * @param dist the assembled distribution (target/cairn)
   * @param dir an empty directory for this run's data, backups and process output
   */
  ClusterProcesses(Path dist, Path dir) throws IOException {
    this(dist, dir, Optional.empty());
  }

  /**
   * @param network where the links between processes go through, or empty for direct connections
   */
  ClusterProcesses(Path dist, Path dir, Optional<ProxyNetwork> network) throws IOException {
    this.dist = dist;
    this.dir = dir;
    this.network = network;
    // Ports the processes bind seconds from now: below the ephemeral range, where no outgoing
    // connection on this machine takes them meanwhile; candidates differ between builds running
    // at the same time.
    int[] ports =
        FreePorts.forCluster(
            "127.0.0.1",
            BROKERS,
            ProcessHandle.current().pid() * 1_000_003L + CLUSTERS.incrementAndGet() * 7_919L);
    for (int i = 0; i < BROKERS; i++) {
      transportPorts[i] = ports[0] + i;
      managementPorts[i] = ports[0] + 100 + i; // FreePorts checked base + 100 + i as well
    }
    grpcPort = ports[1];
    httpPort = ports[2];
    Files.createDirectories(dir.resolve("backups"));
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * A configuration key set by its environment variable on every broker and {@code bin/cairn} run
   * started later (the tool reads a broker's configuration for the commands that open the store).
   */
  void setting(String environmentVariable, String value) {
    settings.put(environmentVariable, value);
  }

  /** Starts broker {@code nodeId} with {@code bin/broker --config config/broker-<id>.yaml}. */
  void startBroker(int nodeId) {
    Map<String, String> env = new HashMap<>();
    for (int i = 0; i < BROKERS; i++) {
      env.put(
          "CAIRN_CLUSTER_MEMBERS_" + i,
          i == nodeId ? "127.0.0.1:" + transportPorts[i] : address(nodeId, i));
    }
    env.put("CAIRN_NETWORK_PORT", Integer.toString(transportPorts[nodeId]));
    env.put("CAIRN_MANAGEMENT_PORT", Integer.toString(managementPorts[nodeId]));
    env.put("CAIRN_DATA_DIRECTORY", dir.resolve("broker-" + nodeId).toString());
    env.put("CAIRN_BACKUP_FS_BASEPATH", dir.resolve("backups").toString());
    env.put("CAIRN_DATA_SEGMENTSIZE", "8MB");
    env.put("JAVA_OPTS", "-Xmx384m -XX:+UseSerialGC");
    env.putAll(settings); // the test's settings over these defaults
    brokers[nodeId] =
        start(
            "broker-" + nodeId,
            env,
            List.of(
                dist.resolve("bin/broker").toString(),
                "--config",
                dist.resolve("config/broker-" + nodeId + ".yaml").toString()));
  }

  /** Starts the gateway with {@code bin/gateway --config config/gateway.yaml}. */
  void startGateway() {
    Map<String, String> env = new HashMap<>();
    for (int i = 0; i < BROKERS; i++) {
      env.put("CAIRN_GATEWAY_BROKERS_" + i, address(GATEWAY_NODE, i));
    }
    env.put("CAIRN_GATEWAY_GRPC_PORT", Integer.toString(grpcPort));
    env.put("CAIRN_GATEWAY_HTTP_PORT", Integer.toString(httpPort));
    env.put("JAVA_OPTS", "-Xmx256m -XX:+UseSerialGC");
    start(
        "gateway",
        env,
        List.of(
            dist.resolve("bin/gateway").toString(),
            "--config",
            dist.resolve("config/gateway.yaml").toString()));
  }

  /** The address {@code from} is given for broker {@code to}: a relay, or the broker's port. */
  private String address(int from, int to) {
    InetSocketAddress target = new InetSocketAddress("127.0.0.1", transportPorts[to]);
    InetSocketAddress address = network.map(relays -> relays.link(from, to, target)).orElse(target);
    return address.getHostString() + ":" + address.getPort();
  }

  /** {@code kill -STOP} of a broker's process: it stays connected and answers nothing. */
  void pauseBroker(int nodeId) throws IOException, InterruptedException {
    signal("STOP", brokers[nodeId]);
  }

  /** {@code kill -CONT} of a paused broker's process. */
  void resumeBroker(int nodeId) throws IOException, InterruptedException {
    signal("CONT", brokers[nodeId]);
  }

  private static void signal(String signal, Process process)
      throws IOException, InterruptedException {
    Process kill =
        new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
            .redirectErrorStream(true)
            .start();
    String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(kill.waitFor()).as("kill -%s %d: %s", signal, process.pid(), output).isZero();
  }

  /** {@code kill -9} of a broker's process (the script exec'd the JVM); waits until it is gone. */
  void killBroker(int nodeId) throws InterruptedException {
    Process broker = brokers[nodeId];
    broker.destroyForcibly();
    assertThat(broker.waitFor(30, TimeUnit.SECONDS)).as("broker %d exited", nodeId).isTrue();
    assertThat(broker.exitValue())
        .as("exit code of broker %d after kill -9", nodeId)
        .isEqualTo(137);
  }

  /** Whether the gateway's {@code /ready} answers 200 (a leader for every partition). */
  boolean gatewayReady() {
    try {
      return http.send(
                  HttpRequest.newBuilder(URI.create(httpBase() + "/ready"))
                      .timeout(Duration.ofSeconds(5))
                      .build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode()
          == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Runs {@code bin/cairn --gateway ... --output json <args>} and waits for it. */
  CliResult cli(String... args) throws IOException, InterruptedException {
    Process process = startCli(args);
    if (!process.waitFor(CLI_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(
          "Expected 'cairn "
              + String.join(" ", args)
              + "' to finish within "
              + CLI_TIMEOUT
              + ", but it did not");
    }
    return result(process, args);
  }

  private Process startCli(String... args) {
    List<String> command =
        new ArrayList<>(
            List.of(
                dist.resolve("bin/cairn").toString(),
                "--gateway",
                gatewayAddress(),
                "--output",
                "json"));
    command.addAll(List.of(args));
    Map<String, String> env = new HashMap<>();
    env.put("JAVA_OPTS", "-Xmx192m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");
    // for the commands that read the store themselves (backup verify --config)
    env.put("CAIRN_BACKUP_FS_BASEPATH", dir.resolve("backups").toString());
    env.putAll(settings);
    return start("cli-" + cliRuns.incrementAndGet(), env, command);
  }

  /** The outcome of a finished {@code bin/cairn} process. */
  private CliResult result(Process process, String... args) throws IOException {
    String name = outputName(process);
    return new CliResult(
        String.join(" ", args),
        process.exitValue(),
        Files.readString(dir.resolve(name + ".out"), StandardCharsets.UTF_8),
        Files.readString(dir.resolve(name + ".err"), StandardCharsets.UTF_8));
  }

  private final Map<Process, String> names = new HashMap<>();

  private String outputName(Process process) {
    synchronized (names) {
      return names.get(process);
    }
  }

  private Process start(String name, Map<String, String> env, List<String> command) {
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectOutput(dir.resolve(name + ".out").toFile())
            .redirectError(dir.resolve(name + ".err").toFile());
    // only this run's settings: no CAIRN_* variables of the shell that started the build
    builder.environment().keySet().removeIf(key -> key.startsWith("CAIRN_"));
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().putAll(env);
    try {
      Process process = builder.start();
      synchronized (names) {
        names.put(process, name);
      }
      synchronized (processes) {
        processes.add(process);
      }
      return process;
    } catch (IOException e) {
      throw new UncheckedIOException("Expected to start " + command + ", but " + e, e);
    }
  }

  /** The gateway's gRPC address, {@code host:port}. */
  String gatewayAddress() {
    return "127.0.0.1:" + grpcPort;
  }

  /** The assembled distribution. */
  Path distribution() {
    return dist;
  }

  private String httpBase() {
    return "http://127.0.0.1:" + httpPort;
  }

  private void killAll() {
    List<Process> all;
    synchronized (processes) {
      all = new ArrayList<>(processes);
    }
    all.forEach(Process::destroyForcibly);
    for (Process process : all) {
      try {
        process.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void close() {
    killAll();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook runs anyway
    }
  }

  /**
   * A finished {@code bin/cairn} run.
   *
   * @param command its arguments
   * @param exitCode its exit code
   * @param stdout its result (one JSON document with {@code --output json})
   * @param stderr its diagnostics
   */
  record CliResult(String command, int exitCode, String stdout, String stderr) {
    /** The JSON result; fails naming the command when it exited non-zero. */
    JsonNode json() {
      assertThat(exitCode).as("exit code of 'cairn %s'; stderr: %s", command, stderr).isZero();
      try {
        return JSON.readTree(stdout);
      } catch (IOException e) {
        throw new AssertionError(
            "Expected JSON from 'cairn " + command + "', but got: " + stdout, e);
      }
    }
  }
}
