package io.cairn.backups3.testserver;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Adobe S3Mock 5.2.0 (the {@code exec} Spring Boot fat jar), its store under {@code target/}. What
 * it needs: its plain-HTTP connector ({@code http.port}) ignores {@code server.address}, so {@link
 * LoopbackHttpConnector} is put on its class path ({@code -Dloader.path}, started through Spring
 * Boot's {@code PropertiesLauncher}) and added as a source ({@code spring.main.sources}); its HTTPS
 * connector gets {@code server.address=127.0.0.1} and port 0. It checks no signatures, and its
 * request size limit is raised above the tests' part size.
 */
public final class S3MockServer extends S3ServerProcess {

  private static final String LAUNCHER =
      "org.springframework.boot.loader.launch.PropertiesLauncher";

  /**
   * {@link LoopbackHttpConnector} by name: the class implements Spring interfaces that only
   * S3Mock's class path has, so users of this test jar (qa) must not load it.
   */
  private static final String CONNECTOR = "io.cairn.backups3.testserver.LoopbackHttpConnector";

  private final Path jar;

  public S3MockServer(Path jar, Path workDir) {
    super("s3mock", workDir);
    this.jar = jar;
  }

  @Override
  protected List<String> command(int port, Path dataDir) throws IOException {
    Path extension = dataDir.resolveSibling("s3mock-extension");
    copyClass(CONNECTOR, extension);
    List<String> command = new ArrayList<>();
    command.add(javaBinary());
    command.addAll(childJvmOptions());
    command.add("-Dloader.path=" + extension.toAbsolutePath());
    command.add("-cp");
    command.add(jar.toAbsolutePath().toString());
    command.add(LAUNCHER);
    command.add("--server.port=0");
    command.add("--server.address=127.0.0.1");
    command.add("--http.port=" + port);
    command.add("--com.adobe.testing.s3mock.store.root=" + dataDir.toAbsolutePath());
    command.add("--com.adobe.testing.s3mock.max-payload-size=64MB");
    command.add("--spring.main.sources=" + CONNECTOR);
    command.add("--spring.main.banner-mode=off");
    command.add("--logging.level.root=WARN");
    return command;
  }

  /** Copies a compiled test class into {@code root} under its package path. */
  private static void copyClass(String className, Path root) throws IOException {
    String resource = className.replace('.', '/') + ".class";
    Path target = root.resolve(resource);
    Files.createDirectories(target.getParent());
    try (InputStream in = S3MockServer.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("Expected the compiled " + resource + " on the test class path");
      }
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
