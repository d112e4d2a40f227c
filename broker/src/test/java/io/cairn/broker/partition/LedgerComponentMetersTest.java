package io.cairn.broker.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backup.BackupConfig;
import io.cairn.engine.InterPartitionSender;
import io.cairn.engine.LedgerEngineConfig;
import io.cairn.engine.LedgerMetrics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's meters follow the engine: a new engine (every run) gets its own pending-credits
 * gauge, and a closed partition leaves no engine meter behind.
 */
final class LedgerComponentMetersTest {

  @TempDir Path directory;
  private PartitionCluster cluster;

  @AfterEach
  void close() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void shouldRegisterTheGaugeOfEveryNewEngineAndRemoveEngineMetersWhenThePartitionCloses() {
    // given three members with the real ledger; a follower has the gauge of its follower engine
    cluster =
        new PartitionCluster(
            directory,
            97,
            3,
            PartitionCluster.CONFIG,
            (running, member) ->
                List.of(
                    new BackupComponent(
                        Optional.empty(), BackupConfig.defaults(), 1, running.scheduler.executor()),
                    new LedgerComponent(
                        LedgerEngineConfig.of(1),
                        InterPartitionSender.NONE,
                        BackupComponent::checkpointIds)));
    Partition leader = cluster.awaitLeader();
    Map<Integer, Gauge> before = new HashMap<>();
    for (int id = 0; id < 3; id++) {
      if (id != leader.nodeId()) {
        before.put(id, pendingCredits(cluster.member(id).registry));
      }
    }

    // when the leader goes away and a follower takes over (a new run, so a new engine)
    cluster.stop(leader.nodeId());
    Partition next = cluster.awaitLeaderOtherThan(leader);
    cluster.awaitLeader();

    // then the new leader's engine registered a gauge of its own, the only one
    MeterRegistry registry = cluster.member(next.nodeId()).registry;
    Gauge after = pendingCredits(registry);
    assertThat(after).isNotSameAs(before.get(next.nodeId()));
    assertThat(registry.find(LedgerMetrics.PENDING_CREDITS).gauges()).hasSize(1);
    assertThat(after.value()).isZero();

    // and the stopped member left no engine meter behind
    assertThat(engineMeters(cluster.member(leader.nodeId()).registry)).isEmpty();
    assertThat(engineMeters(registry)).isNotEmpty();
  }

  private static Gauge pendingCredits(MeterRegistry registry) {
    return registry.get(LedgerMetrics.PENDING_CREDITS).tag("partition", "1").gauge();
  }

  private static List<Meter> engineMeters(MeterRegistry registry) {
    return registry.getMeters().stream()
        .filter(meter -> meter.getId().getName().startsWith(LedgerComponent.ENGINE_METERS))
        .toList();
  }
}
