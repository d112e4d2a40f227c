package io.cairn.benchmarks.hotpath;

import io.cairn.cli.cluster.FreePorts;
import io.cairn.scheduler.Clock;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * A 3-member etcd cluster (Debian's {@code etcd-server}) on loopback, every member a child process
 * with its data directory under one directory and the default durability (every put is fsynced by a
 * majority before it is answered). Client and peer ports are free ports below 32000, as the Cairn
 * cluster's. {@link #close()} and a shutdown hook stop the members.
 */
final class EtcdCluster implements AutoCloseable {

  static final int MEMBERS = 3;
  static final String INSTALL_HINT = "apt-get install -y etcd-server etcd-client";
  private static final String HOST = "127.0.0.1";
  private static final int PORT_LOW = 20_000;
  private static final int PORT_HIGH = 32_000;
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final long POLL_MILLIS = 200;

  private final List<Process> members;
  private final List<URI> clientUrls;
  private final Path directory;
  private final Thread shutdownHook;

  private EtcdCluster(List<Process> members, List<URI> clientUrls, Path directory) {
    this.members = List.copyOf(members);
    this.clientUrls = List.copyOf(clientUrls);
    this.directory = directory;
    this.shutdownHook = new Thread(this::stopMembers, "stop-etcd");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** The {@code etcd} binary on the PATH, if installed. */
  static Optional<Path> findBinary() {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String dir : path.split(":")) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, "etcd");
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** {@code etcd --version}'s first line, or "unknown". */
  static String version(Path binary) {
    try {
      Process process =
          new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
      String out = new String(process.getInputStream().readAllBytes()).strip();
      process.waitFor(10, TimeUnit.SECONDS);
      return out.lines().findFirst().orElse("unknown");
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  /**
   * Starts {@value #MEMBERS} members under {@code directory} (an empty one; logs in {@code
   * m<i>.log}) and waits until every member reports itself healthy.
   */
  static EtcdCluster start(Path binary, Path directory, Clock clock)
      throws IOException, InterruptedException {
    Files.createDirectories(directory);
    int[] clientPorts = new int[MEMBERS];
    int[] peerPorts = new int[MEMBERS];
    int base = freeBase(clock.nanos());
    StringBuilder initialCluster = new StringBuilder();
    for (int i = 0; i < MEMBERS; i++) {
      clientPorts[i] = base + i;
      peerPorts[i] = base + MEMBERS + i;
      initialCluster
          .append(i == 0 ? "" : ",")
          .append(name(i))
          .append("=http://")
          .append(HOST)
          .append(':')
          .append(peerPorts[i]);
    }
    List<Process> processes = new ArrayList<>();
    List<URI> clientUrls = new ArrayList<>();
    for (int i = 0; i < MEMBERS; i++) {
      String clientUrl = "http://" + HOST + ":" + clientPorts[i];
      String peerUrl = "http://" + HOST + ":" + peerPorts[i];
      List<String> command =
          List.of(
              binary.toString(),
              "--name",
              name(i),
              "--data-dir",
              directory.resolve(name(i)).toString(),
              "--listen-client-urls",
              clientUrl,
              "--advertise-client-urls",
              clientUrl,
              "--listen-peer-urls",
              peerUrl,
              "--initial-advertise-peer-urls",
              peerUrl,
              "--initial-cluster",
              initialCluster.toString(),
              "--initial-cluster-token",
              "cairn-hot-path",
              "--initial-cluster-state",
              "new",
              "--logger",
              "zap");
      processes.add(
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(directory.resolve(name(i) + ".log").toFile())
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .start());
      clientUrls.add(URI.create(clientUrl));
    }
    EtcdCluster cluster = new EtcdCluster(processes, clientUrls, directory);
    try {
      cluster.awaitHealthy(clock);
    } catch (IOException | RuntimeException | InterruptedException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /** The members' client URLs, member i at index i. */
  List<URI> clientUrls() {
    return clientUrls;
  }

  /** The members' pids. */
  List<Long> pids() {
    return members.stream().map(Process::pid).toList();
  }

  Path directory() {
    return directory;
  }

  @Override
  public void close() {
    stopMembers();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook runs anyway
    }
  }

  private void stopMembers() {
    members.forEach(Process::destroy);
    for (Process member : members) {
      try {
        if (!member.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
          member.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
      } catch (InterruptedException e) {
        member.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }

  private void awaitHealthy(Clock clock) throws IOException, InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long deadline = clock.nanos() + READY_TIMEOUT.toNanos();
    for (int i = 0; i < MEMBERS; i++) {
      HttpRequest health =
          HttpRequest.newBuilder(clientUrls.get(i).resolve("/health"))
              .timeout(Duration.ofSeconds(2))
              .build();
      while (true) {
        if (!members.get(i).isAlive()) {
          throw new IllegalStateException(
              "Expected etcd member "
                  + name(i)
                  + " to run, but it exited with "
                  + members.get(i).exitValue()
                  + "; see "
                  + directory.resolve(name(i) + ".log"));
        }
        try {
          HttpResponse<String> answer = http.send(health, HttpResponse.BodyHandlers.ofString());
          if (answer.statusCode() == 200 && answer.body().contains("\"true\"")) {
            break;
          }
        } catch (IOException e) {
          // not listening yet
        }
        if (clock.nanos() - deadline > 0) {
          throw new IllegalStateException(
              "Expected etcd member "
                  + name(i)
                  + " to be healthy within "
                  + READY_TIMEOUT
                  + ", but it is not; see "
                  + directory.resolve(name(i) + ".log"));
        }
        Thread.sleep(POLL_MILLIS);
      }
    }
  }

  private static String name(int member) {
    return "m" + member;
  }

  /** A port p with p .. p + 2 * MEMBERS - 1 free on loopback, below the ephemeral range. */
  private static int freeBase(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int attempt = 0; attempt < 100; attempt++) {
      int base = PORT_LOW + random.nextInt(PORT_HIGH - PORT_LOW - 2 * MEMBERS);
      boolean free = true;
      for (int port = base; port < base + 2 * MEMBERS && free; port++) {
        free = FreePorts.isFree(HOST, port);
      }
      if (free) {
        return base;
      }
    }
    throw new IllegalStateException(
        "Expected "
            + 2 * MEMBERS
            + " free ports on "
            + HOST
            + " in ["
            + PORT_LOW
            + ", "
            + PORT_HIGH
            + ") for etcd, but found none after 100 attempts");
  }
}
