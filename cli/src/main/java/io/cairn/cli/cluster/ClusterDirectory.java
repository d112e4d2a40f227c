package io.cairn.cli.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.cli.CliException;
import io.cairn.cli.ExitCode;
import io.cairn.cli.output.Printer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The files of a local cluster under one directory:
 *
 * <pre>
 * &lt;dir&gt;/cluster.json              the layout (shape and ports)
 * &lt;dir&gt;/broker-&lt;i&gt;.yaml, gateway.yaml   configuration, written once, then yours to edit
 * &lt;dir&gt;/broker-&lt;i&gt;/               broker i's data directory
 * &lt;dir&gt;/backups/                 the filesystem backup store
 * &lt;dir&gt;/logs/&lt;process&gt;.log        stdout and stderr of each process
 * &lt;dir&gt;/run/&lt;process&gt;.pid         pid of each running process
 * </pre>
 */
public final class ClusterDirectory {
  public static final String GATEWAY = "gateway";
  private static final String LAYOUT_FILE = "cluster.json";

  private final Path root;

  public ClusterDirectory(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  public Path root() {
    return root;
  }

  /** The process names: broker-0 .. broker-(n-1), then gateway. */
  public static List<String> processNames(ClusterLayout layout) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < layout.brokers(); i++) {
      names.add(brokerName(i));
    }
    names.add(GATEWAY);
    return names;
  }

  public static String brokerName(int nodeId) {
    return "broker-" + nodeId;
  }

  public Path layoutFile() {
    return root.resolve(LAYOUT_FILE);
  }

  public Path configFile(String process) {
    return root.resolve(process + ".yaml");
  }

  public Path dataDirectory(int nodeId) {
    return root.resolve(brokerName(nodeId));
  }

  public Path backups() {
    return root.resolve("backups");
  }

  /** Where a secure cluster keeps its CA, certificates, keys and backup master keys. */
  public Path tlsDirectory() {
    return root.resolve("tls");
  }

  /** The CA file of a secure cluster; empty for a plaintext one. */
  public Optional<Path> caFile() {
    Path ca = tlsDirectory().resolve("ca.crt");
    return Files.exists(ca) ? Optional.of(ca) : Optional.empty();
  }

  /** Whether this cluster was set up with {@code --secure} ({@link ClusterSecurity}). */
  public boolean secure() {
    return caFile().isPresent();
  }

  /** Present when the cluster was created with {@code cluster up --archive}. */
  public Path archiveFlagFile() {
    return root.resolve("archive-enabled");
  }

  /** Present when the cluster was created with {@code cluster up --restore-mode}. */
  public Path restoreModeFlagFile() {
    return root.resolve("restore-mode");
  }

  /** Whether new broker files set {@code data.restoreMode}: empty brokers wait for a restore. */
  public boolean restoreMode() {
    return java.nio.file.Files.exists(restoreModeFlagFile());
  }

  /** Whether new broker files turn on the continuous log archive. */
  public boolean archive() {
    return java.nio.file.Files.exists(archiveFlagFile());
  }

  /**
   * The marker interval of a cluster created with {@code cluster up --archive --marker-interval}:
   * the archive flag file's content, empty when it has none.
   */
  public Optional<String> markerInterval() {
    if (!archive()) {
      return Optional.empty();
    }
    try {
      String text = java.nio.file.Files.readString(archiveFlagFile()).trim();
      return text.isEmpty() ? Optional.empty() : Optional.of(text);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("Cannot read " + archiveFlagFile(), e);
    }
  }

  /** The gateway's credentials file of a secure cluster (hashes only). */
  public Path apiKeysFile() {
    return tlsDirectory().resolve("api-keys");
  }

  /** The admin API key of a secure cluster, which the local commands present. */
  public Path adminKeyFile() {
    return tlsDirectory().resolve("admin.apikey");
  }

  /** The {@code Authorization} value of the admin key of a secure cluster; empty otherwise. */
  public Optional<String> adminAuthorization() {
    Path file = adminKeyFile();
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of("ApiKey " + Files.readString(file, StandardCharsets.UTF_8).strip());
    } catch (IOException e) {
      throw new CliException(
          ExitCode.FAILED, "Expected to read " + file + ", but " + e.getMessage(), e);
    }
  }

  /** The brokers' backup master keys of a secure cluster. */
  public Path masterKeyFile() {
    return tlsDirectory().resolve("backup-master.keys");
  }

  public Path logFile(String process) {
    return root.resolve("logs").resolve(process + ".log");
  }

  public Path pidFile(String process) {
    return root.resolve("run").resolve(process + ".pid");
  }

  /** The stored layout, if this directory holds a cluster. */
  public Optional<ClusterLayout> readLayout() {
    Path file = layoutFile();
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(mapper().readValue(file.toFile(), ClusterLayout.class));
    } catch (IOException e) {
      throw new CliException(
          ExitCode.FAILED,
          "Expected "
              + file
              + " to describe a cluster, but it cannot be read: "
              + e.getMessage()
              + ". Remove the directory to start afresh.",
          e);
    }
  }

  /** The stored layout. */
  public ClusterLayout requireLayout() {
    return readLayout()
        .orElseThrow(
            () ->
                new CliException(
                    ExitCode.NOT_FOUND,
                    "Expected a local cluster in "
                        + root
                        + ", but there is no "
                        + LAYOUT_FILE
                        + ". Start one with: cairn cluster up --dir "
                        + root));
  }

  /** Writes {@code cluster.json}. */
  public void writeLayout(ClusterLayout layout) {
    writeAtomically(layoutFile(), Printer.toJson(layout));
  }

  /** The pid recorded for {@code process}, if any. */
  public Optional<Long> readPid(String process) {
    Path file = pidFile(process);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(Long.parseLong(Files.readString(file, StandardCharsets.UTF_8).trim()));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  public void writePid(String process, long pid) {
    writeAtomically(pidFile(process), Long.toString(pid) + "\n");
  }

  public void deletePid(String process) {
    try {
      Files.deleteIfExists(pidFile(process));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@code text} to {@code file} through a temporary file and a rename. */
  static void writeAtomically(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Path temp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(temp, text, StandardCharsets.UTF_8);
      try {
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new CliException(ExitCode.FAILED, "Cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  private static ObjectMapper mapper() {
    return Printer.mapper();
  }
}
