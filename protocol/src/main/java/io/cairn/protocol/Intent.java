package io.cairn.protocol;

/**
 * What a record asks for (a command intent) or states (an event intent). Each {@link ValueType} has
 * its own enum of intents; a code is unique within its value type only and never changes.
 *
 * <p>A {@link RecordType#COMMAND} and a {@link RecordType#REJECTION} carry a command intent; an
 * {@link RecordType#EVENT} carries an event intent.
 */
public sealed interface Intent
    permits AccountIntent, DepositIntent, TransferIntent, CreditIntent, CheckpointIntent {

  /** The stable code written to the binary format, unique within {@link #valueType()}. */
  short code();

  /** {@code true} for event intents, {@code false} for command intents. */
  boolean isEvent();

  /** The value type this intent belongs to. */
  ValueType valueType();

  /** The constant's name, for example {@code CREATED}. */
  String name();

  /**
   * Looks up the intent of a value type by its code.
   *
   * @throws ProtocolException if the value type has no intent with this code
   */
  static Intent of(ValueType valueType, short code) {
    Intent intent =
        switch (valueType) {
          case ACCOUNT -> Intents.find(AccountIntent.values(), code);
          case DEPOSIT -> Intents.find(DepositIntent.values(), code);
          case TRANSFER -> Intents.find(TransferIntent.values(), code);
          case CREDIT -> Intents.find(CreditIntent.values(), code);
          case CHECKPOINT -> Intents.find(CheckpointIntent.values(), code);
        };
    if (intent == null) {
      throw new ProtocolException(
          "Expected an intent code of "
              + valueType
              + " in [0, "
              + (valueType.intents().size() - 1)
              + "], but was "
              + code);
    }
    return intent;
  }
}
