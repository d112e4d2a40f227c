package io.cairn.qa.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * S3Proxy 4.1.0 ({@code jar-with-dependencies}, copied by the build to the path in {@code
 * cairn.qa.s3proxy.jar}) as a child process on 127.0.0.1 with its {@code filesystem-nio2} backend
 * in a directory of its own; one bucket, created as that backend's directory. {@code
 * s3proxy.ignore-unknown-headers=true} is needed by the SDK's newer headers.
 */
public final class S3ProxyProcess implements AutoCloseable {

  public static final String BUCKET = "cairn-qa";
  private static final String ACCESS_KEY = "qa-access";
  private static final String SECRET_KEY = "qa-secret-key";

  private final Process process;
  private final int port;

  private S3ProxyProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Starts the server in {@code workDir} and waits until it accepts connections. */
  public static S3ProxyProcess start(Path workDir) throws IOException {
    String jar = System.getProperty("cairn.qa.s3proxy.jar");
    if (jar == null || !Files.isRegularFile(Path.of(jar))) {
      throw new IllegalStateException(
          "Expected the S3Proxy jar at system property cairn.qa.s3proxy.jar, but it is '"
              + jar
              + "'. Run the integration tests through Maven (mvn verify), which copies it");
    }
    Path data = Files.createDirectories(workDir.resolve("data"));
    Files.createDirectories(data.resolve(BUCKET));
    int port = freePort(workDir);
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
            "jclouds.filesystem.basedir=" + data.toAbsolutePath(),
            ""));
    Process process =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m",
                    "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1",
                    "-jar",
                    jar,
                    "--properties",
                    properties.toAbsolutePath().toString()))
            .redirectErrorStream(true)
            .redirectOutput(workDir.resolve("s3proxy.log").toFile())
            .start();
    S3ProxyProcess server = new S3ProxyProcess(process, port);
    try {
      await("S3Proxy to listen on 127.0.0.1:" + port + " (log: " + workDir + "/s3proxy.log)")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(
              () -> {
                if (!process.isAlive()) {
                  throw new IllegalStateException(
                      "S3Proxy exited with " + process.exitValue() + "; see " + workDir);
                }
                return accepts(port);
              });
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /** The brokers' {@code backup.s3.*} settings for this server's bucket. */
  public Map<String, String> storeSettings() {
    Map<String, String> settings = new TreeMap<>();
    settings.put("bucket", BUCKET);
    settings.put("endpoint", "http://127.0.0.1:" + port);
    settings.put("region", "us-east-1");
    settings.put("accessKeyId", ACCESS_KEY);
    settings.put("secretAccessKey", SECRET_KEY);
    settings.put("pathStyleAccess", "true");
    return settings;
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * A loopback port that is free now, for the child process to bind a second or more later: in
   * [20000, 32000), below Linux's ephemeral range (32768+) where the kernel picks the local ports
   * of outgoing connections, so none of those takes it meanwhile. Candidates depend on this process
   * and the work directory, so that builds running at the same time try different ones.
   */
  private static int freePort(Path workDir) {
    SplittableRandom candidates =
        new SplittableRandom(ProcessHandle.current().pid() * 1_000_003L + workDir.hashCode());
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = 20_000 + candidates.nextInt(12_000);
      try (ServerSocket socket = new ServerSocket()) {
        socket.setReuseAddress(false);
        socket.bind(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port), 1);
        return port;
      } catch (IOException e) {
        // taken: try the next candidate
      }
    }
    throw new IllegalStateException(
        "Expected a free loopback port in [20000, 32000), but found none in 200 attempts");
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
  }
}
