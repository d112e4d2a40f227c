package io.cairn.cli.admin;

import io.cairn.cli.ClientCommand;
import io.cairn.cli.ExitCode;
import io.cairn.cli.Formats;
import io.cairn.cli.output.Printer;
import io.cairn.cli.output.Table;
import io.cairn.client.BackupSchedule;
import io.cairn.client.CairnClient;
import io.cairn.units.Durations;
import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code cairn backup schedule status}. */
@Command(
    name = "schedule",
    description = "The backup schedule (backup.schedule.interval on the brokers).",
    subcommands = {BackupScheduleCommand.Status.class})
public final class BackupScheduleCommand implements Runnable {

  @Spec private CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Expected status, but got none");
  }

  @Command(
      name = "status",
      description = {
        "Shows the schedule as the broker running it (the leader of partition 1) reports it:"
            + " the interval, when the next backup is due and its id, and how the last run went.",
        "Exit 5 when the brokers have no schedule."
      })
  static final class Status extends ClientCommand {
    @Override
    protected int run(CairnClient client, Printer printer) {
      BackupSchedule schedule = client.backupSchedule();
      printer.result(
          schedule,
          out -> {
            Table.of("schedule", "next run", "next backup", "node", "failures in a row")
                .row(
                    schedule.cron().isEmpty()
                        ? "every " + Durations.formatExact(schedule.interval())
                        : "cron '" + schedule.cron() + "' (UTC)",
                    Formats.instant(schedule.nextRunAt()),
                    schedule.nextBackupId(),
                    schedule.nodeId(),
                    schedule.consecutiveFailures())
                .print(out);
            out.println();
            printRetention(schedule.retention(), out);
            printMarkers(schedule.markers(), out);
            if (schedule.lastRunIfAny().isEmpty()) {
              out.println("No run yet on node " + schedule.nodeId() + ".");
              return;
            }
            BackupSchedule.ScheduledRun run = schedule.lastRun();
            Table.of(
                    "last backup",
                    "outcome",
                    "backup state",
                    "attempt",
                    "started",
                    "finished",
                    "detail")
                .row(
                    run.backupId(),
                    run.outcome(),
                    run.backupState(),
                    run.attempt(),
                    Formats.instant(run.startedAt()),
                    Formats.instant(run.finishedAt()),
                    Formats.text(run.detail()))
                .print(out);
            out.println();
            out.println("cairn backup status " + run.backupId() + " shows that backup's progress.");
          });
      return ExitCode.OK;
    }
  }

  private static void printMarkers(BackupSchedule.Markers markers, PrintStream out) {
    if (markers == null) {
      return;
    }
    BackupSchedule.MarkerRun last = markers.lastMarker();
    Table.of("markers every", "last marker", "outcome", "finished", "failures in a row")
        .row(
            Durations.formatExact(markers.interval()),
            last != null ? last.markerId() : "-",
            last != null ? last.outcome() : "-",
            last != null ? Formats.instant(last.finishedAt()) : "-",
            markers.failuresInARow())
        .print(out);
    if (last != null && !last.detail().isEmpty()) {
      out.println("Last marker failed: " + last.detail());
    }
    out.println();
  }

  private static void printRetention(BackupSchedule.Retention retention, PrintStream out) {
    if (retention == null) {
      out.println("No retention: every backup is kept (backup.retention.* is not set).");
      out.println();
      return;
    }
    BackupSchedule.RetentionPass pass = retention.lastPass();
    Table.of("keep at most", "keep younger than", "keep at least", "last pass", "kept", "deleted")
        .row(
            retention.maxCount() > 0 ? retention.maxCount() : "-",
            retention.maxAge() != null ? Durations.formatExact(retention.maxAge()) : "-",
            retention.minCount(),
            pass != null ? Formats.instant(pass.finishedAt()) : "-",
            pass != null ? pass.kept() : "-",
            pass != null ? pass.deletedBackupIds().toString() : "-")
        .print(out);
    if (pass != null && !pass.failure().isEmpty()) {
      out.println("Last retention pass failed: " + pass.failure());
    }
    if (pass != null) {
      for (BackupSchedule.LockedBackup locked : pass.lockedBackups()) {
        out.println(
            "Backup "
                + locked.backupId()
                + " is due for deletion but locked by the store until "
                + Formats.instant(locked.lockedUntil())
                + "; the first pass after that deletes it.");
      }
    }
    out.println();
  }
}
