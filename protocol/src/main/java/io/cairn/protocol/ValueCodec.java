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
  static int encodedLength(final RecordValue value) {
    return switch (value.valueType()) {
      case ACCOUNT ->
          ValueDescriptor.ACCOUNT_FIXED_LENGTH
              + accountIdLength(((AccountValue) value).accountId(), ACCOUNT_ID);
      case DEPOSIT ->
          ValueDescriptor.DEPOSIT_FIXED_LENGTH
              + accountIdLength(((DepositValue) value).accountId(), ACCOUNT_ID);
      case TRANSFER -> {
        final TransferValue transfer = (TransferValue) value;
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
  static void encode(final RecordValue value, final BufferWriter writer) {
    switch (value.valueType()) {
      case ACCOUNT -> {
        final AccountValue account = (AccountValue) value;
        writer.writeLong(account.balance());
        writeAccountId(writer, account.accountId(), ACCOUNT_ID);
      }
      case DEPOSIT -> {
        final DepositValue deposit = (DepositValue) value;
        writer.writeLong(deposit.amount());
        writeAccountId(writer, deposit.accountId(), ACCOUNT_ID);
      }
      case TRANSFER -> {
        final TransferValue transfer = (TransferValue) value;
        writer.writeLong(transfer.amount());
        writer.writeInt(transfer.sourcePartitionId());
        writer.writeInt(transfer.targetPartitionId());
        writeAccountId(writer, transfer.fromAccountId(), FROM_ACCOUNT_ID);
        writeAccountId(writer, transfer.toAccountId(), TO_ACCOUNT_ID);
      }
      case CREDIT -> {
        final CreditValue credit = (CreditValue) value;
        writer.writeLong(credit.transferKey());
        writer.writeLong(credit.amount());
        writer.writeInt(credit.sourcePartitionId());
        writer.writeInt(credit.targetPartitionId());
        writeAccountId(writer, credit.toAccountId(), TO_ACCOUNT_ID);
      }
      case CHECKPOINT -> {
        final CheckpointValue checkpoint = (CheckpointValue) value;
        writer.writeLong(checkpoint.checkpointId());
        writer.writeLong(checkpoint.checkpointPosition());
        writer.writeLong(checkpoint.timestamp());
        final byte[] digest = checkpoint.stateDigest();
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
  static RecordValue decode(final ValueType valueType, final BufferReader reader) {
    final RecordValue value =
        switch (valueType) {
          case ACCOUNT -> {
            final long balance = reader.readLong("account balance");
            yield new AccountValue(readAccountId(reader, ACCOUNT_ID), balance);
          }
          case DEPOSIT -> {
            final long amount = reader.readLong("deposit amount");
            yield new DepositValue(readAccountId(reader, ACCOUNT_ID), amount);
          }
          case TRANSFER -> {
            final long amount = reader.readLong("transfer amount");
            final int sourcePartitionId = reader.readInt("transfer source partition id");
            final int targetPartitionId = reader.readInt("transfer target partition id");
            final String from = readAccountId(reader, FROM_ACCOUNT_ID);
            final String to = readAccountId(reader, TO_ACCOUNT_ID);
            yield new TransferValue(from, to, amount, sourcePartitionId, targetPartitionId);
          }
          case CREDIT -> {
            final long transferKey = reader.readLong("credit transfer key");
            final long amount = reader.readLong("credit amount");
            final int sourcePartitionId = reader.readInt("credit source partition id");
            final int targetPartitionId = reader.readInt("credit target partition id");
            final String to = readAccountId(reader, TO_ACCOUNT_ID);
            yield new CreditValue(transferKey, to, amount, sourcePartitionId, targetPartitionId);
          }
          case CHECKPOINT -> decodeCheckpoint(reader);
        };
    reader.requireFullyRead(valueType + " value");
    return value;
  }

  private static CheckpointValue decodeCheckpoint(final BufferReader reader) {
    final long checkpointId = reader.readLong("checkpoint id");
    final long checkpointPosition = reader.readLong("checkpoint position");
    final long timestamp = reader.readLong("checkpoint timestamp");
    final int digestLengthOffset = reader.offset();
    final int digestLength = reader.readUnsignedByte("state digest length");
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
    final byte[] digest = reader.readBytes(digestLength, "state digest");
    return new CheckpointValue(checkpointId, checkpointPosition, timestamp, digest);
  }

  private static int accountIdLength(final String accountId, final String what) {
    final int length = Utf8.encodedLength(accountId, what);
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

  private static int checkedDigestLength(final CheckpointValue checkpoint) {
    final int length = checkpoint.stateDigestLength();
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

  private static void writeAccountId(
      final BufferWriter writer, final String accountId, final String what) {
    writer.writeLengthPrefixedUtf8(accountId, Utf8.encodedLength(accountId, what));
  }

  private static String readAccountId(final BufferReader reader, final String what) {
    return reader.readLengthPrefixedUtf8(ACCOUNT_ID_MIN_BYTES, ACCOUNT_ID_MAX_BYTES, what);
  }
}
