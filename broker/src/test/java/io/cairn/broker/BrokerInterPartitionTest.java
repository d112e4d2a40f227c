package io.cairn.broker;

import static io.cairn.broker.GatewayClient.command;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.broker.interpartition.InterPartitionMetrics;
import io.cairn.engine.PendingCredit;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RejectionType;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import io.micrometer.core.instrument.Counter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers, three partitions, replication factor 1: partition {@code p} lives on broker {@code
 * p-1} alone, so every cross-partition credit travels between brokers over netty, and a broker
 * learns the leaders of partitions it does not host only from the others' {@code cairn-topology}.
 */
final class BrokerInterPartitionTest {

  private static final int PARTITIONS = 3;
  private static final long DEPOSIT = 500;

  @TempDir Path directory;
  private BrokerTestCluster cluster;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void shouldCompleteCrossPartitionTransfersThroughTheNettySenderAndConserveMoney() {
    // given one partition per broker, and two funded accounts on each
    cluster = BrokerTestCluster.builder(directory).brokers(3).partitions(PARTITIONS).build();
    cluster.awaitReady();
    GatewayClient client = cluster.client();
    for (int partitionId = 1; partitionId <= PARTITIONS; partitionId++) {
      assertThat(cluster.broker(partitionId - 1).partitions().get(partitionId)).isPresent();
      for (String id : accounts(partitionId)) {
        client.execute(partitionId, command(AccountIntent.CREATE, new AccountValue(id, 0)));
        client.execute(partitionId, command(DepositIntent.DEPOSIT, new DepositValue(id, DEPOSIT)));
      }
    }

    // when every account sends money to accounts on the two other partitions
    int transfers = 0;
    for (int from = 1; from <= PARTITIONS; from++) {
      for (int to = 1; to <= PARTITIONS; to++) {
        if (from == to) {
          continue;
        }
        for (int i = 0; i < 2; i++) {
          Record answer =
              client.execute(
                  from,
                  transfer(accounts(from).get(i), accounts(to).get(1 - i), 7L * from + to + i));
          assertThat(answer.metadata().intent()).isEqualTo(TransferIntent.DEBITED);
          transfers++;
        }
      }
    }
    // and one transfer to an account that does not exist: partition 3 refuses the credit ...
    String missing = LedgerAccountsForTest.on(3, PARTITIONS, "late", 1).get(0);
    client.execute(1, transfer(accounts(1).get(0), missing, 11));
    Record rejected =
        client.execute(1, transfer(accounts(1).get(1), accounts(2).get(0), 1_000_000));
    assertThat(rejected.metadata().rejectionType()).isEqualTo(RejectionType.INSUFFICIENT_FUNDS);

    // ... and partition 1 refunds it

    // then nothing stays pending and no money was made or lost
    await("every credit applied or refunded, money conserved")
        .atMost(BrokerTestCluster.TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(
            () -> {
              long total = 0;
              for (int partitionId = 1; partitionId <= PARTITIONS; partitionId++) {
                HostedPartition replica = cluster.leaderReplica(partitionId);
                assertThat(
                        replica
                            .partition()
                            .readState(db -> pendingCredits(replica))
                            .orTimeout(10, TimeUnit.SECONDS)
                            .join())
                    .as("pending credits of partition %s", partitionId)
                    .isEmpty();
                for (String id : accounts(partitionId)) {
                  total += client.balance(partitionId, id).balance();
                }
              }
              assertThat(client.balance(3, missing).found()).isFalse();
              assertThat(total).isEqualTo(PARTITIONS * 2 * DEPOSIT);
            });

    // and the credits went over the transport: each APPLY and ACK (or REFUND) written by a remote
    // leader. A sender counts "written" when the remote answer arrives, which may be after the
    // receiver already processed the command, so the count is awaited.
    long expectedRemoteWrites = 2L * (transfers + 1);
    await("every APPLY and ACK (or REFUND) counted as written remotely by its sender")
        .atMost(BrokerTestCluster.TIMEOUT)
        .pollInterval(Duration.ofMillis(50))
        .untilAsserted(
            () ->
                assertThat(sum(cluster.brokers(), InterPartitionMetrics.SENDS, "written"))
                    .isGreaterThanOrEqualTo(expectedRemoteWrites));
    for (Broker broker : cluster.brokers()) {
      assertThat(count(broker, InterPartitionMetrics.RECEIVES, "written")).isPositive();
    }
    assertThat(sum(cluster.brokers(), InterPartitionMetrics.SENDS, "local")).isZero();
  }

  private static long sum(List<Broker> brokers, String name, String result) {
    long total = 0;
    for (Broker broker : brokers) {
      total += count(broker, name, result);
    }
    return total;
  }

  /** On the partition's thread: the pending credits of its running engine. */
  private static List<PendingCredit> pendingCredits(HostedPartition replica) {
    return replica.ledger().engine().orElseThrow().state().pendingCredits();
  }

  private static List<String> accounts(int partitionId) {
    return LedgerAccountsForTest.on(partitionId, PARTITIONS, "ipc", 2);
  }

  private static long count(Broker broker, String name, String result) {
    Counter counter = broker.meterRegistry().find(name).tag("result", result).counter();
    return counter == null ? 0 : (long) counter.count();
  }

  private static Record transfer(String from, String to, long amount) {
    return command(
        TransferIntent.CREATE,
        new TransferValue(
            from, to, amount, ValueDescriptor.NO_PARTITION_ID, ValueDescriptor.NO_PARTITION_ID));
  }
}
