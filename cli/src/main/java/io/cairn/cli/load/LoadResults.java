package io.cairn.cli.load;

import java.util.Map;

/** The records a load run reports (also its JSON shape). */
public final class LoadResults {
  private LoadResults() {}

  /**
   * The accounts after funding.
   *
   * @param accounts accounts created (or found) and funded
   * @param total the money they hold together, read back after funding
   * @param retries calls sent again after UNAVAILABLE, DEADLINE_EXCEEDED or RESOURCE_EXHAUSTED
   * @param elapsedMs how long funding took
   */
  public record Funding(int accounts, long total, long retries, long elapsedMs) {}

  /**
   * Latency of acknowledged transfers, in milliseconds, measured from the moment each transfer was
   * due to be sent (so time spent waiting for an in-flight slot counts).
   */
  public record Latency(double p50Ms, double p90Ms, double p99Ms, double maxMs, long count) {}

  /**
   * What happened to the transfers.
   *
   * @param sent transfers sent
   * @param acknowledged accepted by the cluster
   * @param rejected refused by the ledger (insufficient funds); the money did not move
   * @param failed not answered with success or rejection (unavailable, deadline exceeded: outcome
   *     unknown; RESOURCE_EXHAUSTED after the client's last attempt: not applied)
   * @param retried transfers the client sent more than once because the gateway answered
   *     RESOURCE_EXHAUSTED (each also counts as acknowledged, rejected or failed by its last
   *     answer)
   * @param retries how many times the client sent transfers again after RESOURCE_EXHAUSTED
   * @param errors failures and rejections by error code
   * @param elapsedMs from the first send to the last answer
   * @param throughputPerSecond acknowledged transfers per second
   * @param latency of the acknowledged transfers, from their due time
   * @param serviceLatency of the acknowledged transfers, from the moment they were sent (retries
   *     included: it is what a caller waits)
   * @param generatorCpuMs CPU time of this process while the transfers ran (every thread), or -1
   *     where the JVM cannot tell
   * @param generatorCpuMsPerAcknowledged {@code generatorCpuMs} per acknowledged transfer, or -1
   */
  public record Transfers(
      long sent,
      long acknowledged,
      long rejected,
      long failed,
      long retried,
      long retries,
      Map<String, Long> errors,
      long elapsedMs,
      double throughputPerSecond,
      Latency latency,
      Latency serviceLatency,
      double generatorCpuMs,
      double generatorCpuMsPerAcknowledged) {}

  /**
   * The money check after the run: the sum of every balance must equal what was deposited.
   *
   * @param expected the funded total
   * @param actual the last sum read
   * @param conserved whether they were equal
   * @param reads how many times every balance was read
   * @param elapsedMs how long the check took (credits may still be in flight at first)
   */
  public record Conservation(
      long expected, long actual, boolean conserved, int reads, long elapsedMs) {}

  /** A whole run: settings, funding, transfers and the conservation check. */
  public record Report(
      LoadSettings settings, Funding funding, Transfers transfers, Conservation conservation) {}
}
