package io.cairn.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Pins the exact bytes of version 1. Records are durable (journal, backups), so a layout change
 * without a version bump must fail here. If this fails after an intended change, bump {@link
 * RecordDescriptor#PROTOCOL_VERSION} and keep a decoder for the old version.
 */
final class EncodingStabilityTest {
  private static final HexFormat HEX = HexFormat.of();

  private static final Record CREDIT_APPLY =
      new Record(
          RecordMetadata.builder()
              .command(CreditIntent.APPLY)
              .position(0x0102030405060708L)
              .sourcePosition(-1)
              .key(0x1122)
              .timestamp(1_700_000_000_000L)
              .requestId(77)
              .requestStreamId(3)
              .checkpointId(5)
              .build(),
          new CreditValue(0x1122, "bö", 250, 1, 2));

  private static final Record CHECKPOINT_REJECTION =
      new Record(
          RecordMetadata.builder()
              .rejection(CheckpointIntent.CREATE, RejectionType.INVALID_STATE, "no")
              .position(9)
              .build(),
          new CheckpointValue(4, 8, 16, HEX.parseHex("00112233445566778899aabbccddeeff")));

  @Test
  void shouldEncodeCreditCommandToPinnedBytes() {
    assertThat(hex(CREDIT_APPLY))
        .isEqualTo(
            "01" // version
                + "01" // record type COMMAND
                + "04" // value type CREDIT
                + "00" // rejection type NONE
                + "0000" // intent APPLY
                + "03000000" // request stream id
                + "0807060504030201" // position
                + "ffffffffffffffff" // source position
                + "2211000000000000" // key
                + "0068e5cf8b010000" // timestamp
                + "4d00000000000000" // request id
                + "0500000000000000" // checkpoint id
                + "00000000" // rejection reason length
                + "1f000000" // value length 31
                + "2211000000000000" // transfer key
                + "fa00000000000000" // amount
                + "01000000" // source partition
                + "02000000" // target partition
                + "03000000" // to account id length
                + "62c3b6"); // "bö"
  }

  @Test
  void shouldEncodeCheckpointRejectionToPinnedBytes() {
    assertThat(hex(CHECKPOINT_REJECTION))
        .isEqualTo(
            "01" // version
                + "03" // record type REJECTION
                + "05" // value type CHECKPOINT
                + "05" // rejection type INVALID_STATE
                + "0000" // intent CREATE
                + "ffffffff" // request stream id
                + "0900000000000000" // position
                + "ffffffffffffffff" // source position
                + "ffffffffffffffff" // key
                + "ffffffffffffffff" // timestamp
                + "ffffffffffffffff" // request id
                + "ffffffffffffffff" // checkpoint id
                + "02000000" // rejection reason length
                + "29000000" // value length 41
                + "6e6f" // "no"
                + "0400000000000000" // checkpoint id
                + "0800000000000000" // checkpoint position
                + "1000000000000000" // timestamp
                + "10" // state digest length
                + "00112233445566778899aabbccddeeff");
  }

  @Test
  void shouldEncodeBatchHeaderToPinnedBytes() {
    Record second =
        new Record(
            CREDIT_APPLY.metadata().toBuilder().position(0x0102030405060709L).build(),
            CREDIT_APPLY.value());
    RecordBatch batch = RecordBatch.of(CREDIT_APPLY, second);
    byte[] bytes = new byte[RecordBatchCodec.encodedLength(batch)];
    RecordBatchCodec.encode(batch, new UnsafeBuffer(bytes), 0);

    assertThat(HEX.formatHex(bytes, 0, RecordBatchDescriptor.HEADER_LENGTH))
        .isEqualTo(
            "01" // version
                + "02000000" // record count
                + "0807060504030201" // lowest position
                + "0907060504030201"); // highest position
    assertThat(HEX.formatHex(bytes, RecordBatchDescriptor.HEADER_LENGTH, bytes.length))
        .isEqualTo(hex(CREDIT_APPLY) + hex(second));
  }

  private static String hex(Record record) {
    byte[] bytes = new byte[RecordCodec.encodedLength(record)];
    RecordCodec.encode(record, new UnsafeBuffer(bytes), 0);
    return HEX.formatHex(bytes);
  }
}
