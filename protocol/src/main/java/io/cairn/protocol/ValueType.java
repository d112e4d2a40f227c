package io.cairn.protocol;

import java.util.List;

/**
 * The kind of value a record carries. Engine value types belong to the ledger; {@link #CHECKPOINT}
 * is handled by its own, non-engine processor. The codes are part of the binary format and never
 * change (0 is never used, so zeroed memory does not decode).
 */
public enum ValueType {
  /** {@link AccountValue}, intents {@link AccountIntent}. */
  ACCOUNT(1, true),
  /** {@link DepositValue}, intents {@link DepositIntent}. */
  DEPOSIT(2, true),
  /** {@link TransferValue}, intents {@link TransferIntent}. */
  TRANSFER(3, true),
  /** {@link CreditValue}, intents {@link CreditIntent}. */
  CREDIT(4, true),
  /** {@link CheckpointValue}, intents {@link CheckpointIntent}; not an engine value type. */
  CHECKPOINT(5, false);

  private static final ValueType[] BY_CODE = new ValueType[6];

  static {
    for (ValueType type : values()) {
      BY_CODE[type.code] = type;
    }
  }

  private final int code;
  private final boolean engineType;

  ValueType(int code, boolean engineType) {
    this.code = code;
    this.engineType = engineType;
  }

  /** The stable code written to the binary format (an unsigned byte). */
  public int code() {
    return code;
  }

  /** Whether records of this type are processed by the ledger engine. */
  public boolean isEngineType() {
    return engineType;
  }

  /** Every intent of this value type, commands and events, in code order. */
  public List<Intent> intents() {
    return switch (this) {
      case ACCOUNT -> List.of(AccountIntent.values());
      case DEPOSIT -> List.of(DepositIntent.values());
      case TRANSFER -> List.of(TransferIntent.values());
      case CREDIT -> List.of(CreditIntent.values());
      case CHECKPOINT -> List.of(CheckpointIntent.values());
    };
  }

  /**
   * @throws ProtocolException if no value type has this code
   */
  public static ValueType fromCode(int code) {
    if (code < 0 || code >= BY_CODE.length || BY_CODE[code] == null) {
      throw new ProtocolException(
          "Expected a value type code in [1, " + (BY_CODE.length - 1) + "], but was " + code);
    }
    return BY_CODE[code];
  }
}
