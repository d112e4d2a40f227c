package io.cairn.cli.restore;

import io.cairn.broker.config.BrokerConfig;
import io.cairn.cli.CairnMain;
import io.cairn.cli.CliContext;
import io.cairn.cli.ClientCommand;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.RestoreResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cairn restore --backup-id N|latest | --to-checkpoint N | --to-time T --config
 * broker.yaml}: restores one node's data directory from a backup, or from a backup and the log
 * archive up to a restore point, offline.
 */
@Command(
    name = "restore",
    description = {
      "Restores one broker's data directory from a backup, offline (the broker must not run):"
          + " reads the broker's configuration (data.directory, cluster.*, backup.*), opens its"
          + " backup store, and for every partition the node hosts downloads the partition's"
          + " completed backup (from whichever node took it), checks every file's size and"
          + " CRC32C, installs the snapshot and the log cut at the checkpoint.",
      "With --to-checkpoint or --to-time it goes to a restore point of the log archive instead:"
          + " the newest backup at or before it, its log continued from the archive up to the"
          + " point's checkpoint; the restored leader checks the state digest recorded there.",
      "The data directory must be empty or absent; on any failure it is left empty again, so"
          + " the command can simply be rerun. Progress per partition on stderr (JSON events"
          + " with --output json).",
      "With --allow-partial, a partition none of whose copies verifies (a file corrupted or"
          + " missing in every copy) is skipped and reported, the others are restored; the"
          + " skipped partition starts without data: from its other replicas if one holds it,"
          + " else empty.",
      "Exit codes here: 0 every partition restored, 1 some partitions skipped (--allow-partial),"
          + " 4 no such backup, 5 the directory is not empty or the backup does not fit"
          + " (partition count, broker version), 1 not completed, corrupted or failed."
    })
public final class RestoreCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @ArgGroup(exclusive = true, multiplicity = "1")
  RestoreSelection selection;

  @Option(
      names = "--config",
      required = true,
      paramLabel = "file",
      description = "The broker's YAML configuration (CAIRN_* variables apply as for the broker).")
  Path config;

  @Option(
      names = "--allow-partial",
      description =
          "Restore the partitions that verify and skip (and report) those that do not;"
              + " exit 1 if any was skipped. Refusals of the whole backup still refuse everything.")
  boolean allowPartial;

  @Override
  public Integer call() {
    CairnMain root = ClientCommand.root(spec);
    CliContext context = root.context();
    BackupSelector selector = selection.selector(spec);
    Path file = context.resolve(config);
    BrokerConfig brokerConfig = RestoreInputs.readConfig(file, context.env(), "--config");
    long started = context.clock().nanos();
    RestoreResult result =
        BackupOperations.restoreNode(
            brokerConfig,
            file.toString(),
            selector,
            new RestoreProgressReporter(root.printer(), context.clock(), "restore"),
            allowPartial,
            context);
    Duration took = Duration.ofNanos(context.clock().nanos() - started);
    root.printer()
        .result(
            RestoreReports.restoreDocument(List.of(result), took),
            out -> RestoreReports.printRestore(List.of(result), took, out));
    return RestoreReports.exitCode(List.of(result));
  }
}
