package io.cairn.cli.demo;

import io.cairn.broker.config.BrokerConfig;
import io.cairn.cli.CliContext;
import io.cairn.cli.cluster.ClusterConfigFiles;
import io.cairn.cli.cluster.ClusterDirectory;
import io.cairn.cli.cluster.ClusterLayout;
import io.cairn.cli.cluster.ClusterSecurity;
import io.cairn.cli.cluster.FreePorts;
import io.cairn.cli.cluster.LocalCluster;
import io.cairn.cli.cluster.LocalClusterRestore;
import io.cairn.cli.output.Printer;
import io.cairn.cli.restore.BackupOperations;
import io.cairn.cli.restore.RestoreInputs;
import io.cairn.cli.restore.RestoreProgressReporter;
import io.cairn.cli.restore.RestoreReports;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.RestoreResult;
import io.cairn.restore.VerifyReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The demo's restore half, with the commands' own code: {@code backup verify} of the backup in the
 * first cluster's store, then {@code cluster restore} into a new cluster directory whose brokers
 * use that store and fresh ports.
 */
final class DemoRestore {
  private final ClusterDirectory source;
  private final ClusterLayout sourceLayout;
  private final Printer printer;
  private final CliContext context;

  DemoRestore(
      ClusterDirectory source, ClusterLayout sourceLayout, Printer printer, CliContext context) {
    this.source = source;
    this.sourceLayout = sourceLayout;
    this.printer = printer;
    this.context = context;
  }

  /** {@code cairn backup verify <id> --config <source>/broker-0.yaml}: files and digests. */
  VerifyReport verify(long backupId) {
    Path file = source.configFile(ClusterDirectory.brokerName(0));
    BrokerConfig config = RestoreInputs.readConfig(file, Map.of(), "the configuration");
    VerifyReport report =
        BackupOperations.verify(
            config,
            file.toString(),
            BackupSelector.exact(backupId),
            null,
            false,
            new RestoreProgressReporter(printer, context.clock(), "verify"),
            context);
    printer.progress(RestoreReports.verdict(report));
    return report;
  }

  /**
   * Writes the new cluster directory of {@code cluster} (the source's shape, free ports, brokers
   * configured with the source's backup store) and runs {@code cairn cluster restore} on it.
   *
   * @return the new cluster's layout and the restore's results
   */
  Restored restore(long backupId, LocalCluster cluster) {
    int[] ports =
        FreePorts.forCluster(
            sourceLayout.host(), sourceLayout.brokers(), context.clock().nanos() + 1);
    ClusterLayout layout =
        ClusterLayout.of(
            sourceLayout.brokers(),
            sourceLayout.partitions(),
            sourceLayout.replicationFactor(),
            sourceLayout.host(),
            ports[0],
            ports[1],
            ports[2]);
    ClusterDirectory dir = cluster.directory();
    dir.writeLayout(layout);
    if (source.secure()) {
      // its own CA and certificates, the source's master keys to read its encrypted backups
      ClusterSecurity.setUp(
          dir, layout, Optional.of(source.masterKeyFile()), context.clock().instant());
    }
    printer.progress(
        "demo: restoring into "
            + dir.root()
            + ", its brokers reading backups from "
            + source.backups());
    for (Path file : ClusterConfigFiles.writeMissing(dir, layout, source.backups())) {
      printer.progress("demo: wrote " + file);
    }
    List<RestoreResult> results =
        LocalClusterRestore.restore(
            cluster,
            BackupSelector.exact(backupId),
            new RestoreProgressReporter(printer, context.clock(), "restore"),
            context);
    return new Restored(layout, results);
  }

  /** A restored cluster directory, not started yet. */
  record Restored(ClusterLayout layout, List<RestoreResult> results) {}
}
