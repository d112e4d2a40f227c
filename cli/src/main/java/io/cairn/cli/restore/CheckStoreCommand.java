package io.cairn.cli.restore;

import io.cairn.backups3.S3BackupStoreConfig;
import io.cairn.backups3.S3StoreCheck;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.cli.CairnMain;
import io.cairn.cli.CliContext;
import io.cairn.cli.CliException;
import io.cairn.cli.ClientCommand;
import io.cairn.cli.ExitCode;
import io.cairn.cli.output.Table;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cairn backup check-store --config broker.yaml}: is the S3 store fit to hold backups? */
@Command(
    name = "check-store",
    description = {
      "Checks the S3-compatible store a broker's configuration names against what Cairn relies on:"
          + " write and read back, overwrite, a multipart upload read by a range, conditional"
          + " writes, a listing across pages, delete, concurrent writers. It writes and removes"
          + " a few objects under <basePath>/.cairn/.",
      "Prints each check with PASS, WORKED_AROUND (the server lacks it; Cairn copes) or FAIL and"
          + " the setting that fixes it. Exit 0 when the store can hold backups safely, 1 when a"
          + " check failed."
    })
public final class CheckStoreCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(
      names = "--config",
      required = true,
      paramLabel = "file",
      description = "A broker's YAML configuration: its backup.s3.* settings name the store.")
  Path config;

  @Override
  public Integer call() {
    CairnMain root = ClientCommand.root(spec);
    CliContext context = root.context();
    Path file = context.resolve(config);
    BrokerConfig brokerConfig = RestoreInputs.readConfig(file, context.env(), "--config");
    S3BackupStoreConfig s3 =
        brokerConfig
            .backup()
            .s3()
            .orElseThrow(
                () ->
                    new CliException(
                        ExitCode.USAGE,
                        "Expected backup.store: s3 in "
                            + file
                            + " (check-store checks an S3-compatible store), but backup.store is "
                            + brokerConfig
                                .backup()
                                .store()
                                .name()
                                .toLowerCase(java.util.Locale.ROOT)));
    S3StoreCheck.Report report = S3StoreCheck.run(s3, context.clock());
    root.printer().result(document(report), out -> print(report, out));
    return report.safe() ? ExitCode.OK : ExitCode.FAILED;
  }

  private static Map<String, Object> document(S3StoreCheck.Report report) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("store", report.location());
    doc.put("safe", report.safe());
    List<Map<String, Object>> checks =
        report.checks().stream()
            .map(
                check -> {
                  Map<String, Object> entry = new LinkedHashMap<>();
                  entry.put("check", check.name());
                  entry.put("result", check.outcome().name());
                  entry.put("detail", check.detail());
                  if (!check.fix().isEmpty()) {
                    entry.put("fix", check.fix());
                  }
                  return entry;
                })
            .toList();
    doc.put("checks", checks);
    return doc;
  }

  private static void print(S3StoreCheck.Report report, java.io.PrintStream out) {
    out.println("Store " + report.location());
    Table table = Table.of("check", "result", "detail", "fix");
    report
        .checks()
        .forEach(
            check ->
                table.row(
                    check.name(),
                    check.outcome().name(),
                    check.detail(),
                    check.fix().isEmpty() ? "-" : check.fix()));
    table.print(out);
    out.println();
    out.println(
        report.safe()
            ? "Verdict: the store can hold backups."
            : "Verdict: the store cannot hold backups safely; set what the FIX column names, or use"
                + " another server.");
  }
}
