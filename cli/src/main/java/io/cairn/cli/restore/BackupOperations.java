package io.cairn.cli.restore;

import io.cairn.broker.config.BrokerConfig;
import io.cairn.cli.CliContext;
import io.cairn.cli.CliException;
import io.cairn.cli.ExitCode;
import io.cairn.restore.BackupRestorer;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.BackupVerifier;
import io.cairn.restore.RestoreConfig;
import io.cairn.restore.RestoreException;
import io.cairn.restore.RestoreListener;
import io.cairn.restore.RestoreResult;
import io.cairn.restore.RestoreTarget;
import io.cairn.restore.VerifyReport;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restore and verify as the commands (and the demo) run them: the store opened from a broker's
 * configuration, the restore library's defaults, {@link RestoreException}s turned into exit codes
 * ({@link RestoreFailures}).
 */
public final class BackupOperations {
  private static final Logger LOG = LoggerFactory.getLogger(BackupOperations.class);
  private static final RestoreConfig CONFIG = RestoreConfig.defaults();

  private BackupOperations() {}

  /**
   * Restores the node {@code config} describes into its (empty) data directory.
   *
   * @param source names the configuration in messages
   * @throws CliException with the exit code of the failure's kind
   */
  public static RestoreResult restoreNode(
      BrokerConfig config,
      String source,
      BackupSelector selector,
      RestoreListener listener,
      CliContext context) {
    return restoreNode(config, source, selector, listener, false, context);
  }

  /**
   * As {@link #restoreNode(BrokerConfig, String, BackupSelector, RestoreListener, CliContext)};
   * with {@code allowPartial} a partition none of whose copies verifies is skipped and listed in
   * {@link RestoreResult#skipped()} instead of failing the restore.
   */
  public static RestoreResult restoreNode(
      BrokerConfig config,
      String source,
      BackupSelector selector,
      RestoreListener listener,
      boolean allowPartial,
      CliContext context) {
    RestoreTarget target = RestoreInputs.target(config, context);
    try (ConfiguredBackupStore store = open(config, source, context)) {
      return restorer(store, listener, allowPartial, context).restore(target, selector);
    } catch (RestoreException e) {
      throw RestoreFailures.of(e);
    }
  }

  /**
   * Restores every node of one cluster from the same backup; every data directory must be empty
   * before any is written, and a failure empties the ones already restored. Every node must use the
   * same backup store (the store of the first is opened).
   *
   * @param sources names each configuration in messages, by index
   * @throws CliException exit 2 if the nodes name different stores; else the failure's exit code
   */
  public static List<RestoreResult> restoreNodes(
      List<BrokerConfig> configs,
      List<String> sources,
      BackupSelector selector,
      RestoreListener listener,
      CliContext context) {
    return restoreNodes(configs, sources, selector, listener, false, context);
  }

  /**
   * As {@link #restoreNodes(List, List, BackupSelector, RestoreListener, CliContext)}; with {@code
   * allowPartial} each node skips the partitions none of whose copies verifies.
   */
  public static List<RestoreResult> restoreNodes(
      List<BrokerConfig> configs,
      List<String> sources,
      BackupSelector selector,
      RestoreListener listener,
      boolean allowPartial,
      CliContext context) {
    BrokerConfig first = configs.get(0);
    List<RestoreTarget> targets = new ArrayList<>();
    for (int i = 0; i < configs.size(); i++) {
      if (!configs.get(i).backup().equals(first.backup())) {
        throw new CliException(
            ExitCode.USAGE,
            "Expected every broker to use one backup store, but the backup settings of "
                + sources.get(i)
                + " differ from those of "
                + sources.get(0)
                + ". Give them the same backup.* settings, or restore each node with: cairn"
                + " restore --config <file>");
      }
      targets.add(RestoreInputs.target(configs.get(i), context));
    }
    try (ConfiguredBackupStore store = open(first, sources.get(0), context)) {
      return restorer(store, listener, allowPartial, context).restoreCluster(targets, selector);
    } catch (RestoreException e) {
      throw RestoreFailures.of(e);
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage(), e);
    }
  }

  /**
   * Verifies a backup in the store {@code config} names, without a cluster.
   *
   * @param scratchDirectory where partitions are downloaded and rebuilt (must be empty or absent;
   *     unused when {@code quick}); when null, a temporary directory that is removed afterwards
   * @throws CliException with the exit code of the failure's kind (a backup that does not verify is
   *     a report, not a failure)
   */
  public static VerifyReport verify(
      BrokerConfig config,
      String source,
      BackupSelector selector,
      Path scratchDirectory,
      boolean quick,
      RestoreListener listener,
      CliContext context) {
    Path temporary = null;
    try (ConfiguredBackupStore store = open(config, source, context)) {
      Path scratch;
      if (scratchDirectory != null) {
        scratch = scratchDirectory;
      } else {
        temporary = Files.createTempDirectory("cairn-verify-");
        scratch = temporary.resolve("scratch");
      }
      return BackupVerifier.builder()
          .store(store.store())
          .config(CONFIG)
          .clock(context.clock())
          .listener(listener)
          .meterRegistry(new SimpleMeterRegistry())
          .build()
          .verify(selector, scratch, quick);
    } catch (RestoreException e) {
      throw RestoreFailures.of(e);
    } catch (IOException e) {
      throw new CliException(
          ExitCode.FAILED, "Expected a temporary scratch directory, but: " + e.getMessage(), e);
    } finally {
      if (temporary != null) {
        deleteQuietly(temporary);
      }
    }
  }

  private static ConfiguredBackupStore open(
      BrokerConfig config, String source, CliContext context) {
    return ConfiguredBackupStore.open(
        config, source, CONFIG.partitionConcurrency(), context.clock(), new SimpleMeterRegistry());
  }

  private static BackupRestorer restorer(
      ConfiguredBackupStore store,
      RestoreListener listener,
      boolean allowPartial,
      CliContext context) {
    return BackupRestorer.builder()
        .store(store.store())
        .config(RestoreConfig.builder().from(CONFIG).allowPartial(allowPartial).build())
        .clock(context.clock())
        .listener(listener)
        .meterRegistry(new SimpleMeterRegistry())
        .build();
  }

  private static void deleteQuietly(Path directory) {
    try (var paths = Files.walk(directory)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      LOG.warn("Could not remove the temporary directory {}: {}", directory, e.toString());
    }
  }
}
