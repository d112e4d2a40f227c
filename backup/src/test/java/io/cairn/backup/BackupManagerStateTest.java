package io.cairn.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backup.BackupManagerState.State;
import io.cairn.scheduler.Cancellable;
import org.junit.jupiter.api.Test;

/** The backup manager's table. */
final class BackupManagerStateTest {

  private static final Cancellable TIMER =
      new Cancellable() {
        @Override
        public void cancel() {}

        @Override
        public boolean isCancelled() {
          return false;
        }
      };

  @Test
  void shouldSweepAgainAfterAFailedAttemptThenOpenThenStop() {
    BackupManagerState state = new BackupManagerState(1);

    state.transition(new State.Sweeping(1), "test", null);
    state.transition(new State.SweepBackoff(1, TIMER), "test", null);
    state.transition(new State.Sweeping(2), "test", null);
    state.transition(new State.Open(), "test", null);
    state.transition(new State.Stopped(), "test", null);

    assertThat(state.get()).isEqualTo(new State.Stopped());
  }

  @Test
  void shouldRefuseAMoveThatIsNotInTheTable() {
    BackupManagerState state = new BackupManagerState(3);
    state.transition(new State.Sweeping(1), "test", null);

    assertThatThrownBy(() -> state.transition(new State.Sweeping(2), "test", null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Expected a move in the backup manager table, but")
        .hasMessageContaining("SWEEPING(attempt 1) -> SWEEPING(attempt 2)")
        .hasMessageContaining("partition 3");
    assertThat(BackupManagerState.canBecome(new State.Open(), new State.Sweeping(1))).isFalse();
    assertThat(BackupManagerState.canBecome(new State.Stopped(), new State.Stopped())).isFalse();
    assertThat(state.get()).isEqualTo(new State.Sweeping(1));
  }
}
