package io.cairn.cli.cluster;

import io.cairn.cli.CliException;
import io.cairn.cli.ExitCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The configuration files of a local cluster: {@code broker-<i>.yaml} per broker (filesystem backup
 * store under {@code <dir>/backups}) and {@code gateway.yaml}. A file that exists is kept as it is,
 * so edits survive {@code cluster down} / {@code up}.
 *
 * <p>Timings are tuned for one machine: elections after 1.5 s of silence, topology refreshes every
 * 250 ms, shutdown waits at most 10 s for commands in flight, snapshots every minute, 32 MB
 * segments.
 */
public final class ClusterConfigFiles {
  private ClusterConfigFiles() {}

  /**
   * Writes every missing file; brokers use {@code <dir>/backups}, created when a broker file is
   * written.
   *
   * @return the files written now (existing ones are not in the list)
   */
  public static List<Path> writeMissing(ClusterDirectory dir, ClusterLayout layout) {
    return writeMissing(dir, layout, dir.backups());
  }

  /**
   * Writes every missing file, the brokers' filesystem backup store at {@code backups} (created
   * when a broker file is written) — another cluster's, to restore its backups into this one.
   *
   * @return the files written now (existing ones are not in the list)
   */
  public static List<Path> writeMissing(ClusterDirectory dir, ClusterLayout layout, Path backups) {
    List<Path> written = new ArrayList<>();
    for (int nodeId = 0; nodeId < layout.brokers(); nodeId++) {
      Path file = dir.configFile(ClusterDirectory.brokerName(nodeId));
      if (!Files.exists(file)) {
        createDirectory(backups);
        ClusterDirectory.writeAtomically(file, brokerYaml(dir, layout, nodeId, backups));
        written.add(file);
      }
    }
    Path gateway = dir.configFile(ClusterDirectory.GATEWAY);
    if (!Files.exists(gateway)) {
      ClusterDirectory.writeAtomically(gateway, gatewayYaml(dir, layout));
      written.add(gateway);
    }
    return written;
  }

  private static void createDirectory(Path directory) {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new CliException(
          ExitCode.FAILED, "Cannot create " + directory + ": " + e.getMessage(), e);
    }
  }

  /** The configuration of broker {@code nodeId}, its backup store at {@code backups}. */
  public static String brokerYaml(
      ClusterDirectory dir, ClusterLayout layout, int nodeId, Path backups) {
    StringBuilder members = new StringBuilder();
    for (int i = 0; i < layout.brokers(); i++) {
      members
          .append("    ")
          .append(i)
          .append(": ")
          .append(layout.host())
          .append(':')
          .append(layout.brokerPorts().get(i))
          .append('\n');
    }
    return """
        # Broker %1$d of the local cluster in %2$s (written by 'cairn cluster up'; edit freely).
        # Every key can be overridden by an environment variable, e.g. CAIRN_CLUSTER_NODEID.
        cluster:
          clusterId: %3$s
          nodeId: %1$d
          partitionCount: %4$d
          replicationFactor: %5$d
          members:
        %6$snetwork:
          host: %7$s
          port: %8$d
        data:
          directory: %9$s
          segmentSize: 32MB
          snapshotInterval: 1m
        backup:
          store: fs
          fs:
            basePath: %10$s
        %12$smanagement:
          host: %7$s
          port: %11$d
        processing:
          creditRetryInterval: 200ms
          creditRetryIntervalMax: 5s
          topologyRefreshInterval: 250ms
          shutdownTimeout: 10s
        raft:
          electionTimeout: 1500ms
          heartbeatInterval: 250ms
          requestTimeout: 500ms
        %13$s"""
        .formatted(
            nodeId,
            dir.root(),
            layout.clusterId(),
            layout.partitions(),
            layout.replicationFactor(),
            members,
            layout.host(),
            layout.brokerPorts().get(nodeId),
            quoted(dir.dataDirectory(nodeId)) + (dir.restoreMode() ? "\n  restoreMode: true" : ""),
            quoted(backups.toAbsolutePath().normalize()),
            layout.managementPorts().get(nodeId),
            (dir.secure()
                    ? "  encryption:\n    keyFile: " + quoted(dir.masterKeyFile()) + "\n"
                    : "")
                + (dir.archive() ? "  archive:\n    enabled: true\n" : "")
                + dir.markerInterval()
                    .map(
                        interval ->
                            "  schedule:\n    interval: 1h\n    markerInterval: " + interval + "\n")
                    .orElse(""),
            dir.secure() ? brokerSecurityYaml(dir, nodeId) : "");
  }

  /**
   * A secure cluster's broker ({@link ClusterSecurity}): TLS with its own certificate (its backups
   * are encrypted with the cluster's master keys, in the backup section).
   */
  private static String brokerSecurityYaml(ClusterDirectory dir, int nodeId) {
    Path tls = dir.tlsDirectory();
    String name = ClusterDirectory.brokerName(nodeId);
    return """
        security:
          tls:
            enabled: true
            certificateFile: %s
            privateKeyFile: %s
            trustedCaFile: %s
        """
        .formatted(
            quoted(tls.resolve(name + ".crt")),
            quoted(tls.resolve(name + ".key")),
            quoted(tls.resolve("ca.crt")));
  }

  /** A path as a single-quoted YAML scalar. */
  static String quoted(Path path) {
    return "'" + path.toString().replace("'", "''") + "'";
  }

  /** The gateway's configuration. */
  public static String gatewayYaml(ClusterDirectory dir, ClusterLayout layout) {
    StringBuilder brokers = new StringBuilder();
    for (int i = 0; i < layout.brokers(); i++) {
      brokers
          .append("    ")
          .append(i)
          .append(": ")
          .append(layout.host())
          .append(':')
          .append(layout.brokerPorts().get(i))
          .append('\n');
    }
    return """
        # The gateway of the local cluster (written by 'cairn cluster up'; edit freely).
        # Every key can be overridden by an environment variable, e.g. CAIRN_GATEWAY_GRPC_PORT.
        gateway:
          nodeId: 1000
          brokers:
        %1$s  grpc:
            host: %2$s
            port: %3$d
          http:
            host: %2$s
            port: %4$d
          transport:
            host: %2$s
            port: 0
          requestTimeout: 15s
          topologyRefreshInterval: 250ms
        """
            .formatted(brokers, layout.host(), layout.gatewayPort(), layout.gatewayHttpPort())
        + (dir.secure() ? gatewaySecurityYaml(dir) : "");
  }

  /** A secure cluster's gateway: TLS with its own certificate, API keys required. */
  private static String gatewaySecurityYaml(ClusterDirectory dir) {
    Path tls = dir.tlsDirectory();
    return """
          security:
            tls:
              enabled: true
              certificateFile: %s
              privateKeyFile: %s
              trustedCaFile: %s
            auth:
              enabled: true
              apiKeysFile: %s
        """
        .formatted(
            quoted(tls.resolve(ClusterDirectory.GATEWAY + ".crt")),
            quoted(tls.resolve(ClusterDirectory.GATEWAY + ".key")),
            quoted(tls.resolve("ca.crt")),
            quoted(dir.apiKeysFile()));
  }
}
