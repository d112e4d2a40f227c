package io.cairn.broker.partition;

import static io.cairn.broker.partition.TestLedgerComponent.command;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.streamprocessor.RecordProcessors;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One partition with a single member: the role state machine, the component life cycle, health and
 * its metrics.
 */
final class PartitionLifecycleTest {

  @TempDir Path directory;
  private PartitionCluster cluster;

  @AfterEach
  void closeCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void shouldCallComponentsInLifeCycleOrder() {
    // given
    cluster = new PartitionCluster(directory, 3, 1);
    Partition partition = cluster.awaitLeader();
    TestLedgerComponent ledger = cluster.member(0).ledger;

    // then the member followed first (raft starts as follower), then led with the follower's state
    assertThat(ledger.calls)
        .containsExactly(
            "register FOLLOWER 1", "follower 1", "stopped 1", "register LEADER 2", "leader 2");
    assertThat(gauge(PartitionMetrics.ROLE)).isEqualTo(PartitionRole.LEADER.code());
    assertThat(gauge(PartitionMetrics.HEALTH)).isEqualTo(PartitionHealthStatus.HEALTHY.code());
    assertThat(partition.term()).isEqualTo(partition.raftTerm()).isPositive();

    // when
    cluster.await(partition.closeAsync(), "close");

    // then
    assertThat(ledger.calls).endsWith("stopped 2", "close");
    assertThat(partition.role()).isEqualTo(PartitionRole.CLOSED);
    assertThat(cluster.member(0).registry.find(PartitionMetrics.ROLE).gauge()).isNull();
    cluster.member(0).partition = null;
  }

  @Test
  void shouldFailThePartitionWhenItsStreamProcessorFails() {
    // given
    cluster = new PartitionCluster(directory, 5, 1);
    Partition partition = cluster.awaitLeader();
    List<PartitionHealthReport> reports = new CopyOnWriteArrayList<>();
    partition.addHealthListener(reports::add);
    cluster.write(partition, command(AccountIntent.CREATE, new AccountValue("poison-1", 0), 1));

    // when an applier throws
    cluster.write(partition, command(DepositIntent.DEPOSIT, new DepositValue("poison-1", 5), 2));
    cluster.runUntil(
        () -> partition.role() == PartitionRole.FAILED,
        Duration.ofSeconds(2),
        "the partition to fail");
    cluster.run(Duration.ofMillis(50));

    // then
    assertThat(partition.health().status()).isEqualTo(PartitionHealthStatus.FAILED);
    assertThat(partition.health().reason()).contains("stream processor FAILED", "poisoned deposit");
    assertThat(reports).singleElement().isEqualTo(partition.health());
    assertThat(gauge(PartitionMetrics.HEALTH)).isEqualTo(PartitionHealthStatus.FAILED.code());
    assertThat(gauge(PartitionMetrics.ROLE)).isEqualTo(PartitionRole.FAILED.code());
    assertThat(cluster.member(0).ledger.calls).endsWith("leader 2", "stopped 2");
    // a FAILED partition stays failed: no new stream processor, no reads of its state
    assertThatThrownBy(() -> cluster.await(partition.stateSummary(), "summary"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("FAILED");
  }

  @Test
  void shouldRetryAFailedTransitionAndBecomeHealthyAgain() {
    // given a component that fails its first two registrations
    AtomicInteger failuresLeft = new AtomicInteger(2);
    List<PartitionHealthReport> reports = new CopyOnWriteArrayList<>();
    cluster =
        new PartitionCluster(
            directory,
            7,
            1,
            PartitionCluster.CONFIG,
            (c, member) -> List.of(member.ledger, flaky(failuresLeft)));
    Partition partition = cluster.partition(0);
    partition.addHealthListener(reports::add);

    // when
    cluster.awaitLeader();

    // then it was UNHEALTHY (and INACTIVE) in between, and is HEALTHY now
    assertThat(reports)
        .extracting(PartitionHealthReport::status)
        .containsExactly(
            PartitionHealthStatus.UNHEALTHY,
            PartitionHealthStatus.UNHEALTHY,
            PartitionHealthStatus.HEALTHY);
    assertThat(reports.get(0).reason()).contains("attempt 1 of 10", "flaky registration");
    assertThat(partition.health().isHealthy()).isTrue();
    assertThat(
            cluster
                .member(0)
                .registry
                .get(PartitionMetrics.TRANSITION_DURATION)
                .tag("result", "failed")
                .timer()
                .count())
        .isEqualTo(2);
    // and it works
    long position =
        cluster.write(partition, command(AccountIntent.CREATE, new AccountValue("a", 0), 1));
    cluster.awaitConverged(position, Duration.ofSeconds(2));
  }

  @Test
  void shouldFailAfterTooManyFailedTransitions() {
    // given a component that always fails, and at most 3 attempts
    cluster =
        new PartitionCluster(
            directory,
            9,
            1,
            PartitionCluster.CONFIG.toBuilder().transitionAttemptsMax(3).build(),
            (c, member) -> List.of(member.ledger, flaky(new AtomicInteger(Integer.MAX_VALUE))));
    Partition partition = cluster.partition(0);

    // when
    cluster.runUntil(
        () -> partition.role() == PartitionRole.FAILED,
        Duration.ofSeconds(10),
        "the partition to fail");

    // then
    assertThat(partition.health().status()).isEqualTo(PartitionHealthStatus.FAILED);
    assertThat(partition.health().reason()).contains("attempt 3 of 3", "flaky registration");
  }

  @Test
  void shouldRefuseComponentsWithTheSameColumnFamily() {
    assertThatThrownBy(
            () ->
                new PartitionCluster(
                    directory,
                    1,
                    1,
                    PartitionCluster.CONFIG,
                    (c, member) -> List.of(member.ledger, new TestLedgerComponent())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected distinct column family names, but 'TEST_LEDGER_ACCOUNTS'");
  }

  private double gauge(String name) {
    return cluster.member(0).registry.get(name).gauge().value();
  }

  private static PartitionComponent flaky(AtomicInteger failuresLeft) {
    return new PartitionComponent() {
      @Override
      public String name() {
        return "flaky";
      }

      @Override
      public void registerProcessors(ProcessingScope scope, RecordProcessors.Builder processors) {
        if (failuresLeft.getAndDecrement() > 0) {
          throw new IllegalStateException("flaky registration");
        }
      }
    };
  }
}
