package io.cairn.backups3.testserver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * S3Proxy 4.1.0 ({@code jar-with-dependencies}) with its {@code filesystem-nio2} backend under
 * {@code target/}, AWS v2/v4 signatures checked against {@link #ACCESS_KEY}/{@link #SECRET_KEY},
 * listening on 127.0.0.1 only. What it needs: {@code s3proxy.ignore-unknown-headers=true} (without
 * it the SDK's newer headers get 501), and downloads by plain or ranged GETs (it cannot serve
 * {@code partNumber} GETs of multipart objects).
 */
public final class S3ProxyServer extends S3ServerProcess {

  private final Path jar;

  public S3ProxyServer(Path jar, Path workDir) {
    super("s3proxy", workDir);
    this.jar = jar;
  }

  @Override
  protected List<String> command(int port, Path dataDir) throws IOException {
    Path properties = dataDir.resolveSibling("s3proxy.properties");
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
    command.add(javaBinary());
    command.addAll(childJvmOptions());
    command.add("-jar");
    command.add(jar.toAbsolutePath().toString());
    command.add("--properties");
    command.add(properties.toAbsolutePath().toString());
    return command;
  }
}
