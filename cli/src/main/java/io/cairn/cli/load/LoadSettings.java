package io.cairn.cli.load;

import io.cairn.client.RetryPolicy;
import io.cairn.units.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a load run does: fund {@code accounts} accounts with {@code initialBalance} each, then send
 * transfers of 1..{@code maxAmount} between random pairs at {@code ratePerSecond} for {@code
 * duration}, with at most {@code maxInFlight} unanswered, then check that the money is conserved
 * (waiting up to {@code settleTimeout} for cross-partition credits to land).
 *
 * @param ratePerSecond transfers per second, [1, 100000]
 * @param accounts accounts used, [2, 1000000]
 * @param duration how long transfers are sent, [1s, 24h]
 * @param maxInFlight unanswered calls at most, [1, 10000]
 * @param initialBalance each account's deposit, [1, 10^12]
 * @param maxAmount largest transfer, [1, initialBalance]
 * @param seed picks the transfers; printed so a run can be repeated
 * @param accountPrefix account ids are prefix + index; 1..48 of [A-Za-z0-9._-]
 * @param settleTimeout the longest wait for balances to add up, [0, 10m]
 * @param retryMaxAttempts sends of one call at most when the gateway answers RESOURCE_EXHAUSTED,
 *     [1, 1000] (1: no retry)
 */
public record LoadSettings(
    int ratePerSecond,
    int accounts,
    Duration duration,
    int maxInFlight,
    long initialBalance,
    long maxAmount,
    long seed,
    String accountPrefix,
    Duration settleTimeout,
    int retryMaxAttempts) {

  public static final int RATE_MAX = 100_000;
  public static final int ACCOUNTS_MAX = 1_000_000;
  public static final int MAX_IN_FLIGHT_MAX = 10_000;
  public static final long INITIAL_BALANCE_MAX = 1_000_000_000_000L;
  public static final int RETRY_MAX_ATTEMPTS_MAX = 1000;
  private static final String PREFIX_PATTERN = "[A-Za-z0-9._-]{1,48}";

  public LoadSettings {
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(accountPrefix, "accountPrefix");
    Objects.requireNonNull(settleTimeout, "settleTimeout");
  }

  /** Every violated rule, each "Expected &lt;option&gt; in [..], but was ..."; empty when valid. */
  public List<String> violations() {
    List<String> violations = new ArrayList<>();
    range(violations, "--rate", ratePerSecond, 1, RATE_MAX);
    range(violations, "--accounts", accounts, 2, ACCOUNTS_MAX);
    range(violations, "--max-in-flight", maxInFlight, 1, MAX_IN_FLIGHT_MAX);
    range(violations, "--initial-balance", initialBalance, 1, INITIAL_BALANCE_MAX);
    range(violations, "--max-amount", maxAmount, 1, initialBalance);
    range(violations, "--retry-max-attempts", retryMaxAttempts, 1, RETRY_MAX_ATTEMPTS_MAX);
    durationRange(violations, "--duration", duration, Duration.ofSeconds(1), Duration.ofHours(24));
    durationRange(
        violations, "--settle-timeout", settleTimeout, Duration.ZERO, Duration.ofMinutes(10));
    if (!accountPrefix.matches(PREFIX_PATTERN)) {
      violations.add(
          "Expected --account-prefix to be 1 to 48 of [A-Za-z0-9._-], but was '"
              + accountPrefix
              + "'");
    }
    return violations;
  }

  /** The client's retries after RESOURCE_EXHAUSTED: the default backoff, these attempts. */
  public RetryPolicy retryPolicy() {
    return RetryPolicy.defaults().withMaxAttempts(retryMaxAttempts);
  }

  /** The id of account {@code index} (0-based). */
  public String accountId(int index) {
    return accountPrefix + index;
  }

  /** The money the accounts hold together once funded. */
  public long expectedTotal() {
    return initialBalance * accounts;
  }

  private static void range(List<String> out, String name, long value, long min, long max) {
    if (value < min || value > max) {
      out.add("Expected " + name + " in [" + min + ", " + max + "], but was " + value);
    }
  }

  private static void durationRange(
      List<String> out, String name, Duration value, Duration min, Duration max) {
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      out.add(
          "Expected "
              + name
              + " in ["
              + Durations.formatRounded(min)
              + ", "
              + Durations.formatRounded(max)
              + "], but was "
              + Durations.formatRounded(value));
    }
  }
}
