package io.cairn.cli.load;

import io.cairn.cli.ClientCommand;
import io.cairn.cli.ExitCode;
import io.cairn.cli.output.Printer;
import io.cairn.cli.output.Table;
import io.cairn.client.CairnClient;
import io.cairn.client.RetryPolicy;
import io.cairn.units.Durations;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cairn load --rate R --accounts N --duration D}: funds N accounts, sends random transfers
 * at R per second for D, prints throughput and latency percentiles, and exits 0 only if the money
 * is conserved.
 */
@Command(
    name = "load",
    description = {
      "Creates and funds accounts, sends random transfers at a fixed rate with a bounded number in"
          + " flight, for a wall-clock duration; prints throughput and latency percentiles (p50,"
          + " p90, p99, max) from each transfer's due time (so falling behind shows) and from"
          + " sending (retries included); counts acknowledged, rejected and failed transfers, and"
          + " apart from them the transfers the client sent again after RESOURCE_EXHAUSTED"
          + " (nothing written: safe to resend) and its resends; prints its own CPU time per"
          + " acknowledged transfer; then reads every balance and checks that the money is"
          + " conserved.",
      "Exit code 0 only if the money is conserved (1 if not; 3 if no transfer was acknowledged)."
    })
public final class LoadCommand extends ClientCommand {

  @Option(names = "--rate", paramLabel = "n", description = "Transfers per second (default: 100).")
  int rate = 100;

  @Option(names = "--accounts", paramLabel = "n", description = "Accounts (default: 100).")
  int accounts = 100;

  @Option(
      names = "--duration",
      paramLabel = "duration",
      description = "How long to send transfers, e.g. 30s (default: 30s).")
  Duration duration = Duration.ofSeconds(30);

  @Option(
      names = "--max-in-flight",
      paramLabel = "n",
      description = "Unanswered calls at most (default: 64).")
  int maxInFlight = 64;

  @Option(
      names = "--initial-balance",
      paramLabel = "amount",
      description = "Each account's deposit (default: 1000000).")
  long initialBalance = 1_000_000;

  @Option(
      names = "--max-amount",
      paramLabel = "amount",
      description = "Largest transfer; amounts are uniform in [1, this] (default: 100).")
  long maxAmount = 100;

  @Option(
      names = "--seed",
      paramLabel = "n",
      description = "Seed of the transfer choice (default: from the clock; printed).")
  Long seed;

  @Option(
      names = "--account-prefix",
      paramLabel = "text",
      description = "Account ids are <prefix><index> (default: load-<time>-, fresh per run).")
  String accountPrefix;

  @Option(
      names = "--settle-timeout",
      paramLabel = "duration",
      description =
          "Longest wait for cross-partition credits before the money check fails"
              + " (default: 30s).")
  Duration settleTimeout = Duration.ofSeconds(30);

  @Option(
      names = "--retry-max-attempts",
      paramLabel = "n",
      description =
          "Sends of one call at most while the gateway answers RESOURCE_EXHAUSTED, with"
              + " backoff 10 ms .. 500 ms and full jitter, within --request-timeout; 1 = no retry"
              + " (default: "
              + RetryPolicy.DEFAULT_MAX_ATTEMPTS
              + ").")
  int retryMaxAttempts = RetryPolicy.DEFAULT_MAX_ATTEMPTS;

  private LoadSettings settings;

  @Override
  protected void validate() {
    long now = root().context().clock().millis();
    settings =
        new LoadSettings(
            rate,
            accounts,
            duration,
            maxInFlight,
            initialBalance,
            maxAmount,
            seed != null ? seed : root().context().clock().nanos(),
            accountPrefix != null ? accountPrefix : "load-" + Long.toString(now, 36) + "-",
            settleTimeout,
            retryMaxAttempts);
    List<String> violations = settings.violations();
    if (!violations.isEmpty()) {
      throw invalid(String.join("; ", violations));
    }
  }

  @Override
  protected RetryPolicy retryPolicy() {
    return settings.retryPolicy();
  }

  @Override
  protected int run(CairnClient client, Printer printer) {
    LoadResults.Report report =
        new LoadGenerator(client, settings, root().context().clock(), printer::progress).run();
    printer.result(report, out -> print(report, out));
    return exitCode(report);
  }

  /** 0 if conserved and something was acknowledged, 3 if nothing was, 1 if not conserved. */
  public static int exitCode(LoadResults.Report report) {
    if (!report.conservation().conserved()) {
      return ExitCode.FAILED;
    }
    if (report.transfers().sent() > 0 && report.transfers().acknowledged() == 0) {
      return ExitCode.UNAVAILABLE;
    }
    return ExitCode.OK;
  }

  /** The report as tables. */
  public static void print(LoadResults.Report report, PrintStream out) {
    LoadResults.Transfers t = report.transfers();
    LoadResults.Latency l = t.latency();
    if (report.settings() != null) {
      out.println(
          "Load: "
              + report.settings().accounts()
              + " accounts, "
              + report.settings().ratePerSecond()
              + " transfers/s for "
              + Durations.formatRounded(report.settings().duration())
              + ", seed "
              + report.settings().seed());
    }
    Table.of(
            "sent",
            "acknowledged",
            "rejected",
            "failed",
            "retried",
            "retries",
            "throughput/s",
            "elapsed")
        .row(
            t.sent(),
            t.acknowledged(),
            t.rejected(),
            t.failed(),
            t.retried(),
            t.retries(),
            String.format(Locale.ROOT, "%.1f", t.throughputPerSecond()),
            Durations.formatRounded(Duration.ofMillis(t.elapsedMs())))
        .print(out);
    out.println();
    LoadResults.Latency s = t.serviceLatency();
    Table.of("latency ms", "p50", "p90", "p99", "max")
        .row("from due time", ms(l.p50Ms()), ms(l.p90Ms()), ms(l.p99Ms()), ms(l.maxMs()))
        .row("from sending", ms(s.p50Ms()), ms(s.p90Ms()), ms(s.p99Ms()), ms(s.maxMs()))
        .print(out);
    if (!t.errors().isEmpty()) {
      out.println();
      Table errors = Table.of("error", "count");
      t.errors().forEach(errors::row);
      errors.print(out);
    }
    out.println();
    if (t.retried() > 0) {
      out.println(
          "Retried: transfers the gateway answered RESOURCE_EXHAUSTED (nothing written)"
              + " and the client sent again; each also counts by its last answer.");
    }
    if (t.generatorCpuMsPerAcknowledged() >= 0) {
      out.println(
          String.format(
              Locale.ROOT,
              "load generator CPU: %.3f ms per acknowledged request (%.0f ms in %s, every thread of"
                  + " this process)",
              t.generatorCpuMsPerAcknowledged(),
              t.generatorCpuMs(),
              Durations.formatRounded(Duration.ofMillis(t.elapsedMs()))));
    }
    LoadResults.Conservation c = report.conservation();
    out.println(
        (c.conserved() ? "Money conserved: " : "Money NOT conserved: ")
            + "sum of balances "
            + c.actual()
            + ", deposited "
            + c.expected()
            + ".");
  }

  private static String ms(double value) {
    return String.format(Locale.ROOT, "%.2f", value);
  }
}
