package io.cairn.broker.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The role state machine's rules, one transition at a time. */
final class PartitionRoleStateTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private PartitionRoleState state;

  @BeforeEach
  void createState() {
    state = new PartitionRoleState(1, 0, new PartitionMetrics(registry, 1, 0));
  }

  @Test
  void shouldHandAFollowersStateToTheLeaderWithoutARebuild() {
    state.transition(PartitionRole.FOLLOWER, 1, true, "started");
    state.transition(PartitionRole.LEADER, 2, false, "elected");

    assertThat(state.role()).isEqualTo(PartitionRole.LEADER);
    assertThat(state.term()).isEqualTo(2);
    assertThat(registry.get(PartitionMetrics.ROLE).gauge().value())
        .isEqualTo(PartitionRole.LEADER.code());
  }

  @Test
  void shouldNeverKeepALeadersStateForAnotherRole() {
    state.transition(PartitionRole.LEADER, 2, true, "elected");

    assertThatThrownBy(() -> state.transition(PartitionRole.FOLLOWER, 3, false, "lost"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("LEADER (term 2) -> FOLLOWER (term 3, rebuilt false) is not one");
    assertThatThrownBy(() -> state.transition(PartitionRole.LEADER, 4, false, "elected again"))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> state.transition(PartitionRole.LEADER, 2, true, "same term"))
        .isInstanceOf(IllegalStateException.class);
    assertThat(state.role()).isEqualTo(PartitionRole.LEADER);

    state.transition(PartitionRole.LEADER, 4, true, "elected again, state rebuilt");
    state.transition(PartitionRole.FOLLOWER, 5, true, "lost, state rebuilt");
    assertThat(state.role()).isEqualTo(PartitionRole.FOLLOWER);
  }

  @Test
  void shouldMoveFromFollowerToFollowerOnlyWithARebuiltState() {
    state.transition(PartitionRole.FOLLOWER, 1, true, "started");

    assertThatThrownBy(() -> state.transition(PartitionRole.FOLLOWER, 1, false, "again"))
        .isInstanceOf(IllegalStateException.class);
    state.transition(PartitionRole.FOLLOWER, 1, true, "snapshot installed");
    assertThat(state.role()).isEqualTo(PartitionRole.FOLLOWER);
  }

  @Test
  void shouldGoInactiveOnlyFromARole() {
    assertThatThrownBy(() -> state.transition(PartitionRole.INACTIVE, 0, false, "nothing"))
        .isInstanceOf(IllegalStateException.class);
    state.transition(PartitionRole.FOLLOWER, 1, true, "started");
    state.transition(PartitionRole.INACTIVE, 1, false, "a transition failed");
    state.transition(PartitionRole.LEADER, 2, true, "retried");
    assertThat(state.role()).isEqualTo(PartitionRole.LEADER);
  }

  @Test
  void shouldOnlyCloseAfterFailing() {
    state.transition(PartitionRole.FOLLOWER, 1, true, "started");
    state.transition(PartitionRole.FAILED, 1, false, "applier failed");

    assertThat(state.isFinal()).isTrue();
    for (PartitionRole next :
        new PartitionRole[] {
          PartitionRole.INACTIVE, PartitionRole.FOLLOWER, PartitionRole.LEADER, PartitionRole.FAILED
        }) {
      assertThatThrownBy(() -> state.transition(next, 2, true, "after failing"))
          .as("FAILED -> %s", next)
          .isInstanceOf(IllegalStateException.class);
    }
    state.transition(PartitionRole.CLOSED, 1, false, "closed");
    assertThatThrownBy(() -> state.transition(PartitionRole.CLOSED, 1, false, "closed twice"))
        .isInstanceOf(IllegalStateException.class);
    assertThat(registry.get(PartitionMetrics.ROLE).gauge().value())
        .isEqualTo(PartitionRole.CLOSED.code());
  }
}
