package io.cairn.protocol;

import static io.cairn.protocol.ValueDescriptor.ACCOUNT_ID_MAX_BYTES;
import static io.cairn.protocol.ValueDescriptor.ACCOUNT_ID_MIN_BYTES;

import io.cairn.protocol.buffer.BufferReader;
import io.cairn.protocol.buffer.BufferWriter;
import io.cairn.protocol.buffer.Utf8;

/** Encodes and decodes the values laid out in {@link ValueDescriptor}. Stateless. */
final class ValueCodec {
  private static final String ACCOUNT_ID = "account id";
  private static final String FROM_ACCOUNT_ID = "from account id";
  private static final String TO_ACCOUNT_ID = "to account id";

  private ValueCodec() {}

  /**
   * The encoded length of {@code value}.
   *
   * @throws ProtocolException if a field is outside the bounds of its layout
   */
  static int encodedLength(RecordValue value) {
    return switch (value.valueType()) {
      case ACCOUNT ->
          ValueDescriptor.ACCOUNT_FIXED_LENGTH
              + accountIdLength(((AccountValue) value).accountId(), ACCOUNT_ID);
      case DEPOSIT ->
          ValueDescriptor.DEPOSIT_FIXED_LENGTH
              + accountIdLength(((DepositValue) value).accountId(), ACCOUNT_ID);
      case TRANSFER -> {
        TransferValue transfer = (TransferValue) value;
        yield ValueDescriptor.TRANSFER_FIXED_LENGTH
            + accountIdLength(transfer.fromAccountId(), FROM_ACCOUNT_ID)
            + accountIdLength(transfer.toAccountId(), TO_ACCOUNT_ID);
      }
      case CREDIT ->
          ValueDescriptor.CREDIT_FIXED_LENGTH
              + accountIdLength(((CreditValue) value).toAccountId(), TO_ACCOUNT_ID);
      case CHECKPOINT ->
          ValueDescriptor.CHECKPOINT_FIXED_LENGTH + checkedDigestLength((CheckpointValue) value);
    };
  }

  /**
   * Writes {@code value}; the caller reserved {@link #encodedLength} bytes, which also validated
   * every field.
   */
  static void encode(RecordValue value, BufferWriter writer) {
    switch (value.valueType()) {
      case ACCOUNT -> {
        AccountValue account = (AccountValue) value;
        writer.writeLong(account.balance());
        writeAccountId(writer, account.accountId(), ACCOUNT_ID);
      }
      case DEPOSIT -> {
        DepositValue deposit = (DepositValue) value;
        writer.writeLong(deposit.amount());
        writeAccountId(writer, deposit.accountId(), ACCOUNT_ID);
      }
      case TRANSFER -> {
        TransferValue transfer = (TransferValue) value;
        writer.writeLong(transfer.amount());
        writer.writeInt(transfer.sourcePartitionId());
        writer.writeInt(transfer.targetPartitionId());
        writeAccountId(writer, transfer.fromAccountId(), FROM_ACCOUNT_ID);
        writeAccountId(writer, transfer.toAccountId(), TO_ACCOUNT_ID);
      }
      case CREDIT -> {
        CreditValue credit = (CreditValue) value;
        writer.writeLong(credit.transferKey());
        writer.writeLong(credit.amount());
        writer.writeInt(credit.sourcePartitionId());
        writer.writeInt(credit.targetPartitionId());
        writeAccountId(writer, credit.toAccountId(), TO_ACCOUNT_ID);
      }
      case CHECKPOINT -> {
        CheckpointValue checkpoint = (CheckpointValue) value;
        writer.writeLong(checkpoint.checkpointId());
        writer.writeLong(checkpoint.checkpointPosition());
        writer.writeLong(checkpoint.timestamp());
        byte[] digest = checkpoint.stateDigest();
        writer.writeByte(digest.length);
        writer.writeBytes(digest);
      }
    }
  }

  /**
   * Reads a value of {@code valueType} that fills {@code reader} exactly.
   *
   * @throws ProtocolException if the bytes are too few, too many, or a field is out of bounds
   */
  static RecordValue decode(ValueType valueType, BufferReader reader) {
    RecordValue value =
        switch (valueType) {
          case ACCOUNT -> {
            long balance = reader.readLong("account balance");
            yield new AccountValue(readAccountId(reader, ACCOUNT_ID), balance);
          }
          case DEPOSIT -> {
            long amount = reader.readLong("deposit amount");
            yield new DepositValue(readAccountId(reader, ACCOUNT_ID), amount);
          }
          case TRANSFER -> {
            long amount = reader.readLong("transfer amount");
            int sourcePartitionId = reader.readInt("transfer source partition id");
            int targetPartitionId = reader.readInt("transfer target partition id");
            String from = readAccountId(reader, FROM_ACCOUNT_ID);
            String to = readAccountId(reader, TO_ACCOUNT_ID);
            yield new TransferValue(from, to, amount, sourcePartitionId, targetPartitionId);
          }
          case CREDIT -> {
            long transferKey = reader.readLong("credit transfer key");
            long amount = reader.readLong("credit amount");
            int sourcePartitionId = reader.readInt("credit source partition id");
            int targetPartitionId = reader.readInt("credit target partition id");
            String to = readAccountId(reader, TO_ACCOUNT_ID);
            yield new CreditValue(transferKey, to, amount, sourcePartitionId, targetPartitionId);
          }
          case CHECKPOINT -> decodeCheckpoint(reader);
        };
    reader.requireFullyRead(valueType + " value");
    return value;
  }

  private static CheckpointValue decodeCheckpoint(BufferReader reader) {
    long checkpointId = reader.readLong("checkpoint id");
    long checkpointPosition = reader.readLong("checkpoint position");
    long timestamp = reader.readLong("checkpoint timestamp");
    int digestLengthOffset = reader.offset();
    int digestLength = reader.readUnsignedByte("state digest length");
    if (!ValueDescriptor.isValidStateDigestLength(digestLength)) {
      throw new ProtocolException(
          "Expected a state digest length of 0 or "
              + ValueDescriptor.STATE_DIGEST_LENGTHS
              + " bytes, but was "
              + digestLength
              + " (offset "
              + digestLengthOffset
              + ")");
    }
    byte[] digest = reader.readBytes(digestLength, "state digest");
    return new CheckpointValue(checkpointId, checkpointPosition, timestamp, digest);
  }

  private static int accountIdLength(String accountId, String what) {
    int length = Utf8.encodedLength(accountId, what);
    if (length < ACCOUNT_ID_MIN_BYTES || length > ACCOUNT_ID_MAX_BYTES) {
      throw new ProtocolException(
          "Expected "
              + what
              + " of "
              + ACCOUNT_ID_MIN_BYTES
              + " to "
              + ACCOUNT_ID_MAX_BYTES
              + " bytes of UTF-8, but was "
              + length
              + " bytes");
    }
    return length;
  }

  private static int checkedDigestLength(CheckpointValue checkpoint) {
    int length = checkpoint.stateDigestLength();
    if (!ValueDescriptor.isValidStateDigestLength(length)) {
      throw new ProtocolException(
          "Expected a state digest length of 0 or "
              + ValueDescriptor.STATE_DIGEST_LENGTHS
              + " bytes, but was "
              + length
              + " (checkpoint "
              + checkpoint.checkpointId()
              + ")");
    }
    return length;
  }

  private static void writeAccountId(BufferWriter writer, String accountId, String what) {
    writer.writeLengthPrefixedUtf8(accountId, Utf8.encodedLength(accountId, what));
  }

  private static String readAccountId(BufferReader reader, String what) {
    return reader.readLengthPrefixedUtf8(ACCOUNT_ID_MIN_BYTES, ACCOUNT_ID_MAX_BYTES, what);
  }
}
