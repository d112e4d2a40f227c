package io.cairn.cli.cluster;

import io.cairn.broker.config.BrokerConfig;
import io.cairn.cli.CliContext;
import io.cairn.cli.CliException;
import io.cairn.cli.ExitCode;
import io.cairn.cli.restore.BackupOperations;
import io.cairn.cli.restore.RestoreInputs;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.RestoreListener;
import io.cairn.restore.RestoreResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code cairn cluster restore}: restores every broker of a local cluster from one backup, into the
 * data directories its {@code broker-<i>.yaml} files name. The cluster must be down and every data
 * directory empty (or absent); the files are read as the brokers read them — without the caller's
 * {@code CAIRN_*} variables, which the local cluster's processes do not get either.
 */
public final class LocalClusterRestore {
  private LocalClusterRestore() {}

  /**
   * @throws CliException exit 4 without a cluster in the directory or with a configuration file
   *     missing, 5 while a process of the cluster runs, else as {@link
   *     BackupOperations#restoreNodes}
   */
  public static List<RestoreResult> restore(
      LocalCluster cluster, BackupSelector selector, RestoreListener listener, CliContext context) {
    return restore(cluster, selector, listener, false, context);
  }

  /**
   * As {@link #restore(LocalCluster, BackupSelector, RestoreListener, CliContext)}; with {@code
   * allowPartial} each broker skips the partitions none of whose copies verifies.
   */
  public static List<RestoreResult> restore(
      LocalCluster cluster,
      BackupSelector selector,
      RestoreListener listener,
      boolean allowPartial,
      CliContext context) {
    ClusterDirectory dir = cluster.directory();
    ClusterLayout layout = dir.requireLayout();
    for (String name : ClusterDirectory.processNames(layout)) {
      Optional<ProcessHandle> running = cluster.running(name);
      if (running.isPresent()) {
        throw new CliException(
            ExitCode.CONFLICT,
            "Expected the cluster in "
                + dir.root()
                + " to be down, but "
                + name
                + " runs (pid "
                + running.get().pid()
                + "). Stop it first: cairn cluster down --dir "
                + dir.root());
      }
    }
    List<BrokerConfig> configs = new ArrayList<>();
    List<String> sources = new ArrayList<>();
    for (int nodeId = 0; nodeId < layout.brokers(); nodeId++) {
      Path file = dir.configFile(ClusterDirectory.brokerName(nodeId));
      if (!file.toFile().isFile()) {
        throw new CliException(
            ExitCode.NOT_FOUND,
            "Expected "
                + file
                + " (broker "
                + nodeId
                + " of the cluster in "
                + dir.root()
                + "), but it does not exist. Write it, or run cairn cluster up --dir "
                + dir.root()
                + " once to have it written");
      }
      configs.add(RestoreInputs.readConfig(file, Map.of(), "the configuration"));
      sources.add(file.toString());
    }
    return BackupOperations.restoreNodes(
        configs, sources, selector, listener, allowPartial, context);
  }
}
