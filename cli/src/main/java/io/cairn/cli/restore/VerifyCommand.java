package io.cairn.cli.restore;

import io.cairn.broker.config.BrokerConfig;
import io.cairn.cli.CairnMain;
import io.cairn.cli.CliContext;
import io.cairn.cli.ClientCommand;
import io.cairn.cli.ExitCode;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.VerifyReport;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cairn backup verify <id|latest> --config broker.yaml [--quick]}: no cluster needed. */
@Command(
    name = "verify",
    description = {
      "Verifies a backup without a cluster, in the backup store a broker's configuration names:"
          + " downloads every partition into a scratch directory, checks every file's size and"
          + " CRC32C, rebuilds every partition's state (snapshot + replay up to the checkpoint)"
          + " and compares its digest with the one the backup recorded. --quick checks the"
          + " stored files only.",
      "Prints per partition: files checked, bytes, checksum result, expected and actual digest;"
          + " then a verdict. Exit 0 only when everything matches, 1 when something does not,"
          + " 4 no such backup."
    })
public final class VerifyCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "<id|latest>",
      description = "The backup (or give --backup-id, --to-checkpoint or --to-time instead).")
  String backupId;

  @Option(
      names = "--backup-id",
      paramLabel = "id|latest",
      description =
          "The backup, as <id|latest>: the words of 'cairn restore', so that one selection fits"
              + " both.")
  String backupIdOption;

  @Option(
      names = "--to-checkpoint",
      paramLabel = "id",
      description =
          "Verify a restore point of the log archive: the newest backup at or before it, continued"
              + " from the archive to the point, its state digest checked there.")
  String toCheckpoint;

  @Option(
      names = "--to-time",
      paramLabel = "instant",
      description =
          "Verify the newest restore point taken at or before this time on every partition.")
  String toTime;

  @Option(
      names = "--config",
      required = true,
      paramLabel = "file",
      description = "A broker's YAML configuration: its backup.* settings name the store.")
  Path config;

  @Option(names = "--quick", description = "Check the stored files only (no download, no rebuild).")
  boolean quick;

  @Option(
      names = "--scratch-dir",
      paramLabel = "dir",
      description =
          "Where partitions are downloaded and rebuilt; empty or absent (default: a"
              + " temporary directory, removed afterwards).")
  Path scratchDir;

  private BackupSelector selector() {
    int given =
        (backupId != null ? 1 : 0)
            + (backupIdOption != null ? 1 : 0)
            + (toCheckpoint != null ? 1 : 0)
            + (toTime != null ? 1 : 0);
    if (given != 1) {
      throw new ParameterException(
          spec.commandLine(),
          "Expected one of <id|latest>, --backup-id, --to-checkpoint or --to-time, but "
              + (given == 0 ? "none was given" : given + " were given"));
    }
    if (backupId != null) {
      return RestoreInputs.selector(spec, "<id|latest>", backupId);
    }
    if (backupIdOption != null) {
      return RestoreInputs.selector(spec, "--backup-id", backupIdOption);
    }
    RestoreSelection point = new RestoreSelection();
    point.toCheckpoint = toCheckpoint;
    point.toTime = toTime;
    return point.selector(spec);
  }

  @Override
  public Integer call() {
    CairnMain root = ClientCommand.root(spec);
    CliContext context = root.context();
    BackupSelector selector = selector();
    Path file = context.resolve(config);
    BrokerConfig brokerConfig = RestoreInputs.readConfig(file, context.env(), "--config");
    VerifyReport report =
        BackupOperations.verify(
            brokerConfig,
            file.toString(),
            selector,
            scratchDir == null ? null : context.resolve(scratchDir),
            quick,
            new RestoreProgressReporter(root.printer(), context.clock(), "verify"),
            context);
    root.printer()
        .result(
            RestoreReports.verifyDocument(report), out -> RestoreReports.printVerify(report, out));
    return report.isClean() ? ExitCode.OK : ExitCode.FAILED;
  }
}
