package io.cairn.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class LedgerMetricsTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @Test
  void shouldCountSendsByOperationWithThePartitionTag() {
    // given
    LedgerMetrics metrics = new LedgerMetrics(registry, 2);

    // when
    metrics.applySent(false);
    metrics.applySent(true);
    metrics.ackSent();
    metrics.refundSent();
    metrics.refundSent();
    metrics.sendFailed(LedgerMetrics.Operation.REFUND);
    metrics.pendingCredits(5);

    // then
    assertThat(sends("apply")).isEqualTo(2);
    assertThat(sends("ack")).isEqualTo(1);
    assertThat(sends("refund")).isEqualTo(2);
    assertThat(registry.get(LedgerMetrics.RETRIES).tag("partition", "2").counter().count())
        .isEqualTo(1);
    assertThat(
            registry
                .get(LedgerMetrics.SEND_FAILURES)
                .tags("partition", "2", "operation", "refund")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(registry.get(LedgerMetrics.PENDING_CREDITS).gauge().value()).isEqualTo(5);
  }

  @Test
  void shouldRemoveItsMetersWhenClosedSoTheNextInstanceReportsItsOwn() {
    // given
    LedgerMetrics first = new LedgerMetrics(registry, 2);
    LedgerMetrics otherPartition = new LedgerMetrics(registry, 3);
    first.pendingCredits(5);
    first.refundSent();

    // when
    first.close();
    first.close();

    // then only the other partition's meters are left
    assertThat(registry.getMeters())
        .isNotEmpty()
        .allSatisfy(meter -> assertThat(meter.getId().getTag("partition")).isEqualTo("3"));

    // and a new instance for partition 2 starts from its own values
    LedgerMetrics second = new LedgerMetrics(registry, 2);
    second.pendingCredits(7);
    assertThat(registry.get(LedgerMetrics.PENDING_CREDITS).tag("partition", "2").gauge().value())
        .isEqualTo(7);
    assertThat(sends("refund")).isZero();
    second.close();
    otherPartition.close();
    assertThat(registry.getMeters()).extracting(Meter::getId).isEmpty();
  }

  private double sends(String operation) {
    return registry
        .get(LedgerMetrics.SENDS)
        .tags("partition", "2", "operation", operation)
        .counter()
        .count();
  }
}
