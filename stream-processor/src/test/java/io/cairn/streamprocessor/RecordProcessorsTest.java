package io.cairn.streamprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.ValueType;
import org.junit.jupiter.api.Test;

final class RecordProcessorsTest {

  private static final CommandProcessor NOTHING = (context, result) -> {};

  @Test
  void shouldFindWhatIsRegisteredByKind() {
    RecordProcessors processors =
        RecordProcessors.builder()
            .processor(ValueType.CHECKPOINT, CheckpointIntent.CREATE, NOTHING)
            .applier(CheckpointIntent.CREATED, EventApplier.NONE)
            .build();

    assertThat(processors.processor(CheckpointIntent.CREATE)).isSameAs(NOTHING);
    assertThat(processors.applier(CheckpointIntent.CREATED)).isSameAs(EventApplier.NONE);
    assertThat(processors.processor(AccountIntent.CREATE)).isNull();
    assertThat(processors.applier(CheckpointIntent.IGNORED)).isNull();
  }

  @Test
  void shouldRefuseAnIntentOfAnotherValueType() {
    assertThatThrownBy(
            () ->
                RecordProcessors.builder()
                    .processor(ValueType.ACCOUNT, CheckpointIntent.CREATE, NOTHING))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Expected an intent of ACCOUNT, but CREATE belongs to CHECKPOINT (registering a processor)");
  }

  @Test
  void shouldRefuseAProcessorForAnEventAndAnApplierForACommand() {
    assertThatThrownBy(() -> RecordProcessors.builder().processor(AccountIntent.CREATED, NOTHING))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected a command intent for a processor, but ACCOUNT CREATED is an event");
    assertThatThrownBy(
            () -> RecordProcessors.builder().applier(AccountIntent.CREATE, EventApplier.NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected an event intent for an applier, but ACCOUNT CREATE is a command");
  }

  @Test
  void shouldRefuseASecondRegistrationOfTheSameKind() {
    RecordProcessors.Builder builder =
        RecordProcessors.builder().processor(AccountIntent.CREATE, NOTHING);

    assertThatThrownBy(() -> builder.processor(AccountIntent.CREATE, NOTHING))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected one processor per kind, but ACCOUNT CREATE has one already");
  }
}
