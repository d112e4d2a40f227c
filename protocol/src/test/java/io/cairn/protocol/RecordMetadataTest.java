package io.cairn.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class RecordMetadataTest {

  @Test
  void shouldDefaultOptionalFieldsToNone() {
    RecordMetadata metadata = RecordMetadata.builder().command(AccountIntent.CREATE).build();

    assertThat(metadata.position()).isEqualTo(RecordMetadata.NO_POSITION);
    assertThat(metadata.sourcePosition()).isEqualTo(RecordMetadata.NO_POSITION);
    assertThat(metadata.key()).isEqualTo(RecordMetadata.NO_KEY);
    assertThat(metadata.timestamp()).isEqualTo(RecordMetadata.NO_TIMESTAMP);
    assertThat(metadata.requestId()).isEqualTo(RecordMetadata.NO_REQUEST_ID);
    assertThat(metadata.requestStreamId()).isEqualTo(RecordMetadata.NO_REQUEST_STREAM_ID);
    assertThat(metadata.checkpointId()).isEqualTo(RecordMetadata.NO_CHECKPOINT_ID);
    assertThat(metadata.rejectionType()).isEqualTo(RejectionType.NONE);
    assertThat(metadata.rejectionReason()).isEmpty();
    assertThat(metadata.valueType()).isEqualTo(ValueType.ACCOUNT);
  }

  @Test
  void shouldRejectEventIntentInCommand() {
    assertThatThrownBy(() -> RecordMetadata.builder().command(AccountIntent.CREATED).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected a command intent in a COMMAND, but was ACCOUNT CREATED");
  }

  @Test
  void shouldRejectCommandIntentInEvent() {
    assertThatThrownBy(() -> RecordMetadata.builder().event(CreditIntent.ACK).build())
        .hasMessage("Expected an event intent in an EVENT, but was CREDIT ACK");
  }

  @Test
  void shouldRejectRejectionWithoutType() {
    assertThatThrownBy(
            () ->
                RecordMetadata.builder()
                    .rejection(TransferIntent.CREATE, RejectionType.NONE, "why")
                    .build())
        .hasMessage("Expected a rejection type other than NONE in a REJECTION, but was NONE");
  }

  @Test
  void shouldRejectRejectionOfEventIntent() {
    assertThatThrownBy(
            () ->
                RecordMetadata.builder()
                    .rejection(TransferIntent.DEBITED, RejectionType.NOT_FOUND, "")
                    .build())
        .hasMessage(
            "Expected the rejected command's intent in a REJECTION, but was the event intent"
                + " TRANSFER DEBITED");
  }

  @Test
  void shouldRejectReasonOnEvent() {
    assertThatThrownBy(
            () ->
                RecordMetadata.builder()
                    .event(DepositIntent.DEPOSITED)
                    .rejection(RejectionType.NONE, "not a rejection")
                    .build())
        .hasMessage(
            "Expected rejection type NONE and no reason in an EVENT, but was NONE with a reason");
  }

  @Test
  void shouldRejectValueOfAnotherType() {
    RecordMetadata metadata = RecordMetadata.builder().command(AccountIntent.CREATE).build();

    assertThatThrownBy(() -> new Record(metadata, new DepositValue("a", 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected a value of type ACCOUNT (intent CREATE), but was DEPOSIT");
  }

  @Test
  void shouldCopyCheckpointDigestInAndOut() {
    byte[] digest = new byte[16];
    CheckpointValue value = new CheckpointValue(1, 2, 3, digest);

    digest[0] = 42;
    value.stateDigest()[1] = 42;

    assertThat(value.stateDigest()).containsOnly(0);
    assertThat(value).isEqualTo(new CheckpointValue(1, 2, 3, new byte[16]));
    assertThat(value).isNotEqualTo(new CheckpointValue(1, 2, 3));
  }
}
