package io.cairn.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.protocol.buffer.BufferReader;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Decoding and encoding rules of single records, one rule per test. */
final class RecordCodecTest {
  private static final Record DEPOSIT =
      new Record(
          RecordMetadata.builder()
              .command(DepositIntent.DEPOSIT)
              .position(7)
              .timestamp(1_700_000_000_000L)
              .build(),
          new DepositValue("alice", 100));

  /** Offset of the account id length inside an encoded DEPOSIT record. */
  private static final int ACCOUNT_ID_LENGTH_OFFSET = RecordDescriptor.HEADER_LENGTH + Long.BYTES;

  private static final int ACCOUNT_ID_OFFSET = ACCOUNT_ID_LENGTH_OFFSET + Integer.BYTES;

  @Test
  void shouldRejectUnknownVersion() {
    UnsafeBuffer buffer = encode(DEPOSIT);
    buffer.putByte(RecordDescriptor.VERSION_OFFSET, (byte) 7);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, buffer.capacity()))
        .isInstanceOf(ProtocolException.class)
        .hasMessage("Expected protocol version 1, but was 7 (offset 0)");
  }

  @Test
  void shouldRejectUnknownVersionEvenWhenTruncated() {
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[] {9, 1, 2});

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, 3))
        .hasMessage("Expected protocol version 1, but was 9 (offset 0)");
  }

  @Test
  void shouldRejectTruncatedMetadataNamingLengthAndOffset() {
    UnsafeBuffer buffer = encode(DEPOSIT);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, 17))
        .isInstanceOf(ProtocolException.class)
        .hasMessage("Expected at least 66 bytes for record metadata, but buffer has 17 (offset 0)");
  }

  @Test
  void shouldReportAbsoluteOffsetOfTruncatedRecord() {
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[200]);
    int length = RecordCodec.encode(DEPOSIT, buffer, 100);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 100, length - 1))
        .hasMessage(
            "Expected at least 17 bytes for rejection reason and value, but buffer has 16 (offset"
                + " 166)");
  }

  @Test
  void shouldRejectEmptyInput() {
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[0]);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, 0))
        .hasMessage("Expected at least 66 bytes for record metadata, but buffer has 0 (offset 0)");
  }

  @Test
  void shouldRejectUnknownValueType() {
    UnsafeBuffer buffer = encode(DEPOSIT);
    buffer.putByte(RecordDescriptor.VALUE_TYPE_OFFSET, (byte) 42);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, buffer.capacity()))
        .isInstanceOf(ProtocolException.class)
        .hasMessage("Expected a value type code in [1, 5], but was 42 (offset 2)");
  }

  @Test
  void shouldRejectUnknownRecordType() {
    UnsafeBuffer buffer = encode(DEPOSIT);
    buffer.putByte(RecordDescriptor.RECORD_TYPE_OFFSET, (byte) 0);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessage(
            "Expected a record type code (1 COMMAND, 2 EVENT, 3 REJECTION), but was 0 (offset 1)");
  }

  @Test
  void shouldRejectUnknownRejectionType() {
    UnsafeBuffer buffer = encode(DEPOSIT);
    buffer.putByte(RecordDescriptor.REJECTION_TYPE_OFFSET, (byte) 200);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessage("Expected a rejection type code in [0, 6], but was 200 (offset 3)");
  }

  @Test
  void shouldRejectUnknownIntentCode() {
    UnsafeBuffer buffer = encode(DEPOSIT);
    buffer.putShort(RecordDescriptor.INTENT_OFFSET, (short) 9, BufferReader.BYTE_ORDER);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, buffer.capacity()))
        .isInstanceOf(ProtocolException.class)
        .hasMessage("Expected an intent code of DEPOSIT in [0, 1], but was 9 (offset 4)");
  }

  @Test
  void shouldRejectEventIntentInCommand() {
    UnsafeBuffer buffer = encode(DEPOSIT);
    buffer.putShort(
        RecordDescriptor.INTENT_OFFSET, DepositIntent.DEPOSITED.code(), BufferReader.BYTE_ORDER);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessage(
            "Expected a command intent in a COMMAND, but was DEPOSIT DEPOSITED (record at offset"
                + " 0)");
  }

  @Test
  void shouldRejectRejectionTypeInCommand() {
    UnsafeBuffer buffer = encode(DEPOSIT);
    buffer.putByte(RecordDescriptor.REJECTION_TYPE_OFFSET, (byte) RejectionType.NOT_FOUND.code());

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessageStartingWith("Expected rejection type NONE and no reason in a COMMAND");
  }

  @Test
  void shouldRejectNegativeValueLength() {
    UnsafeBuffer buffer = encode(DEPOSIT);
    buffer.putInt(RecordDescriptor.VALUE_LENGTH_OFFSET, -1, BufferReader.BYTE_ORDER);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessage("Expected value length >= 0, but was -1 (offset 62)");
  }

  @Test
  void shouldRejectNegativeRejectionReasonLength() {
    UnsafeBuffer buffer = encode(DEPOSIT);
    buffer.putInt(RecordDescriptor.REJECTION_REASON_LENGTH_OFFSET, -5, BufferReader.BYTE_ORDER);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessage("Expected rejection reason length in [0, 4096] bytes, but was -5 (offset 58)");
  }

  @Test
  void shouldRejectNegativeAccountIdLength() {
    UnsafeBuffer buffer = encode(DEPOSIT);
    buffer.putInt(ACCOUNT_ID_LENGTH_OFFSET, -3, BufferReader.BYTE_ORDER);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessage("Expected account id length in [1, 128] bytes, but was -3 (offset 74)");
  }

  @Test
  void shouldRejectAccountIdLongerThanTheValue() {
    UnsafeBuffer buffer = encode(DEPOSIT);
    buffer.putInt(ACCOUNT_ID_LENGTH_OFFSET, 100, BufferReader.BYTE_ORDER);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessage("Expected at least 100 bytes for account id, but buffer has 5 (offset 78)");
  }

  @Test
  void shouldRejectTrailingBytesInValue() {
    ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();
    int length = RecordCodec.encode(DEPOSIT, buffer, 0);
    int valueLength = length - RecordDescriptor.HEADER_LENGTH;
    buffer.putInt(RecordDescriptor.VALUE_LENGTH_OFFSET, valueLength + 2, BufferReader.BYTE_ORDER);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, length + 2))
        .hasMessage("Expected DEPOSIT value to end at offset 83, but 2 more bytes follow");
  }

  @Test
  void shouldRejectTrailingBytesAfterRecord() {
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[200]);
    int length = RecordCodec.encode(DEPOSIT, buffer, 0);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, length + 1))
        .hasMessage("Expected record to end at offset 83, but 1 more bytes follow");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "c328", // 2-byte lead followed by ASCII
        "c0af", // overlong '/'
        "eda080", // encoded surrogate U+D800
        "f4908080", // beyond U+10FFFF
        "e282", // truncated 3-byte sequence
        "ff" // never valid
      })
  void shouldRejectInvalidUtf8InAccountId(String hexBytes) {
    byte[] invalid = HexFormat.of().parseHex(hexBytes);
    Record record =
        new Record(DEPOSIT.metadata(), new DepositValue("x".repeat(invalid.length), 100));
    UnsafeBuffer buffer = encode(record);
    buffer.putBytes(ACCOUNT_ID_OFFSET, invalid);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, buffer.capacity()))
        .isInstanceOf(ProtocolException.class)
        .hasMessageStartingWith(
            "Expected valid UTF-8 in account id, but found a malformed" + " sequence");
  }

  @Test
  void shouldRejectInvalidUtf8InRejectionReason() {
    Record rejection =
        new Record(
            RecordMetadata.builder()
                .rejection(DepositIntent.DEPOSIT, RejectionType.NOT_FOUND, "ab")
                .build(),
            new DepositValue("bob", 1));
    UnsafeBuffer buffer = encode(rejection);
    buffer.putByte(RecordDescriptor.HEADER_LENGTH + 1, (byte) 0x80);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessage(
            "Expected valid UTF-8 in rejection reason, but found a malformed sequence at offset"
                + " 67");
  }

  @Test
  void shouldRoundTripMaximumLengths() {
    String maxId = "é".repeat(ValueDescriptor.ACCOUNT_ID_MAX_BYTES / 2);
    String maxReason = "\uD83D\uDE00".repeat(RecordDescriptor.REJECTION_REASON_MAX_BYTES / 4);
    Record record =
        new Record(
            RecordMetadata.builder()
                .rejection(TransferIntent.CREATE, RejectionType.INSUFFICIENT_FUNDS, maxReason)
                .build(),
            new TransferValue(maxId, maxId, 5, 1, 2));
    UnsafeBuffer buffer = encode(record);

    assertThat(RecordCodec.decode(buffer, 0, buffer.capacity())).isEqualTo(record);
    assertThat(buffer.capacity())
        .isEqualTo(
            RecordDescriptor.HEADER_LENGTH
                + RecordDescriptor.REJECTION_REASON_MAX_BYTES
                + 8
                + 4
                + 4
                + 2 * (4 + ValueDescriptor.ACCOUNT_ID_MAX_BYTES));
  }

  @Test
  void shouldRefuseToEncodeOversizeAccountId() {
    String tooLong = "a".repeat(ValueDescriptor.ACCOUNT_ID_MAX_BYTES + 1);
    Record record = new Record(DEPOSIT.metadata(), new DepositValue(tooLong, 1));

    assertThatThrownBy(() -> RecordCodec.encodedLength(record))
        .isInstanceOf(ProtocolException.class)
        .hasMessage("Expected account id of 1 to 128 bytes of UTF-8, but was 129 bytes");
  }

  @Test
  void shouldCountAccountIdBoundInBytesNotChars() {
    String sixtyFiveTwoByteChars = "é".repeat(65);
    Record record = new Record(DEPOSIT.metadata(), new DepositValue(sixtyFiveTwoByteChars, 1));

    assertThatThrownBy(() -> RecordCodec.encode(record, new ExpandableArrayBuffer(), 0))
        .hasMessage("Expected account id of 1 to 128 bytes of UTF-8, but was 130 bytes");
  }

  @Test
  void shouldRefuseToEncodeEmptyAccountId() {
    Record record = new Record(DEPOSIT.metadata(), new DepositValue("", 1));

    assertThatThrownBy(() -> RecordCodec.encodedLength(record))
        .hasMessage("Expected account id of 1 to 128 bytes of UTF-8, but was 0 bytes");
  }

  @Test
  void shouldRejectOversizeAccountIdLengthOnDecode() {
    Record record = new Record(DEPOSIT.metadata(), new DepositValue("a".repeat(128), 1));
    UnsafeBuffer buffer = encode(record);
    buffer.putInt(ACCOUNT_ID_LENGTH_OFFSET, 129, BufferReader.BYTE_ORDER);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessage("Expected account id length in [1, 128] bytes, but was 129 (offset 74)");
  }

  @Test
  void shouldRefuseToEncodeOversizeRejectionReason() {
    Record record =
        new Record(
            RecordMetadata.builder()
                .rejection(DepositIntent.DEPOSIT, RejectionType.INVALID_ARGUMENT, "r".repeat(4097))
                .build(),
            new DepositValue("alice", -1));

    assertThatThrownBy(() -> RecordCodec.encodedLength(record))
        .hasMessageStartingWith(
            "Expected a rejection reason of at most 4096 bytes of UTF-8, but was 4097 bytes");
  }

  @Test
  void shouldRefuseToEncodeUnpairedSurrogate() {
    Record record = new Record(DEPOSIT.metadata(), new DepositValue("a\uD800b", 1));

    assertThatThrownBy(() -> RecordCodec.encodedLength(record))
        .hasMessage(
            "Expected well-formed text in account id, but found an unpaired surrogate at index"
                + " 1");
  }

  @Test
  void shouldRefuseToEncodeStateDigestOfWrongLength() {
    Record record =
        new Record(
            RecordMetadata.builder().event(CheckpointIntent.CREATED).build(),
            new CheckpointValue(3, 10, 1_000, new byte[20]));

    assertThatThrownBy(() -> RecordCodec.encodedLength(record))
        .hasMessage(
            "Expected a state digest length of 0 or [16, 32] bytes, but was 20 (checkpoint 3)");
  }

  @Test
  void shouldRejectStateDigestOfWrongLengthOnDecode() {
    Record record =
        new Record(
            RecordMetadata.builder().event(CheckpointIntent.CREATED).build(),
            new CheckpointValue(3, 10, 1_000, new byte[16]));
    UnsafeBuffer buffer = encode(record);
    int digestLengthOffset = RecordDescriptor.HEADER_LENGTH + 3 * Long.BYTES;
    buffer.putByte(digestLengthOffset, (byte) 15);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessage(
            "Expected a state digest length of 0 or [16, 32] bytes, but was 15 (offset 90)");
  }

  @Test
  void shouldRefuseToEncodeIntoTooSmallBufferWithoutWriting() {
    byte[] bytes = new byte[RecordCodec.encodedLength(DEPOSIT) - 1];
    UnsafeBuffer buffer = new UnsafeBuffer(bytes);

    assertThatThrownBy(() -> RecordCodec.encode(DEPOSIT, buffer, 0))
        .isInstanceOf(ProtocolException.class)
        .hasMessage(
            "Expected a buffer with at least 83 bytes from offset 0 for record, but its capacity"
                + " is 82");
    assertThat(bytes).containsOnly(0);
  }

  @Test
  void shouldGrowExpandableBuffer() {
    ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(8);

    int length = RecordCodec.encode(DEPOSIT, buffer, 10);

    assertThat(RecordCodec.decode(buffer, 10, length)).isEqualTo(DEPOSIT);
  }

  @Test
  void shouldRejectRangeBeyondCapacity() {
    UnsafeBuffer buffer = encode(DEPOSIT);

    assertThatThrownBy(() -> RecordCodec.decode(buffer, 10, buffer.capacity()))
        .hasMessage(
            "Expected a range within the buffer's capacity of 83 bytes, but was offset 10 and"
                + " length 83");
    assertThatThrownBy(() -> RecordCodec.decode(buffer, Integer.MAX_VALUE, Integer.MAX_VALUE))
        .isInstanceOf(ProtocolException.class);
    assertThatThrownBy(() -> RecordCodec.decode(buffer, -1, 10))
        .isInstanceOf(ProtocolException.class);
  }

  @Test
  void shouldDecodeNonAsciiText() {
    Record record =
        new Record(
            RecordMetadata.builder()
                .rejection(
                    DepositIntent.DEPOSIT, RejectionType.NOT_FOUND, "Konto \"Ünal\" fehlt 🙂")
                .build(),
            new DepositValue("Ünal-口座-🙂", 1));

    UnsafeBuffer buffer = encode(record);

    assertThat(RecordCodec.decode(buffer, 0, buffer.capacity())).isEqualTo(record);
    assertThat(
            buffer.getInt(RecordDescriptor.REJECTION_REASON_LENGTH_OFFSET, BufferReader.BYTE_ORDER))
        .isEqualTo("Konto \"Ünal\" fehlt 🙂".getBytes(StandardCharsets.UTF_8).length);
  }

  private static UnsafeBuffer encode(Record record) {
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[RecordCodec.encodedLength(record)]);
    RecordCodec.encode(record, buffer, 0);
    return buffer;
  }
}
