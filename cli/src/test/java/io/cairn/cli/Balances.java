package io.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.client.CairnClient;
import java.time.Duration;
import java.util.Map;

/** The ledger as the restore tests read it: a client of a gateway, balances awaited. */
public final class Balances {
  private Balances() {}

  /** A client of {@code gateway} with a 10 s request timeout. */
  public static CairnClient client(String gateway) {
    return CairnClient.builder().gateway(gateway).requestTimeout(Duration.ofSeconds(10)).build();
  }

  /** Waits up to 60 s until every account of {@code expected} has its balance. */
  public static void await(CairnClient client, Map<String, Long> expected) {
    org.awaitility.Awaitility.await("balances " + expected)
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptions()
        .untilAsserted(
            () ->
                expected.forEach(
                    (account, balance) ->
                        assertThat(client.getAccount(account).balance())
                            .as(account)
                            .isEqualTo(balance)));
  }
}
