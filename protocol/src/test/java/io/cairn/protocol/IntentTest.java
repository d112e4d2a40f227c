package io.cairn.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The codes are part of the binary format: these tests pin them, so changing one fails here instead
 * of silently misreading records written before.
 */
final class IntentTest {

  @Test
  void shouldKeepStableIntentCodes() {
    Map<String, Integer> codes = new LinkedHashMap<>();
    for (ValueType valueType : ValueType.values()) {
      for (Intent intent : valueType.intents()) {
        codes.put(
            valueType + "." + intent.name() + (intent.isEvent() ? "(event)" : "(command)"),
            (int) intent.code());
      }
    }

    assertThat(codes)
        .containsExactly(
            Map.entry("ACCOUNT.CREATE(command)", 0),
            Map.entry("ACCOUNT.CREATED(event)", 1),
            Map.entry("DEPOSIT.DEPOSIT(command)", 0),
            Map.entry("DEPOSIT.DEPOSITED(event)", 1),
            Map.entry("TRANSFER.CREATE(command)", 0),
            Map.entry("TRANSFER.DEBITED(event)", 1),
            Map.entry("TRANSFER.COMPLETED(event)", 2),
            Map.entry("TRANSFER.REFUNDED(event)", 3),
            Map.entry("CREDIT.APPLY(command)", 0),
            Map.entry("CREDIT.APPLIED(event)", 1),
            Map.entry("CREDIT.IGNORED(event)", 2),
            Map.entry("CREDIT.ACK(command)", 3),
            Map.entry("CREDIT.ACKNOWLEDGED(event)", 4),
            Map.entry("CREDIT.REFUSED(event)", 5),
            Map.entry("CREDIT.REFUND(command)", 6),
            Map.entry("CHECKPOINT.CREATE(command)", 0),
            Map.entry("CHECKPOINT.CREATED(event)", 1),
            Map.entry("CHECKPOINT.IGNORED(event)", 2),
            Map.entry("CHECKPOINT.CONFIRM_BACKUP(command)", 3),
            Map.entry("CHECKPOINT.CONFIRMED_BACKUP(event)", 4),
            Map.entry("CHECKPOINT.DELETE_BACKUP(command)", 5),
            Map.entry("CHECKPOINT.DELETING_BACKUP(event)", 6),
            Map.entry("CHECKPOINT.CONFIRM_DELETION(command)", 7),
            Map.entry("CHECKPOINT.DELETED_BACKUP(event)", 8),
            Map.entry("CHECKPOINT.MARK(command)", 9));
  }

  @Test
  void shouldKeepStableTypeCodes() {
    assertThat(codesOf(RecordType.values(), RecordType::code))
        .isEqualTo("COMMAND=1 EVENT=2 REJECTION=3");
    assertThat(codesOf(ValueType.values(), ValueType::code))
        .isEqualTo("ACCOUNT=1 DEPOSIT=2 TRANSFER=3 CREDIT=4 CHECKPOINT=5");
    assertThat(codesOf(RejectionType.values(), RejectionType::code))
        .isEqualTo(
            "NONE=0 INVALID_ARGUMENT=1 NOT_FOUND=2 ALREADY_EXISTS=3 INSUFFICIENT_FUNDS=4"
                + " INVALID_STATE=5 PROCESSING_ERROR=6");
  }

  @ParameterizedTest
  @EnumSource(ValueType.class)
  void shouldLookUpEveryIntentByItsCode(ValueType valueType) {
    for (Intent intent : valueType.intents()) {
      assertThat(Intent.of(valueType, intent.code())).isSameAs(intent);
      assertThat(intent.valueType()).isSameAs(valueType);
    }
    assertThat(valueType.intents()).anyMatch(Intent::isEvent).anyMatch(i -> !i.isEvent());
  }

  @Test
  void shouldRejectUnknownIntentCode() {
    assertThatThrownBy(() -> Intent.of(ValueType.TRANSFER, (short) 4))
        .isInstanceOf(ProtocolException.class)
        .hasMessage("Expected an intent code of TRANSFER in [0, 3], but was 4");
    assertThatThrownBy(() -> Intent.of(ValueType.ACCOUNT, (short) -1))
        .isInstanceOf(ProtocolException.class);
  }

  @Test
  void shouldRejectUnknownTypeCodes() {
    assertThatThrownBy(() -> ValueType.fromCode(0)).isInstanceOf(ProtocolException.class);
    assertThatThrownBy(() -> RecordType.fromCode(4)).isInstanceOf(ProtocolException.class);
    assertThatThrownBy(() -> RejectionType.fromCode(-1)).isInstanceOf(ProtocolException.class);
    assertThat(ValueType.fromCode(5)).isEqualTo(ValueType.CHECKPOINT);
  }

  @Test
  void shouldMarkOnlyCheckpointAsNonEngineType() {
    assertThat(ValueType.values())
        .filteredOn(type -> !type.isEngineType())
        .containsExactly(ValueType.CHECKPOINT);
  }

  private static <E extends Enum<E>> String codesOf(E[] values, ToIntFunction<E> code) {
    return Arrays.stream(values)
        .map(value -> value.name() + "=" + code.applyAsInt(value))
        .collect(Collectors.joining(" "));
  }
}
