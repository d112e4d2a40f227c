package io.cairn.cli.restore;

import io.cairn.broker.BrokerVersion;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.broker.config.BrokerConfigReader;
import io.cairn.broker.restore.ApiRestore;
import io.cairn.cli.CliContext;
import io.cairn.cli.CliException;
import io.cairn.cli.ExitCode;
import io.cairn.config.ConfigException;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.RestoreTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** What restore and verify read from the command line and from a broker's configuration. */
public final class RestoreInputs {
  private RestoreInputs() {}

  /**
   * {@code latest} or a backup id {@code >= 1}.
   *
   * @throws ParameterException (exit 2) naming {@code option} otherwise
   */
  public static BackupSelector selector(CommandSpec spec, String option, String value) {
    try {
      return BackupSelector.parse(value);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          spec.commandLine(),
          "Expected " + option + " to be a backup id >= 1 or 'latest', but was '" + value + "'");
    }
  }

  /**
   * Reads a broker's configuration with the broker's own reader ({@code env}'s {@code CAIRN_*}
   * variables override the file, as they do for the broker).
   *
   * @throws CliException exit 2 if the file is missing or the configuration is invalid (every
   *     problem listed)
   */
  public static BrokerConfig readConfig(Path file, Map<String, String> env, String option) {
    if (!Files.isRegularFile(file)) {
      throw new CliException(
          ExitCode.USAGE,
          "Expected " + option + " to name a readable file, but " + file + " is none");
    }
    try {
      return BrokerConfigReader.read(file, env);
    } catch (ConfigException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage(), e);
    }
  }

  /**
   * The node {@code config} describes, as a restore target: its data directory (relative paths
   * against the working directory), cluster id, node id, the cluster's shape (members, partition
   * count, replication factor) and this build's broker version.
   */
  public static RestoreTarget target(BrokerConfig config, CliContext context) {
    try {
      return ApiRestore.target(
          config, context.resolve(config.data().directory()), BrokerVersion.current());
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage(), e);
    }
  }
}
