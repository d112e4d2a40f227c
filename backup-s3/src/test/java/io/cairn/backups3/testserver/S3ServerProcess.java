package io.cairn.backups3.testserver;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An S3-compatible server run as a child JVM on 127.0.0.1 and an ephemeral port, for tests. The
 * port is picked by binding 127.0.0.1:0 and closing it; if the server then fails to bind it (taken
 * in between), it is started once more on another port. Readiness is an HTTP answer on the port
 * from a socket the child itself listens on, polled with a bounded timeout. The child is killed by
 * {@link #close()} and by a JVM shutdown hook.
 */
public abstract class S3ServerProcess implements AutoCloseable {

  public static final String ACCESS_KEY = "cairn-test-access";
  public static final String SECRET_KEY = "cairn-test-secret";
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

  private final String name;
  private final Path workDir;
  private volatile Process process;
  private int port;
  private Thread shutdownHook;

  protected S3ServerProcess(String name, Path workDir) {
    this.name = name;
    this.workDir = workDir;
  }

  /** The command line of the child for {@code port}. */
  protected abstract List<String> command(int port, Path dataDir) throws IOException;

  public String name() {
    return name;
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + port);
  }

  public int port() {
    return port;
  }

  public long pid() {
    return process.pid();
  }

  public Path logFile() {
    return workDir.resolve(name + ".log");
  }

  /** Starts the child and waits until it answers HTTP; retries once on another port. */
  public synchronized void start() throws IOException {
    Files.createDirectories(workDir);
    for (int attempt = 1; ; attempt++) {
      port = freeLoopbackPort();
      Path dataDir = workDir.resolve(name + "-data");
      deleteRecursively(dataDir);
      Files.createDirectories(dataDir);
      ProcessBuilder builder =
          new ProcessBuilder(command(port, dataDir))
              .directory(workDir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(logFile().toFile());
      process = builder.start();
      registerShutdownHook();
      try {
        await()
            .atMost(READY_TIMEOUT)
            .pollInterval(Duration.ofMillis(100))
            .pollDelay(Duration.ofMillis(50))
            .until(
                () -> {
                  if (!process.isAlive()) {
                    throw new IllegalStateException(
                        "Expected "
                            + name
                            + " to run, but it exited "
                            + "with "
                            + process.exitValue()
                            + "; see "
                            + logFile());
                  }
                  return answersHttp(port) && listensItself(port);
                });
        return;
      } catch (RuntimeException e) {
        String log = Files.exists(logFile()) ? Files.readString(logFile()) : "";
        stop();
        if (attempt == 1 && log.contains("Address already in use")) {
          continue;
        }
        throw new IllegalStateException(
            "Expected "
                + name
                + " to answer on 127.0.0.1:"
                + port
                + " within "
                + READY_TIMEOUT
                + ", but it did not; its log "
                + logFile()
                + " ends:\n"
                + tail(log),
            e);
      }
    }
  }

  @Override
  public synchronized void close() {
    stop();
    if (shutdownHook != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException e) {
        // the JVM is shutting down: the hook runs anyway
      }
      shutdownHook = null;
    }
  }

  private void stop() {
    if (process == null) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private void registerShutdownHook() {
    if (shutdownHook == null) {
      shutdownHook =
          new Thread(
              () -> {
                Process child = process;
                if (child != null) {
                  child.destroyForcibly();
                }
              },
              "kill-" + name);
      Runtime.getRuntime().addShutdownHook(shutdownHook);
    }
  }

  /**
   * True if the child itself listens on {@code port}: another process that took the port between
   * {@link #freeLoopbackPort()} and the child's start must not pass for the child. Where {@code
   * /proc} cannot tell, the HTTP answer alone counts.
   */
  private boolean listensItself(int port) throws IOException {
    if (!ListeningSockets.available()) {
      return true;
    }
    return ListeningSockets.of(process.pid()).stream().anyMatch(a -> a.getPort() == port);
  }

  /** Binds 127.0.0.1:0, reads the port the kernel chose, and closes the socket again. */
  public static int freeLoopbackPort() throws IOException {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress("127.0.0.1", 0));
      return socket.getLocalPort();
    }
  }

  static boolean answersHttp(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      socket.setSoTimeout(2000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] head = in.readNBytes(8);
      return new String(head, StandardCharsets.US_ASCII).startsWith("HTTP/1.");
    } catch (IOException e) {
      return false;
    }
  }

  private static String tail(String log) {
    String[] lines = log.split("\n");
    int from = Math.max(0, lines.length - 30);
    return String.join("\n", java.util.Arrays.copyOfRange(lines, from, lines.length));
  }

  static void deleteRecursively(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (var paths = Files.walk(root)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** JVM options that make a small test server start fast on two cores. */
  static List<String> childJvmOptions() {
    return List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto");
  }
}
