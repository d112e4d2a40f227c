package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.client.CairnClient;
import io.cairn.qa.support.LedgerOracle;
import io.cairn.qa.support.Phases;
import io.cairn.qa.support.Seeds;
import io.cairn.qa.support.TransferLoad;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Transfers between accounts on every partition while the leader of a partition is killed and later
 * restarted: once the credits settle, no money was made or lost and every acknowledged transfer is
 * in the balances.
 */
final class MoneyConservationIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @Test
  void shouldConserveMoneyAndKeepAcknowledgedTransfersWhenALeaderIsKilled() {
    long seed = Seeds.seed("MoneyConservationIT");
    Phases phases = new Phases("MoneyConservationIT");
    try (EmbeddedCluster cluster =
        EmbeddedCluster.builder()
            .brokers(3)
            .partitions(3)
            .replicationFactor(3)
            .backupStore(BackupStoreSpec.none())
            .build()) {
      cluster.start().awaitHealthy();
      CairnClient client = cluster.client();
      phases.mark("cluster healthy");

      // given funded accounts on every partition and transfers between them
      List<String> accounts = LedgerOracle.accounts(cluster, "money", 4);
      LedgerOracle oracle = LedgerOracle.fund(client, accounts, 10_000);
      TransferLoad load = new TransferLoad(client, accounts, seed, 16, 100);
      load.start();
      try {
        load.awaitAcknowledged(500, TIMEOUT);
        phases.mark("500 transfers");

        // when the leader of partition 1 is killed under load
        int victim = cluster.awaitLeader(1);
        cluster.kill(victim);
        phases.mark("leader " + victim + " killed");

        // then transfers go on through the new leaders
        int successor = cluster.awaitNewLeader(1, victim);
        assertThat(successor).isNotEqualTo(victim);
        load.awaitAcknowledged(load.acknowledged() + 500, TIMEOUT);
        phases.mark("500 more transfers without node " + victim);

        // and go on after it is back
        cluster.restart(victim);
        cluster.awaitHealthy();
        load.awaitAcknowledged(load.acknowledged() + 300, TIMEOUT);
        phases.mark("node " + victim + " back, 300 more transfers");
      } finally {
        load.stop(TIMEOUT);
      }
      System.out.println("[MoneyConservationIT] " + load);

      // and once every credit arrived, the money adds up and each acknowledged transfer counts
      oracle.awaitConserved(client, load, TIMEOUT);
      assertThat(load.acknowledged()).isGreaterThanOrEqualTo(1_300);
      phases.mark("money conserved");
    }
    phases.mark("closed");
  }
}
