package io.cairn.benchmarks;

import io.cairn.scheduler.Clock;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * S3Proxy 4.1.0 ({@code jar-with-dependencies}) as a child JVM bound to 127.0.0.1 on an ephemeral
 * port, with its {@code filesystem-nio2} backend in a directory of its own, AWS v2/v4 signatures
 * checked, and {@code s3proxy.ignore-unknown-headers=true} (the SDK's multipart upload gets 501
 * without it). The same launch as backup-s3's test servers, without their test dependencies: the
 * port is found by binding 127.0.0.1:0 and closing it; readiness is an HTTP answer on the port,
 * polled until a deadline. {@link #close()} and a shutdown hook kill the child.
 */
final class S3ProxyProcess implements AutoCloseable {

  static final String ACCESS_KEY = "cairn-benchmark-access";
  static final String SECRET_KEY = "cairn-benchmark-secret";
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
  private static final long POLL_MILLIS = 100;

  private final Process process;
  private final int port;
  private final Path logFile;
  private final Thread shutdownHook;

  private S3ProxyProcess(Process process, int port, Path logFile) {
    this.process = process;
    this.port = port;
    this.logFile = logFile;
    this.shutdownHook = new Thread(process::destroyForcibly, "kill-s3proxy");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts S3Proxy from {@code jar} with its data under {@code workDir/data} (emptied first) and
   * waits until it answers HTTP.
   *
   * @param jvmOptions options of the child JVM (heap, GC)
   */
  static S3ProxyProcess start(Path jar, Path workDir, List<String> jvmOptions, Clock clock)
      throws IOException, InterruptedException {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "Expected the S3Proxy jar at "
              + jar
              + ", but it is missing; `mvn -pl benchmarks"
              + " package` copies it to target/s3-servers");
    }
    Path dataDir = workDir.resolve("data");
    S3BenchmarkFiles.deleteRecursively(dataDir);
    Files.createDirectories(dataDir);
    int port = freeLoopbackPort();
    Path properties = workDir.resolve("s3proxy.properties");
    Files.writeString(
        properties,
        String.join(
            "\n",
            "s3proxy.endpoint=http://127.0.0.1:" + port,
            "s3proxy.authorization=aws-v2-or-v4",
            "s3proxy.identity=" + ACCESS_KEY,
            "s3proxy.credential=" + SECRET_KEY,
            "s3proxy.ignore-unknown-headers=true",
            "jclouds.provider=filesystem-nio2",
            "jclouds.identity=" + ACCESS_KEY,
            "jclouds.credential=" + SECRET_KEY,
            "jclouds.filesystem.basedir=" + dataDir.toAbsolutePath(),
            ""));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-jar");
    command.add(jar.toAbsolutePath().toString());
    command.add("--properties");
    command.add(properties.toAbsolutePath().toString());
    Path logFile = workDir.resolve("s3proxy.log");
    Process child =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(logFile.toFile())
            .start();
    S3ProxyProcess server = new S3ProxyProcess(child, port, logFile);
    long deadline = clock.nanos() + READY_TIMEOUT.toNanos();
    while (!answersHttp(port)) {
      if (!child.isAlive() || clock.nanos() > deadline) {
        server.close();
        throw new IllegalStateException(
            "Expected S3Proxy to answer on 127.0.0.1:"
                + port
                + " within "
                + READY_TIMEOUT
                + ", but "
                + (child.isAlive() ? "it did not" : "it exited")
                + "; see "
                + logFile);
      }
      Thread.sleep(POLL_MILLIS);
    }
    return server;
  }

  URI endpoint() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /** The child's process, for its CPU time. */
  ProcessHandle handle() {
    return process.toHandle();
  }

  Path logFile() {
    return logFile;
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook runs anyway
    }
  }

  private static int freeLoopbackPort() throws IOException {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress("127.0.0.1", 0));
      return socket.getLocalPort();
    }
  }

  private static boolean answersHttp(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      socket.setSoTimeout(2000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readNBytes(8), StandardCharsets.US_ASCII).startsWith("HTTP/1.");
    } catch (IOException e) {
      return false;
    }
  }
}
