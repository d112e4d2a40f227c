package io.cairn.engine.credit;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.engine.LedgerKeys;
import io.cairn.engine.PendingCredit;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CreditRetryPlannerTest {

  private static final long NOW = 100_000;
  private final CreditRetryPlanner planner =
      new CreditRetryPlanner(Duration.ofMillis(500), Duration.ofSeconds(4), 2);

  private static PendingCredit credit(long position) {
    return new PendingCredit(LedgerKeys.of(1, position), "bob", 10, 1, 2, 7, "alice");
  }

  @Test
  void shouldSendUnknownCreditOnceItsPositionIsCommitted() {
    // when
    CreditRetryPlanner.Plan plan = planner.plan(List.of(credit(5)), Map.of(), NOW, 40, 40);

    // then
    assertThat(plan.sends()).containsExactly(new CreditRetryPlanner.Send(credit(5), false));
    assertThat(plan.tracking().get(credit(5).transferKey())).isEqualTo(CreditTracking.sentAt(NOW));
    assertThat(plan.nextScanMillis()).isEqualTo(NOW + 500);
  }

  @Test
  void shouldHoldUnknownCreditWhileTheStateIsAheadOfTheCommit() {
    // when the state holds effects up to 40 but only 39 is committed
    CreditRetryPlanner.Plan plan = planner.plan(List.of(credit(5)), Map.of(), NOW, 40, 39);

    // then
    assertThat(plan.sends()).isEmpty();
    assertThat(plan.tracking().get(credit(5).transferKey())).isEqualTo(CreditTracking.found(40));
    assertThat(plan.nextScanMillis()).isEqualTo(NOW);

    // when the commit reaches the position the credit was found at, even if more was written
    CreditRetryPlanner.Plan later =
        planner.plan(List.of(credit(5)), plan.tracking(), NOW + 10, 60, 40);

    // then
    assertThat(later.sends()).containsExactly(new CreditRetryPlanner.Send(credit(5), false));
  }

  @Test
  void shouldResendOnlyWhenTheBackoffElapsed() {
    // given sent twice, last at NOW: the next send is due after 2 * 500 ms
    Map<Long, CreditTracking> tracking =
        Map.of(credit(5).transferKey(), new CreditTracking(-1, 2, NOW));

    // when
    CreditRetryPlanner.Plan early = planner.plan(List.of(credit(5)), tracking, NOW + 999, 9, 9);
    CreditRetryPlanner.Plan due = planner.plan(List.of(credit(5)), tracking, NOW + 1000, 9, 9);

    // then
    assertThat(early.sends()).isEmpty();
    assertThat(early.nextScanMillis()).isEqualTo(NOW + 1000);
    assertThat(due.sends()).containsExactly(new CreditRetryPlanner.Send(credit(5), true));
    assertThat(due.tracking().get(credit(5).transferKey()))
        .isEqualTo(new CreditTracking(-1, 3, NOW + 1000));
  }

  @Test
  void shouldSendAtMostTheBudgetAndLookAgainAtTheNextCheck() {
    // when three credits are due with a budget of two
    CreditRetryPlanner.Plan plan =
        planner.plan(List.of(credit(1), credit(2), credit(3)), Map.of(), NOW, 9, 9);

    // then
    assertThat(plan.sends())
        .extracting(s -> s.credit().transferKey())
        .containsExactly(credit(1).transferKey(), credit(2).transferKey());
    assertThat(plan.tracking()).hasSize(3);
    assertThat(plan.tracking().get(credit(3).transferKey()).isSent()).isFalse();
    assertThat(plan.nextScanMillis()).isEqualTo(NOW);
  }

  @Test
  void shouldForgetCreditsThatAreNoLongerPending() {
    // given
    Map<Long, CreditTracking> tracking = new HashMap<>();
    tracking.put(credit(1).transferKey(), CreditTracking.sentAt(NOW));
    tracking.put(credit(2).transferKey(), CreditTracking.sentAt(NOW));

    // when credit 1 was acknowledged
    CreditRetryPlanner.Plan plan = planner.plan(List.of(credit(2)), tracking, NOW + 1, 9, 9);

    // then
    assertThat(plan.tracking()).containsOnlyKeys(credit(2).transferKey());
    assertThat(tracking).hasSize(2);
  }

  @Test
  void shouldDoubleTheDelayUpToTheMaximum() {
    assertThat(planner.retryDelayMillis(1)).isEqualTo(500);
    assertThat(planner.retryDelayMillis(2)).isEqualTo(1000);
    assertThat(planner.retryDelayMillis(3)).isEqualTo(2000);
    assertThat(planner.retryDelayMillis(4)).isEqualTo(4000);
    assertThat(planner.retryDelayMillis(5)).isEqualTo(4000);
    assertThat(planner.retryDelayMillis(Integer.MAX_VALUE)).isEqualTo(4000);
  }

  @Test
  void shouldPlanTheSameForTheSameInputs() {
    // given
    List<PendingCredit> pending = List.of(credit(1), credit(2), credit(3), credit(4));
    Map<Long, CreditTracking> tracking =
        Map.of(credit(2).transferKey(), new CreditTracking(-1, 1, NOW - 600));

    // when
    CreditRetryPlanner.Plan first = planner.plan(pending, tracking, NOW, 20, 15);
    CreditRetryPlanner.Plan second = planner.plan(pending, tracking, NOW, 20, 15);

    // then
    assertThat(first).isEqualTo(second);
  }
}
