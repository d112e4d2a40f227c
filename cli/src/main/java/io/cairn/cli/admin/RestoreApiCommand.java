package io.cairn.cli.admin;

import io.cairn.cli.CliException;
import io.cairn.cli.ClientCommand;
import io.cairn.cli.ExitCode;
import io.cairn.cli.Formats;
import io.cairn.cli.Pause;
import io.cairn.cli.output.Printer;
import io.cairn.cli.output.Table;
import io.cairn.cli.restore.RestoreSelection;
import io.cairn.client.CairnClient;
import io.cairn.client.CairnClientException;
import io.cairn.client.ErrorCode;
import io.cairn.client.RestoreFrom;
import io.cairn.client.RestorePoint;
import io.cairn.client.RestoreStatus;
import io.cairn.restore.BackupSelector;
import io.cairn.scheduler.Clock;
import io.cairn.units.Durations;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cairn backup restore}, {@code cairn backup restore-status} and {@code cairn backup
 * restore-points}: a restore through the gateway's API of a cluster started empty with {@code
 * data.restoreMode}, and the restore points to choose from (the offline restore of a node's
 * directory is {@code cairn restore}).
 */
public final class RestoreApiCommand {

  private RestoreApiCommand() {}

  @Command(
      name = "restore",
      description = {
        "Restores a cluster whose brokers were started with empty data directories and"
            + " data.restoreMode: true, through the gateway: every broker restores the partitions"
            + " it hosts from the backup store, starts them, and each partition's leader checks"
            + " the state digest at the restored checkpoint.",
        "Exit 5 when a broker holds data or restores already, or the selection cannot be"
            + " restored. With --wait, shows each partition's progress (stderr) until the restore"
            + " is COMPLETED (exit 0) or FAILED (exit 1)."
      })
  static final class Start extends ClientCommand {
    @Spec CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    RestoreSelection selection;

    @Option(names = "--wait", description = "Wait until COMPLETED or FAILED.")
    boolean await;

    @Option(
        names = "--timeout",
        paramLabel = "duration",
        description = "With --wait: the longest wait (default: 1h).")
    Duration timeout = Duration.ofHours(1);

    @Option(
        names = "--poll-interval",
        paramLabel = "duration",
        description = "With --wait: time between status polls (default: 1s).")
    Duration pollInterval = Duration.ofSeconds(1);

    @Override
    protected void validate() {
      checkDuration("--timeout", timeout, Duration.ofSeconds(1), Duration.ofDays(7));
      checkDuration("--poll-interval", pollInterval, Duration.ofMillis(10), Duration.ofMinutes(1));
      from(selection.selector(spec));
    }

    @Override
    protected int run(CairnClient client, Printer printer) {
      RestoreFrom from = from(selection.selector(spec));
      RestoreStatus started = client.restore(from);
      if (!await) {
        printer.result(started, out -> print(started, out));
        return ExitCode.OK;
      }
      printer.progress("restore of " + started.selection() + " started; waiting for it to end");
      RestoreStatus done = follow(client, printer, root().context().clock(), timeout, pollInterval);
      printer.result(done, out -> print(done, out));
      return done.state().equals("COMPLETED") ? ExitCode.OK : ExitCode.FAILED;
    }
  }

  @Command(
      name = "restore-status",
      description =
          "Shows how a restore through the API stands: the cluster's state, each broker's phase"
              + " and each partition's progress (phase, bytes, rate, ETA).")
  static final class Status extends ClientCommand {
    @Override
    protected int run(CairnClient client, Printer printer) {
      RestoreStatus status = client.restoreStatus();
      printer.result(status, out -> print(status, out));
      return ExitCode.OK;
    }
  }

  @Command(
      name = "restore-points",
      description = {
        "Lists the newest restore points of the log archive, newest first: checkpoint id, when it"
            + " was taken, and whether it is restorable (recorded and archived on every"
            + " partition) or why not. Restore to one with --to-checkpoint (this command's"
            + " `backup restore`, or `cairn restore` offline); a restore also needs a backup"
            + " COMPLETED at or below it.",
        "Works while the brokers wait in restore mode too."
      })
  static final class Points extends ClientCommand {
    @Option(
        names = "--limit",
        paramLabel = "n",
        description = "The most points to list, 1..1000 (default: 20).")
    int limit = 20;

    @Override
    protected void validate() {
      checkRange("--limit", limit, 1, 1000);
    }

    @Override
    protected int run(CairnClient client, Printer printer) {
      List<RestorePoint> points = client.restorePoints(limit);
      printer.result(
          points,
          out -> {
            if (points.isEmpty()) {
              out.println(
                  "No restore points: the log archive is off (backup.archive.enabled) or holds"
                      + " none yet.");
              return;
            }
            Table table = Table.of("checkpoint", "taken at", "restorable", "detail");
            for (RestorePoint p : points) {
              table.row(
                  p.checkpointId(),
                  Formats.instant(p.takenAt()),
                  p.restorable() ? "yes" : "no",
                  Formats.text(p.detail()));
            }
            table.print(out);
          });
      return ExitCode.OK;
    }
  }

  static RestoreFrom from(BackupSelector selector) {
    if (selector instanceof BackupSelector.Exact exact) {
      return RestoreFrom.backup(exact.backupId());
    }
    if (selector instanceof BackupSelector.ToCheckpoint point) {
      return RestoreFrom.checkpoint(point.checkpointId());
    }
    if (selector instanceof BackupSelector.ToTime time) {
      return RestoreFrom.time(time.time());
    }
    return RestoreFrom.latest();
  }

  private static RestoreStatus follow(
      CairnClient client, Printer printer, Clock clock, Duration timeout, Duration pollInterval) {
    long deadline = clock.nanos() + timeout.toNanos();
    String last = "";
    RestoreStatus status = null;
    while (true) {
      try {
        status = client.restoreStatus();
        String line = describe(status);
        if (!line.equals(last)) {
          printer.progress(line);
          last = line;
        }
        if (status.isDone()) {
          return status;
        }
      } catch (CairnClientException e) {
        if (e.code() != ErrorCode.UNAVAILABLE && e.code() != ErrorCode.DEADLINE_EXCEEDED) {
          throw e;
        }
      }
      if (clock.nanos() - deadline >= 0) {
        throw new CliException(
            ExitCode.FAILED,
            "Expected the restore to be COMPLETED or FAILED within "
                + Durations.formatRounded(timeout)
                + ", but it is "
                + (status == null ? "unknown" : status.state())
                + ". Check again with: cairn backup restore-status");
      }
      Pause.of(pollInterval);
    }
  }

  /** One progress line: {@code restore IN_PROGRESS backup 5: p1 DOWNLOADING 45% ETA 3s, ...}. */
  static String describe(RestoreStatus status) {
    return "restore "
        + status.state()
        + " "
        + status.selection()
        + ": "
        + status.partitions().stream()
            .map(
                p ->
                    "p"
                        + p.partitionId()
                        + "@"
                        + p.nodeId()
                        + " "
                        + p.phase()
                        + (p.phase().equals("DOWNLOADING") && p.bytesTotal() > 0
                            ? " " + (100 * p.bytesDone() / p.bytesTotal()) + "%"
                            : "")
                        + p.etaIfKnown().map(eta -> " ETA " + eta.toSeconds() + "s").orElse(""))
            .collect(Collectors.joining(", "));
  }

  private static void print(RestoreStatus status, PrintStream out) {
    out.println(
        "Restore "
            + status.state()
            + (status.selection().isEmpty() ? "" : ": " + status.selection())
            + (status.backupId() > 0 ? " (backup " + status.backupId() : "")
            + (status.restorePointId() > 0 ? ", restore point " + status.restorePointId() : "")
            + (status.backupId() > 0 ? ")" : ""));
    out.println();
    Table brokers = Table.of("node", "phase", "detail");
    status.brokers().forEach(b -> brokers.row(b.nodeId(), b.phase(), Formats.text(b.detail())));
    brokers.print(out);
    if (status.partitions().isEmpty()) {
      return;
    }
    out.println();
    Table partitions =
        Table.of("partition", "node", "phase", "done", "total", "rate", "ETA", "detail");
    for (RestoreStatus.Partition p : status.partitions()) {
      partitions.row(
          p.partitionId(),
          p.nodeId(),
          p.phase(),
          Formats.bytes(p.bytesDone()),
          Formats.bytes(p.bytesTotal()),
          Formats.bytes(p.bytesPerSecond()) + "/s",
          p.etaIfKnown().map(Durations::formatRounded).orElse("-"),
          Formats.text(p.detail()));
    }
    partitions.print(out);
  }
}
