package io.cairn.streamprocessor.processing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordDescriptor;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RejectionType;
import io.cairn.streamprocessor.EventApplier;
import io.cairn.streamprocessor.EventApplierException;
import io.cairn.streamprocessor.RecordProcessors;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ResultCollectorTest {

  private static final Record COMMAND =
      new Record(
          RecordMetadata.builder()
              .command(AccountIntent.CREATE)
              .position(40)
              .key(3)
              .timestamp(12_345)
              .requestId(9)
              .requestStreamId(2)
              .build(),
          new AccountValue("a", 0));

  private final List<Record> applied = new ArrayList<>();
  private final ResultCollector result =
      new ResultCollector(
          1,
          COMMAND,
          RecordProcessors.builder().applier(AccountIntent.CREATED, applied::add).build());

  @Test
  void shouldStampFollowUpsWithTheCommandsPositionAndTimestampAndApplyEventsAtOnce() {
    // when
    result.appendEvent(3, AccountIntent.CREATED, new AccountValue("a", 0));

    // then
    assertThat(applied).hasSize(1);
    RecordMetadata event = result.records().get(0).metadata();
    assertThat(event.sourcePosition()).isEqualTo(40);
    assertThat(event.timestamp()).isEqualTo(12_345);
    assertThat(event.position()).isEqualTo(RecordMetadata.NO_POSITION);
    assertThat(event.requestId()).isEqualTo(RecordMetadata.NO_REQUEST_ID);
    assertThat(applied.get(0)).isEqualTo(result.records().get(0));
  }

  @Test
  void shouldRecordAnApplierFailureEvenWhenTheCallerSwallowsIt() {
    ResultCollector failing =
        new ResultCollector(
            1,
            COMMAND,
            RecordProcessors.builder()
                .applier(
                    AccountIntent.CREATED,
                    e -> {
                      throw new IllegalStateException("broken");
                    })
                .build());

    assertThatThrownBy(
            () -> failing.appendEvent(3, AccountIntent.CREATED, new AccountValue("a", 0)))
        .isInstanceOf(EventApplierException.class);
    assertThat(failing.applierFailure().getMessage())
        .contains("ACCOUNT CREATED")
        .contains("IllegalStateException: broken")
        .contains("command at position 40");
    assertThat(failing.records()).isEmpty();
  }

  @Test
  void shouldKeepTheFirstHaltAndStopApplyingEventsAfterIt() {
    // given
    IllegalStateException cause = new IllegalStateException("unreadable");
    result.appendEvent(3, AccountIntent.CREATED, new AccountValue("a", 0));

    // when
    result.failPartition("first reason", cause);
    result.failPartition("second reason");
    result.appendEvent(3, AccountIntent.CREATED, new AccountValue("b", 0));

    // then
    assertThat(result.partitionFailure().getMessage()).isEqualTo("first reason");
    assertThat(result.partitionFailure().getCause()).isSameAs(cause);
    assertThat(applied).hasSize(1); // only the event appended before the halt
    assertThat(result.applierFailure()).isNull();
  }

  @Test
  void shouldNameTheCommandWhenAHaltHasNoReason() {
    // when
    result.failPartition("  ");

    // then
    assertThat(result.partitionFailure().getMessage())
        .isEqualTo(
            "A processor halted the partition without a reason (partition 1, command at position"
                + " 40, ACCOUNT CREATE)");
  }

  @Test
  void shouldTreatAnApplierFailureAsTheHaltWhenItCameFirst() {
    // given
    ResultCollector failing =
        new ResultCollector(
            1,
            COMMAND,
            RecordProcessors.builder()
                .applier(
                    AccountIntent.CREATED,
                    e -> {
                      throw new IllegalStateException("broken");
                    })
                .build());
    assertThatThrownBy(
            () -> failing.appendEvent(3, AccountIntent.CREATED, new AccountValue("a", 0)))
        .isInstanceOf(EventApplierException.class);

    // when
    failing.failPartition("later reason");

    // then
    assertThat(failing.partitionFailure().getMessage())
        .isEqualTo(failing.applierFailure().getMessage());
    assertThat(failing.partitionFailure().getCause()).isSameAs(failing.applierFailure());
  }

  @Test
  void shouldRejectWithTheCommandsIntentKeyAndValueAndRespond() {
    // when
    result.reject(RejectionType.ALREADY_EXISTS, "exists");

    // then
    Record rejection = result.records().get(0);
    assertThat(rejection.metadata().recordType()).isEqualTo(RecordType.REJECTION);
    assertThat(rejection.metadata().intent()).isEqualTo(AccountIntent.CREATE);
    assertThat(rejection.metadata().key()).isEqualTo(3);
    assertThat(rejection.value()).isEqualTo(COMMAND.value());
    assertThat(result.rejectsCommand()).isTrue();
    assertThat(result.response().metadata().requestId()).isEqualTo(9);
    assertThat(result.response().metadata().requestStreamId()).isEqualTo(2);
    assertThat(result.positionedResponse(100).position()).isEqualTo(100);
  }

  @Test
  void shouldGiveTheResponseThePositionOfTheRecordItMatches() {
    // given
    result.appendCommand(7, AccountIntent.CREATE, new AccountValue("other", 0));
    result.appendEventAndRespond(3, AccountIntent.CREATED, new AccountValue("a", 0));

    // then
    assertThat(result.positionedResponse(50).position()).isEqualTo(51);
    assertThat(result.rejectsCommand()).isFalse();
  }

  @Test
  void shouldLeaveAResponseThatMatchesNoRecordWithoutPosition() {
    result.respondWithEvent(3, AccountIntent.CREATED, new AccountValue("a", 0));

    assertThat(result.positionedResponse(50).position()).isEqualTo(RecordMetadata.NO_POSITION);
  }

  @Test
  void shouldCopyACommandKeepingItsRequestAndCheckpointButNotItsPositions() {
    Record other =
        new Record(
            RecordMetadata.builder()
                .command(AccountIntent.CREATE)
                .position(12)
                .requestId(5)
                .checkpointId(8)
                .build(),
            new AccountValue("b", 0));

    result.appendCommand(other);

    RecordMetadata copy = result.records().get(0).metadata();
    assertThat(copy.position()).isEqualTo(RecordMetadata.NO_POSITION);
    assertThat(copy.sourcePosition()).isEqualTo(40);
    assertThat(copy.requestId()).isEqualTo(5);
    assertThat(copy.checkpointId()).isEqualTo(8);
    Record event =
        new Record(
            RecordMetadata.builder().event(AccountIntent.CREATED).build(),
            new AccountValue("b", 0));
    assertThatThrownBy(() -> result.appendCommand(event))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldRefuseIntentsOfTheWrongKind() {
    assertThatThrownBy(() -> result.appendEvent(1, AccountIntent.CREATE, new AccountValue("a", 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected an event intent in appendEvent, but ACCOUNT CREATE is a command");
    assertThatThrownBy(
            () -> result.prependCommand(1, AccountIntent.CREATED, new AccountValue("a", 0)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> result.appendRejection(RejectionType.NONE, "no"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldShortenReasonsToWhatTheProtocolAllowsWithoutSplittingCharacters() {
    String longReason = "é".repeat(RecordDescriptor.REJECTION_REASON_MAX_BYTES);

    String bounded = ResultCollector.boundedReason(longReason);

    assertThat(bounded.getBytes(StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo(RecordDescriptor.REJECTION_REASON_MAX_BYTES);
    assertThat(bounded).endsWith("...").startsWith("éé");
    assertThat(bounded.substring(0, bounded.length() - 3)).matches("é+");
    assertThat(ResultCollector.boundedReason("short")).isEqualTo("short");
    assertThat(ResultCollector.boundedReason(null)).isEmpty();
  }

  @Test
  void shouldTreatEventApplierNoneAsAnApplierThatChangesNothing() {
    ResultCollector collector =
        new ResultCollector(
            1,
            COMMAND,
            RecordProcessors.builder().applier(AccountIntent.CREATED, EventApplier.NONE).build());

    collector.appendEvent(1, AccountIntent.CREATED, new AccountValue("a", 0));

    assertThat(collector.applierFailure()).isNull();
    assertThat(collector.records()).hasSize(1);
  }
}
