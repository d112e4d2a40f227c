package io.cairn.cli.demo;

import io.cairn.cli.Formats;
import io.cairn.cli.admin.BackupCommand;
import io.cairn.cli.load.LoadCommand;
import io.cairn.cli.load.LoadResults;
import io.cairn.cli.output.Table;
import io.cairn.cli.restore.RestoreReports;
import io.cairn.client.BackupInfo;
import io.cairn.client.BackupState;
import io.cairn.client.PartitionBackupInfo;
import io.cairn.restore.RestoreResult;
import io.cairn.restore.VerifyReport;
import io.cairn.units.Durations;
import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything the demo reports at the end, as a table or one JSON document. */
final class DemoSummary {
  final String dir;
  final String gateway;
  List<DemoCommand.Step> steps = List.of();
  LoadResults.Funding funding;
  LoadResults.Transfers transfers;
  LoadResults.Conservation conservation;
  BackupInfo backup;
  long backupMs;
  boolean backupDuringLoad;
  VerifyReport verify;
  String restoredDir;
  List<RestoreResult> restored;
  long restoreMs;
  LoadResults.Conservation restoredConservation;

  /** The restored cluster's console, when it keeps running ({@code --keep-running}). */
  String console;

  /** The admin API key to sign in to the console with, when secured. */
  String consoleKeyFile;

  String result = "failed";

  DemoSummary(String dir, String gateway) {
    this.dir = dir;
    this.gateway = gateway;
  }

  /**
   * The verdict: the backup COMPLETED, the money is conserved, the backup verifies (files and
   * digests), and the restored cluster holds every account with the money conserved.
   */
  boolean ok() {
    return backup != null
        && backup.state() == BackupState.COMPLETED
        && conservation != null
        && conservation.conserved()
        && verify != null
        && verify.isClean()
        && restored != null
        && restoredConservation != null
        && restoredConservation.conserved();
  }

  private long backupBytes() {
    return backup == null
        ? 0
        : backup.partitions().stream().mapToLong(PartitionBackupInfo::sizeBytes).sum();
  }

  Map<String, Object> document() {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("result", result);
    doc.put("dir", dir);
    doc.put("steps", steps);
    doc.put("funding", funding);
    doc.put("transfers", transfers);
    doc.put("backup", backup);
    doc.put("backupMs", backupMs);
    doc.put("backupDuringLoad", backupDuringLoad);
    doc.put("conservation", conservation);
    doc.put("verify", verify == null ? null : RestoreReports.verifyDocument(verify));
    Map<String, Object> restore = new LinkedHashMap<>();
    restore.put("dir", restoredDir);
    restore.put("backupBytes", backupBytes());
    restore.put(
        "result",
        restored == null
            ? null
            : RestoreReports.restoreDocument(restored, Duration.ofMillis(restoreMs)));
    restore.put("conservation", restoredConservation);
    doc.put("restore", restore);
    if (console != null) {
      doc.put("console", console);
      doc.put("consoleKeyFile", consoleKeyFile);
    }
    return doc;
  }

  void print(PrintStream out) {
    out.println("Cairn demo: " + result + " (cluster directory " + dir + ")");
    out.println();
    Table table = Table.of("step", "time", "outcome");
    for (DemoCommand.Step step : steps) {
      table.row(
          step.name(),
          Durations.formatRounded(Duration.ofMillis(step.elapsedMs())),
          step.outcome());
    }
    table.print(out);
    if (transfers != null && funding != null && conservation != null) {
      out.println();
      LoadCommand.print(new LoadResults.Report(null, funding, transfers, conservation), out);
    }
    if (backup != null) {
      out.println();
      out.println(
          "Backup "
              + backup.backupId()
              + " taken under load: "
              + backup.state()
              + " after "
              + Durations.formatRounded(Duration.ofMillis(backupMs))
              + (backupDuringLoad ? " (the load was still running)" : ""));
      BackupCommand.printStatus(backup, out);
    }
    if (verify != null) {
      out.println();
      RestoreReports.printVerify(verify, out);
    }
    if (restored != null) {
      out.println();
      long bytes = restored.stream().mapToLong(RestoreResult::totalBytes).sum();
      out.println(
          "Restore: backup "
              + restored.get(0).backupId()
              + " ("
              + Formats.bytes(backupBytes())
              + ") restored into "
              + restored.size()
              + " brokers ("
              + Formats.bytes(bytes)
              + " written) in "
              + Durations.formatRounded(Duration.ofMillis(restoreMs))
              + ", in "
              + restoredDir);
    }
    if (restoredConservation != null) {
      out.println(
          "Restored cluster: every one of "
              + (funding == null ? "?" : Integer.toString(funding.accounts()))
              + " accounts present; money "
              + (restoredConservation.conserved() ? "conserved" : "NOT conserved")
              + ": sum of"
              + " balances "
              + restoredConservation.actual()
              + ", deposited "
              + restoredConservation.expected()
              + ".");
    }
    if (console != null) {
      out.println();
      out.println("The restored cluster keeps running. Web console: " + console);
      if (consoleKeyFile != null) {
        out.println(
            "Sign in with: ApiKey <the key in "
                + consoleKeyFile
                + "> (the browser will warn"
                + " about the demo's own CA)");
      }
      out.println("Stop it with: cairn cluster down --dir " + restoredDir);
    }
  }
}
