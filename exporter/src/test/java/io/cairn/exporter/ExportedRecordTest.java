package io.cairn.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RejectionType;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ExportedRecordTest {

  @Test
  void shouldShowTheValueAsItsFieldsAndTheRecordInAFixedOrder() {
    // given
    Record record =
        new Record(
            RecordMetadata.builder()
                .position(42)
                .sourcePosition(40)
                .key(7)
                .timestamp(1_000)
                .event(TransferIntent.DEBITED)
                .build(),
            new TransferValue("alice", "bob", 250, 1, 2));

    // when
    ExportedRecord exported = new ExportedRecord(3, record);

    // then
    assertThat(exported.value())
        .containsExactly(
            java.util.Map.entry("fromAccountId", "alice"),
            java.util.Map.entry("toAccountId", "bob"),
            java.util.Map.entry("amount", 250L),
            java.util.Map.entry("sourcePartitionId", 1),
            java.util.Map.entry("targetPartitionId", 2));
    assertThat(List.copyOf(exported.toMap().keySet()))
        .containsExactly(
            "partitionId",
            "position",
            "sourcePosition",
            "key",
            "timestamp",
            "recordType",
            "valueType",
            "intent",
            "value");
    assertThat(exported.toMap())
        .containsEntry("partitionId", 3)
        .containsEntry("position", 42L)
        .containsEntry("recordType", "EVENT")
        .containsEntry("valueType", "TRANSFER")
        .containsEntry("intent", "DEBITED");
  }

  @Test
  void shouldCarryTheRejectionOfARejectedCommandAndShowBytesAsHex() {
    Record rejection =
        new Record(
            RecordMetadata.builder()
                .position(5)
                .rejection(CheckpointIntent.CREATE, RejectionType.INVALID_ARGUMENT, "too low")
                .build(),
            new CheckpointValue(9, 5, 100, new byte[] {0x0a, (byte) 0xff}));

    ExportedRecord exported = new ExportedRecord(1, rejection);

    assertThat(exported.toMap())
        .containsEntry("rejectionType", "INVALID_ARGUMENT")
        .containsEntry("rejectionReason", "too low");
    assertThat(exported.value()).containsEntry("stateDigest", "0aff");
  }
}
