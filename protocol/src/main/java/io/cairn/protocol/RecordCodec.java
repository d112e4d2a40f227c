package io.cairn.protocol;

import static io.cairn.protocol.RecordDescriptor.HEADER_LENGTH;
import static io.cairn.protocol.RecordDescriptor.PROTOCOL_VERSION;
import static io.cairn.protocol.RecordDescriptor.REJECTION_REASON_MAX_BYTES;

import io.cairn.protocol.buffer.BufferReader;
import io.cairn.protocol.buffer.BufferWriter;
import io.cairn.protocol.buffer.Utf8;
import java.util.function.IntFunction;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Encodes and decodes single records in the layout of {@link RecordDescriptor}. Stateless and
 * thread-safe.
 *
 * <p>Decoding trusts nothing: every length is checked against the bytes that are there before
 * anything is allocated or copied, and every code against its enum. Any problem is a {@link
 * ProtocolException}; no other exception escapes for any input.
 */
public final class RecordCodec {
  private static final String RECORD = "record";

  private RecordCodec() {}

  /**
   * The number of bytes {@link #encode} writes for {@code record}.
   *
   * @throws ProtocolException if a field is outside the bounds of the layout (an account id or
   *     reason too long, a malformed string, a state digest of the wrong length)
   */
  public static int encodedLength(Record record) {
    return HEADER_LENGTH
        + reasonLength(record.metadata())
        + ValueCodec.encodedLength(record.value());
  }

  /**
   * Writes {@code record} at {@code offset}.
   *
   * @return the number of bytes written, {@link #encodedLength(Record)}
   * @throws ProtocolException if a field is out of bounds, or the buffer is not expandable and too
   *     small; nothing is written then
   */
  public static int encode(Record record, MutableDirectBuffer buffer, int offset) {
    int length = encodedLength(record);
    BufferWriter writer = new BufferWriter(buffer, offset, length, RECORD);
    write(record, writer);
    writer.requireFullyWritten(RECORD);
    return length;
  }

  /**
   * Reads the record that fills {@code [offset, offset + length)} exactly.
   *
   * @throws ProtocolException if the bytes are not exactly one valid record of a known version
   */
  public static Record decode(DirectBuffer buffer, int offset, int length) {
    BufferReader reader = new BufferReader(buffer, offset, length);
    Record record = read(reader);
    reader.requireFullyRead(RECORD);
    return record;
  }

  /** Writes the record; the writer has {@link #encodedLength} bytes reserved. */
  static void write(Record record, BufferWriter writer) {
    RecordMetadata metadata = record.metadata();
    String reason = metadata.rejectionReason();
    writer.writeByte(PROTOCOL_VERSION);
    writer.writeByte(metadata.recordType().code());
    writer.writeByte(metadata.valueType().code());
    writer.writeByte(metadata.rejectionType().code());
    writer.writeShort(metadata.intent().code());
    writer.writeInt(metadata.requestStreamId());
    writer.writeLong(metadata.position());
    writer.writeLong(metadata.sourcePosition());
    writer.writeLong(metadata.key());
    writer.writeLong(metadata.timestamp());
    writer.writeLong(metadata.requestId());
    writer.writeLong(metadata.checkpointId());
    int reasonLength = Utf8.encodedLength(reason, "rejection reason");
    writer.writeInt(reasonLength);
    writer.writeInt(ValueCodec.encodedLength(record.value()));
    writer.writeUtf8(reason, reasonLength);
    ValueCodec.encode(record.value(), writer);
  }

  /** Reads one record from the reader's current offset and advances past it. */
  static Record read(BufferReader reader) {
    int start = reader.offset();
    if (reader.remaining() > 0) {
      checkVersion(reader.peekUnsignedByte("protocol version"), start);
    }
    reader.require(HEADER_LENGTH, "record metadata");
    reader.readUnsignedByte("protocol version");

    RecordType recordType =
        lookUp(RecordType::fromCode, reader.readUnsignedByte("record type"), start + 1);
    ValueType valueType =
        lookUp(ValueType::fromCode, reader.readUnsignedByte("value type"), start + 2);
    RejectionType rejectionType =
        lookUp(RejectionType::fromCode, reader.readUnsignedByte("rejection type"), start + 3);
    short intentCode = reader.readShort("intent");
    Intent intent = lookUp(code -> Intent.of(valueType, (short) code), intentCode, start + 4);

    int requestStreamId = reader.readInt("request stream id");
    long position = reader.readLong("position");
    long sourcePosition = reader.readLong("source position");
    long key = reader.readLong("key");
    long timestamp = reader.readLong("timestamp");
    long requestId = reader.readLong("request id");
    long checkpointId = reader.readLong("checkpoint id");

    int reasonLengthOffset = reader.offset();
    int reasonLength = reader.readInt("rejection reason length");
    if (reasonLength < 0 || reasonLength > REJECTION_REASON_MAX_BYTES) {
      throw new ProtocolException(
          "Expected rejection reason length in [0, "
              + REJECTION_REASON_MAX_BYTES
              + "] bytes, but was "
              + reasonLength
              + " (offset "
              + reasonLengthOffset
              + ")");
    }
    int valueLengthOffset = reader.offset();
    int valueLength = reader.readInt("value length");
    if (valueLength < 0) {
      throw new ProtocolException(
          "Expected value length >= 0, but was "
              + valueLength
              + " (offset "
              + valueLengthOffset
              + ")");
    }
    reader.require((long) reasonLength + valueLength, "rejection reason and value");

    String inconsistency =
        RecordMetadata.inconsistency(recordType, intent, rejectionType, reasonLength == 0);
    if (inconsistency != null) {
      throw new ProtocolException(inconsistency + " (record at offset " + start + ")");
    }
    String reason = reader.readUtf8(reasonLength, "rejection reason");
    RecordValue value =
        ValueCodec.decode(valueType, reader.slice(valueLength, valueType + " value"));

    RecordMetadata metadata =
        new RecordMetadata(
            position,
            sourcePosition,
            key,
            timestamp,
            recordType,
            intent,
            rejectionType,
            reason,
            requestId,
            requestStreamId,
            checkpointId);
    return new Record(metadata, value);
  }

  /** Rejects any version but {@link RecordDescriptor#PROTOCOL_VERSION}. */
  static void checkVersion(int version, int offset) {
    if (version != PROTOCOL_VERSION) {
      throw new ProtocolException(
          "Expected protocol version "
              + PROTOCOL_VERSION
              + ", but was "
              + version
              + " (offset "
              + offset
              + ")");
    }
  }

  /** Looks a code up and adds the offset to the message of an unknown code. */
  private static <T> T lookUp(IntFunction<T> lookup, int code, int offset) {
    try {
      return lookup.apply(code);
    } catch (ProtocolException e) {
      throw new ProtocolException(e.getMessage() + " (offset " + offset + ")", e);
    }
  }

  private static int reasonLength(RecordMetadata metadata) {
    int length = Utf8.encodedLength(metadata.rejectionReason(), "rejection reason");
    if (length > REJECTION_REASON_MAX_BYTES) {
      throw new ProtocolException(
          "Expected a rejection reason of at most "
              + REJECTION_REASON_MAX_BYTES
              + " bytes of UTF-8, but was "
              + length
              + " bytes. Shorten the reason before writing the rejection.");
    }
    return length;
  }
}
