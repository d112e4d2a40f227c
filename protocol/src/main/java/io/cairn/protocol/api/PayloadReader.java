package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordCodec;
import io.cairn.protocol.buffer.BufferReader;
import java.util.Objects;
import java.util.function.IntFunction;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads the fields of one API message with every length and code checked (through {@link
 * BufferReader}); any problem is a {@link ProtocolException} naming the message and the field.
 */
final class PayloadReader {
  private final UnsafeBuffer buffer;
  private final BufferReader reader;
  private final String message;

  private PayloadReader(byte[] payload, String message) {
    this.buffer = new UnsafeBuffer(payload);
    this.reader = new BufferReader(buffer, 0, payload.length);
    this.message = message;
  }

  /**
   * Starts reading {@code payload} and checks its version byte.
   *
   * @param message the message being read ("cairn-command request"), for every error message
   */
  static PayloadReader start(byte[] payload, String message) {
    Objects.requireNonNull(payload, "payload");
    PayloadReader reader = new PayloadReader(payload, message);
    int version = reader.readUnsignedByte("version");
    if (version != ApiDescriptor.VERSION) {
      throw new ProtocolException(
          "Expected version "
              + ApiDescriptor.VERSION
              + ", but was "
              + version
              + " ("
              + message
              + ")");
    }
    return reader;
  }

  /**
   * Reads the status and, for a failure, the leader and reason; then {@code body} reads the body of
   * an OK response.
   */
  <T> ApiResponse<T> readResponse(java.util.function.Function<PayloadReader, T> body) {
    ResponseStatus status = readCode(ResponseStatus::fromCode, "status");
    if (status == ResponseStatus.OK) {
      T value = body.apply(this);
      finish();
      return ApiResponse.ok(value);
    }
    int leaderNodeId = readInt("leader node id");
    if (leaderNodeId < ApiDescriptor.NO_NODE_ID) {
      throw invalid("leader node id >= -1", leaderNodeId);
    }
    String reason = readString(0, ApiDescriptor.REASON_MAX_BYTES, "failure reason");
    finish();
    return new ApiResponse.Failure<>(status, leaderNodeId, reason);
  }

  int readUnsignedByte(String what) {
    try {
      return reader.readUnsignedByte(what);
    } catch (ProtocolException e) {
      throw wrap(e);
    }
  }

  boolean readBoolean(String what) {
    int value = readUnsignedByte(what);
    if (value > 1) {
      throw invalid(what + " 0 or 1", value);
    }
    return value == 1;
  }

  int readInt(String what) {
    try {
      return reader.readInt(what);
    } catch (ProtocolException e) {
      throw wrap(e);
    }
  }

  long readLong(String what) {
    try {
      return reader.readLong(what);
    } catch (ProtocolException e) {
      throw wrap(e);
    }
  }

  /** Reads a partition id in {@code [1, PARTITION_ID_MAX]}. */
  int readPartitionId(String what) {
    int partitionId = readInt(what);
    if (partitionId < 1 || partitionId > ApiDescriptor.PARTITION_ID_MAX) {
      throw invalid(what + " in [1, " + ApiDescriptor.PARTITION_ID_MAX + "]", partitionId);
    }
    return partitionId;
  }

  String readString(int minBytes, int maxBytes, String what) {
    try {
      return reader.readLengthPrefixedUtf8(minBytes, maxBytes, what);
    } catch (ProtocolException e) {
      throw wrap(e);
    }
  }

  /** Reads a code and looks it up, adding the message to an unknown code's error. */
  <T> T readCode(IntFunction<T> lookup, String what) {
    int code = readUnsignedByte(what);
    try {
      return lookup.apply(code);
    } catch (ProtocolException e) {
      throw wrap(e);
    }
  }

  /**
   * Reads a list count in {@code [0, max]} whose entries of at least {@code minEntryBytes} each fit
   * in the remaining bytes, before anything is allocated.
   */
  int readCount(int max, int minEntryBytes, String what) {
    int count = readInt(what + " count");
    if (count < 0 || count > max) {
      throw invalid(what + " count in [0, " + max + "]", count);
    }
    if ((long) count * minEntryBytes > reader.remaining()) {
      throw new ProtocolException(
          "Expected at least "
              + (long) count * minEntryBytes
              + " bytes for "
              + count
              + " "
              + what
              + ", but "
              + reader.remaining()
              + " remain ("
              + message
              + ")");
    }
    return count;
  }

  /** Reads the record that fills the rest of the payload. */
  Record readRecordToEnd(String what) {
    try {
      Record record = RecordCodec.decode(buffer, reader.offset(), reader.remaining());
      reader.slice(reader.remaining(), what);
      return record;
    } catch (ProtocolException e) {
      throw new ProtocolException(e.getMessage() + " (" + what + " in " + message + ")", e);
    }
  }

  /** Checks that every byte was read. */
  void finish() {
    try {
      reader.requireFullyRead(message);
    } catch (ProtocolException e) {
      throw wrap(e);
    }
  }

  /**
   * Builds a value whose constructor checks the rules; a broken rule becomes a {@link
   * ProtocolException} with the constructor's message.
   */
  <T> T build(java.util.function.Supplier<T> constructor) {
    try {
      return constructor.get();
    } catch (IllegalArgumentException e) {
      throw new ProtocolException(e.getMessage() + " (" + message + ")", e);
    }
  }

  ProtocolException invalid(String rule, Object actual) {
    return new ProtocolException("Expected " + rule + ", but was " + actual + " (" + message + ")");
  }

  private ProtocolException wrap(ProtocolException e) {
    return new ProtocolException(e.getMessage() + " (" + message + ")", e);
  }
}
