package io.cairn.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.dist.LedgerHistory.Kind;
import io.cairn.dist.LedgerHistory.Operation;
import io.cairn.dist.LedgerHistory.Outcome;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

final class LedgerHistoryTest {
  private final AtomicLong clock = new AtomicLong(5_000);
  private final LedgerHistory history = new LedgerHistory(clock::get);

  @Test
  void shouldShowABackupWhatWasAcknowledgedBeforeItAndNothingInvokedAfterIt() {
    int before = operation(Outcome.OK, 10, 20); // acknowledged before the backup was asked for
    int refused = operation(Outcome.FAIL, 30, 40);
    int overlapping = operation(Outcome.OK, 90, 120); // acknowledged while the backup was taken
    int unknown = operation(Outcome.INFO, 95, 130);
    clock.set(5_100);
    long asked = history.now();
    clock.set(5_150);
    history.backupTaken(7, asked, history.now());
    int after = operation(Outcome.OK, 200, 210);

    List<Operation> cut = history.asOfBackup(7);

    assertThat(cut)
        .extracting(Operation::id)
        .containsExactly(before, refused, overlapping, unknown);
    assertThat(cut)
        .extracting(Operation::outcome)
        .containsExactly(Outcome.OK, Outcome.FAIL, Outcome.INFO, Outcome.INFO);
    assertThat(history.operations().get(after).outcome()).isEqualTo(Outcome.OK);
    assertThat(history.backupsTaken()).containsExactly(7L);
    assertThatThrownBy(() -> history.asOfBackup(8))
        .hasMessage("Expected a backup taken, but 8 was not");
  }

  @Test
  void shouldCountAnOperationThatNeverCompletedAsUnknown() {
    int pending = history.invoke(0, Kind.DEPOSIT, null, "a", 5);

    assertThat(history.operations().get(pending).outcome()).isEqualTo(Outcome.INFO);
    assertThatThrownBy(() -> history.invoke(0, Kind.TRANSFER, "a", "a", 5))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** An operation invoked and completed at those times since 5,000 (not in order of ids). */
  private int operation(Outcome outcome, long invokedAt, long completedAt) {
    clock.set(5_000 + invokedAt);
    int id = history.invoke(0, Kind.TRANSFER, "a", "b", 1 + invokedAt);
    clock.set(5_000 + completedAt);
    history.complete(id, outcome, outcome == Outcome.OK ? "" : "injected");
    return id;
  }
}
