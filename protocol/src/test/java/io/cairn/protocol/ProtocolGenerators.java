package io.cairn.protocol;

import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/** QuickTheories generators of valid protocol values, records and batches. */
final class ProtocolGenerators {
  private static final int SURROGATE_COUNT = Character.MAX_SURROGATE - Character.MIN_SURROGATE + 1;

  private ProtocolGenerators() {}

  /** Any Unicode scalar value: every code point but the surrogates. */
  static Gen<Integer> scalarValues() {
    return integers()
        .between(0, Character.MAX_CODE_POINT - SURROGATE_COUNT)
        .map(cp -> cp < Character.MIN_SURROGATE ? cp : cp + SURROGATE_COUNT);
  }

  /** Strings of {@code minCodePoints..maxCodePoints} scalar values; mostly non-ASCII. */
  static Gen<String> unicodeStrings(int minCodePoints, int maxCodePoints) {
    Gen<Integer> lengths = integers().between(minCodePoints, maxCodePoints);
    Gen<Integer> codePoints = Generate.oneOf(scalarValues(), integers().between(0, 0x7F));
    return in -> {
      int length = lengths.generate(in);
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < length; i++) {
        text.appendCodePoint(codePoints.generate(in));
      }
      return text.toString();
    };
  }

  /** ASCII strings of exactly {@code minLength..maxLength} bytes. */
  static Gen<String> asciiStrings(int minLength, int maxLength) {
    Gen<Integer> lengths = integers().between(minLength, maxLength);
    Gen<Integer> chars = integers().between(0, 0x7F);
    return in -> {
      int length = lengths.generate(in);
      char[] text = new char[length];
      for (int i = 0; i < length; i++) {
        text[i] = (char) (int) chars.generate(in);
      }
      return new String(text);
    };
  }

  /**
   * Valid account ids: 1 to 128 bytes of UTF-8 (up to 32 code points of at most 4 bytes each, or
   * ASCII up to the exact maximum).
   */
  static Gen<String> accountIds() {
    return Generate.oneOf(
        unicodeStrings(1, 32), asciiStrings(1, ValueDescriptor.ACCOUNT_ID_MAX_BYTES));
  }

  static Gen<Integer> partitionIds() {
    return Generate.oneOf(integers().between(1, 64), integers().all(), Generate.constant(-1));
  }

  static Gen<AccountValue> accountValues() {
    return accountIds().zip(longs().all(), AccountValue::new);
  }

  static Gen<DepositValue> depositValues() {
    return accountIds().zip(longs().all(), DepositValue::new);
  }

  static Gen<TransferValue> transferValues() {
    Gen<String> ids = accountIds();
    Gen<Long> amounts = longs().all();
    Gen<Integer> partitions = partitionIds();
    return in ->
        new TransferValue(
            ids.generate(in),
            ids.generate(in),
            amounts.generate(in),
            partitions.generate(in),
            partitions.generate(in));
  }

  static Gen<CreditValue> creditValues() {
    Gen<String> ids = accountIds();
    Gen<Long> numbers = longs().all();
    Gen<Integer> partitions = partitionIds();
    return in ->
        new CreditValue(
            numbers.generate(in),
            ids.generate(in),
            numbers.generate(in),
            partitions.generate(in),
            partitions.generate(in));
  }

  static Gen<byte[]> stateDigests() {
    Gen<Integer> lengths = Generate.pick(List.of(0, 16, 32));
    Gen<Integer> bytes = integers().between(Byte.MIN_VALUE, Byte.MAX_VALUE);
    return in -> {
      byte[] digest = new byte[lengths.generate(in)];
      for (int i = 0; i < digest.length; i++) {
        digest[i] = (byte) (int) bytes.generate(in);
      }
      return digest;
    };
  }

  static Gen<CheckpointValue> checkpointValues() {
    Gen<Long> numbers = longs().all();
    Gen<byte[]> digests = stateDigests();
    return in ->
        new CheckpointValue(
            numbers.generate(in), numbers.generate(in), numbers.generate(in), digests.generate(in));
  }

  static Gen<RecordValue> values(ValueType valueType) {
    return switch (valueType) {
      case ACCOUNT -> accountValues().map(v -> v);
      case DEPOSIT -> depositValues().map(v -> v);
      case TRANSFER -> transferValues().map(v -> v);
      case CREDIT -> creditValues().map(v -> v);
      case CHECKPOINT -> checkpointValues().map(v -> v);
    };
  }

  static Gen<String> rejectionReasons() {
    return Generate.oneOf(
        unicodeStrings(0, 64),
        asciiStrings(0, RecordDescriptor.REJECTION_REASON_MAX_BYTES),
        Generate.constant(""));
  }

  /** Metadata of a given value type with every field set; type, intent and rejection consistent. */
  static Gen<RecordMetadata> metadata(ValueType valueType) {
    Gen<RecordType> recordTypes = Generate.enumValues(RecordType.class);
    Gen<RejectionType> rejectionTypes =
        Generate.pick(
            Arrays.stream(RejectionType.values()).filter(t -> t != RejectionType.NONE).toList());
    Gen<Long> numbers = Generate.oneOf(longs().all(), longs().between(-1, 1000));
    Gen<Integer> streamIds = Generate.oneOf(integers().all(), Generate.constant(-1));
    Gen<String> reasons = rejectionReasons();
    Gen<Intent> commands =
        Generate.pick(valueType.intents().stream().filter(i -> !i.isEvent()).toList());
    Gen<Intent> events =
        Generate.pick(valueType.intents().stream().filter(Intent::isEvent).toList());
    return in -> {
      RecordType recordType = recordTypes.generate(in);
      RecordMetadata.Builder builder =
          RecordMetadata.builder()
              .position(numbers.generate(in))
              .sourcePosition(numbers.generate(in))
              .key(numbers.generate(in))
              .timestamp(numbers.generate(in))
              .requestId(numbers.generate(in))
              .requestStreamId(streamIds.generate(in))
              .checkpointId(numbers.generate(in));
      return switch (recordType) {
        case COMMAND -> builder.command(commands.generate(in)).build();
        case EVENT -> builder.event(events.generate(in)).build();
        case REJECTION ->
            builder
                .rejection(commands.generate(in), rejectionTypes.generate(in), reasons.generate(in))
                .build();
      };
    };
  }

  static Gen<Record> records(ValueType valueType) {
    return metadata(valueType).zip(values(valueType), Record::new);
  }

  static Gen<Record> records() {
    Gen<ValueType> valueTypes = Generate.enumValues(ValueType.class);
    return in -> records(valueTypes.generate(in)).generate(in);
  }

  /** Batches of 1..maxRecords records of any type with strictly increasing positions. */
  static Gen<RecordBatch> batches(int maxRecords) {
    Gen<Integer> sizes = integers().between(1, maxRecords);
    Gen<Record> records = records();
    Gen<Long> firstPositions =
        Generate.oneOf(longs().between(-1, 1_000), longs().between(-1, Long.MAX_VALUE / 2));
    Gen<Long> gaps = Generate.oneOf(Generate.constant(1L), longs().between(1, 1 << 20));
    return in -> {
      int size = sizes.generate(in);
      long position = firstPositions.generate(in);
      List<Record> batch = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        Record record = records.generate(in);
        batch.add(
            new Record(record.metadata().toBuilder().position(position).build(), record.value()));
        position += gaps.generate(in);
      }
      return new RecordBatch(batch);
    };
  }
}
