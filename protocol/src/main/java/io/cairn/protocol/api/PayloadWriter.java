package io.cairn.protocol.api;

import io.cairn.protocol.Record;
import io.cairn.protocol.RecordCodec;
import io.cairn.protocol.buffer.BufferReader;
import java.util.Arrays;
import org.agrona.ExpandableArrayBuffer;

/**
 * Appends the fields of one API message to a growing buffer, little-endian like every Cairn format.
 * Strings are checked against their bounds before anything is written for them. Not thread-safe;
 * one per encode.
 */
final class PayloadWriter {
  private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
  private int offset;

  /** Starts a payload with the version byte. */
  static PayloadWriter start() {
    PayloadWriter writer = new PayloadWriter();
    writer.writeByte(ApiDescriptor.VERSION);
    return writer;
  }

  /** Starts a response: version, then the status. */
  static PayloadWriter startResponse(ApiResponse<?> response) {
    PayloadWriter writer = start();
    writer.writeByte(response.status().code());
    if (response instanceof ApiResponse.Failure<?> failure) {
      writer.writeInt(failure.leaderNodeId());
      writer.writeString(failure.reason(), 0, ApiDescriptor.REASON_MAX_BYTES, "failure reason");
    }
    return writer;
  }

  void writeByte(int value) {
    buffer.putByte(offset, (byte) value);
    offset += Byte.BYTES;
  }

  void writeBoolean(boolean value) {
    writeByte(value ? 1 : 0);
  }

  void writeInt(int value) {
    buffer.putInt(offset, value, BufferReader.BYTE_ORDER);
    offset += Integer.BYTES;
  }

  void writeLong(long value) {
    buffer.putLong(offset, value, BufferReader.BYTE_ORDER);
    offset += Long.BYTES;
  }

  /** Writes a length-prefixed string after checking it has {@code minBytes..maxBytes} bytes. */
  void writeString(String value, int minBytes, int maxBytes, String what) {
    int length = ApiStrings.checkLength(value, minBytes, maxBytes, what);
    writeInt(length);
    int written = buffer.putStringWithoutLengthUtf8(offset, value);
    if (written != length) {
      throw new IllegalStateException(
          "Expected " + length + " bytes of UTF-8, but wrote " + written + " (" + what + ")");
    }
    offset += written;
  }

  /** Writes a record with {@link RecordCodec}; it fills the rest of the payload. */
  void writeRecord(Record record) {
    offset += RecordCodec.encode(record, buffer, offset);
  }

  byte[] toBytes() {
    return Arrays.copyOf(buffer.byteArray(), offset);
  }
}
