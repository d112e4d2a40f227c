package io.cairn.cli.admin;

import io.cairn.cli.ClientCommand;
import io.cairn.cli.ExitCode;
import io.cairn.cli.Formats;
import io.cairn.cli.output.Printer;
import io.cairn.cli.output.Table;
import io.cairn.cli.restore.CheckStoreCommand;
import io.cairn.cli.restore.VerifyCommand;
import io.cairn.client.BackupInfo;
import io.cairn.client.BackupState;
import io.cairn.client.BackupTaken;
import io.cairn.client.CairnClient;
import io.cairn.client.PartitionBackupInfo;
import io.cairn.client.PartitionCheckpoint;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cairn backup
 * take|status|list|delete|schedule|restore|restore-status|restore-points|verify|check-store}.
 */
@Command(
    name = "backup",
    description =
        "Takes, inspects, lists and deletes backups of the whole cluster; restores a cluster"
            + " started in restore mode; verifies a backup without a cluster.",
    subcommands = {
      BackupCommand.Take.class,
      BackupCommand.Status.class,
      BackupCommand.ListBackups.class,
      BackupCommand.Delete.class,
      BackupScheduleCommand.class,
      RestoreApiCommand.Start.class,
      RestoreApiCommand.Status.class,
      RestoreApiCommand.Points.class,
      VerifyCommand.class,
      CheckStoreCommand.class
    })
public final class BackupCommand implements Runnable {

  @Spec private CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(),
        "Expected one of take, status, list, delete, schedule, restore, restore-status,"
            + " restore-points, verify, check-store, but got none");
  }

  @Command(
      name = "take",
      description = {
        "Takes backup <id> on every partition. Ids are positive and strictly increasing:"
            + " a lower or equal id exits with 5.",
        "With --wait, shows each partition's progress (stderr) until the backup is COMPLETED"
            + " (exit 0) or FAILED (exit 1)."
      })
  static final class Take extends ClientCommand {
    @Parameters(index = "0", paramLabel = "<id>", description = "The backup id, >= 1.")
    long backupId;

    @Option(names = "--wait", description = "Wait until COMPLETED or FAILED.")
    boolean await;

    @Option(
        names = "--timeout",
        paramLabel = "duration",
        description = "With --wait: the longest wait (default: 5m).")
    Duration timeout = Duration.ofMinutes(5);

    @Option(
        names = "--poll-interval",
        paramLabel = "duration",
        description = "With --wait: time between status polls (default: 500ms).")
    Duration pollInterval = Duration.ofMillis(500);

    @Override
    protected void validate() {
      checkRange("<id>", backupId, 1, Long.MAX_VALUE);
      checkDuration("--timeout", timeout, Duration.ofSeconds(1), Duration.ofHours(24));
      checkDuration("--poll-interval", pollInterval, Duration.ofMillis(10), Duration.ofMinutes(1));
    }

    @Override
    protected int run(CairnClient client, Printer printer) {
      BackupTaken taken = client.takeBackup(backupId);
      if (!await) {
        printer.result(taken, out -> printTaken(taken, out));
        return ExitCode.OK;
      }
      printer.progress(
          "backup "
              + backupId
              + " taken on "
              + taken.partitions().size()
              + " partitions; waiting for it to complete");
      BackupInfo info =
          new BackupProgress(client, root().context().clock(), pollInterval, printer::progress)
              .await(backupId, taken.partitions().size(), timeout);
      printer.result(info, out -> printStatus(info, out));
      return info.state() == BackupState.COMPLETED ? ExitCode.OK : ExitCode.FAILED;
    }
  }

  @Command(
      name = "status",
      description =
          "Shows backup <id>: its cluster state and one line per partition (exit 4 if"
              + " no partition has it).")
  static final class Status extends ClientCommand {
    @Parameters(index = "0", paramLabel = "<id>")
    long backupId;

    @Override
    protected void validate() {
      checkRange("<id>", backupId, 1, Long.MAX_VALUE);
    }

    @Override
    protected int run(CairnClient client, Printer printer) {
      BackupInfo info = client.getBackup(backupId);
      printer.result(info, out -> printStatus(info, out));
      return ExitCode.OK;
    }
  }

  @Command(name = "list", description = "Lists every backup, newest first.")
  static final class ListBackups extends ClientCommand {
    @Override
    protected int run(CairnClient client, Printer printer) {
      List<BackupInfo> backups = client.listAllBackups();
      printer.result(
          Map.of("backups", backups),
          out -> {
            Table table = Table.of("backup", "state", "partitions", "size", "created", "failure");
            for (BackupInfo info : backups) {
              table.row(
                  info.backupId(),
                  info.state(),
                  completedOf(info),
                  Formats.bytes(
                      info.partitions().stream().mapToLong(PartitionBackupInfo::sizeBytes).sum()),
                  Formats.instant(
                      info.partitions().stream()
                          .map(PartitionBackupInfo::createdAt)
                          .filter(java.util.Objects::nonNull)
                          .min(Comparator.naturalOrder())
                          .orElse(null)),
                  Formats.text(info.failureReason()));
            }
            if (table.rowCount() == 0) {
              out.println("No backups.");
            } else {
              table.print(out);
            }
          });
      return ExitCode.OK;
    }
  }

  @Command(
      name = "delete",
      description = "Deletes backup <id> on every partition (exit 5 while it is in progress).")
  static final class Delete extends ClientCommand {
    @Parameters(index = "0", paramLabel = "<id>")
    long backupId;

    @Override
    protected void validate() {
      checkRange("<id>", backupId, 1, Long.MAX_VALUE);
    }

    @Override
    protected int run(CairnClient client, Printer printer) {
      client.deleteBackup(backupId);
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("backupId", backupId);
      result.put("deleted", true);
      printer.result(result, out -> out.println("Deleted backup " + backupId + "."));
      return ExitCode.OK;
    }
  }

  static void printTaken(BackupTaken taken, PrintStream out) {
    out.println("Backup " + taken.backupId() + " taken.");
    Table table = Table.of("partition", "created", "checkpoint", "checkpoint position");
    taken.partitions().stream()
        .sorted(Comparator.comparingInt(PartitionCheckpoint::partitionId))
        .forEach(
            p ->
                table.row(
                    p.partitionId(),
                    p.created() ? "yes" : "no (had it)",
                    p.checkpointId(),
                    p.checkpointPosition()));
    table.print(out);
  }

  /** The status of one backup: a summary line and one row per partition. */
  public static void printStatus(BackupInfo info, PrintStream out) {
    long size = info.partitions().stream().mapToLong(PartitionBackupInfo::sizeBytes).sum();
    Table.of("backup", "state", "partitions", "size", "failure")
        .row(
            info.backupId(),
            info.state(),
            completedOf(info),
            Formats.bytes(size),
            Formats.text(info.failureReason()))
        .print(out);
    out.println();
    Table partitions =
        Table.of(
            "partition",
            "state",
            "node",
            "checkpoint position",
            "snapshot",
            "files",
            "size",
            "digest",
            "updated",
            "failure");
    info.partitions().stream()
        .sorted(Comparator.comparingInt(PartitionBackupInfo::partitionId))
        .forEach(
            p ->
                partitions.row(
                    p.partitionId(),
                    p.state(),
                    p.nodeId(),
                    p.checkpointPosition(),
                    Formats.text(p.snapshotId()),
                    p.fileCount(),
                    Formats.bytes(p.sizeBytes()),
                    Formats.digest(p.stateDigest()),
                    Formats.instant(p.lastUpdatedAt()),
                    Formats.text(p.failureReason())));
    partitions.print(out);
  }

  private static String completedOf(BackupInfo info) {
    long completed =
        info.partitions().stream().filter(p -> p.state() == BackupState.COMPLETED).count();
    return completed + "/" + info.partitions().size() + " completed";
  }
}
