package io.cairn.broker.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.journal.JournalMetrics;
import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.cairn.transport.sim.SimNetwork;
import io.cairn.transport.sim.SimTesting;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several partitions of one broker share its meter registry without their meters colliding. */
final class PartitionMetricsTest {

  @TempDir Path directory;

  @Test
  void shouldTagEachPartitionsMetersAndRemoveThemOnClose() {
    // given two partitions of one broker, one registry
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    DeterministicScheduler scheduler = new DeterministicScheduler(new SimClock(0));
    SimNetwork network = new SimNetwork(scheduler, 1);
    Partition first = open(1, registry, scheduler, network);
    Partition second = open(2, registry, scheduler, network);

    // then the journal (which has no tags of its own), role and health meters exist per partition
    for (String name :
        List.of(JournalMetrics.SEGMENTS, PartitionMetrics.ROLE, PartitionMetrics.HEALTH)) {
      assertThat(registry.find(name).meters())
          .as(name)
          .extracting(meter -> meter.getId().getTag("partition"))
          .containsExactlyInAnyOrder("1", "2");
    }

    // when
    SimTesting.runUntilDone(scheduler, first.closeAsync(), 100_000, "close");
    SimTesting.runUntilDone(scheduler, second.closeAsync(), 100_000, "close");

    // then
    assertThat(registry.find(JournalMetrics.SEGMENTS).meters()).isEmpty();
    assertThat(registry.find(PartitionMetrics.ROLE).meters()).isEmpty();
    assertThat(registry.getMeters().stream().map(Meter::getId).map(Meter.Id::getName))
        .noneMatch(name -> name.startsWith("cairn.broker.partition"));
    scheduler.close();
  }

  private Partition open(
      int partitionId,
      SimpleMeterRegistry registry,
      DeterministicScheduler scheduler,
      SimNetwork network) {
    return Partition.builder()
        .partitionId(partitionId)
        .nodeId(0)
        .members(List.of(0))
        .layout(PartitionLayout.of(directory, partitionId))
        .config(PartitionCluster.CONFIG)
        .messagingService(network.endpoint(0))
        .scheduler(scheduler)
        .ioExecutor(scheduler.executor())
        .flushExecutor(scheduler.executor())
        .random(new SplittableRandom(partitionId))
        .meterRegistry(registry)
        .brokerVersion(PartitionCluster.BROKER_VERSION)
        .open();
  }
}
