package io.cairn.raft.log;

import static io.cairn.raft.log.RaftEntryDescriptor.HEADER_LENGTH;
import static io.cairn.raft.log.RaftEntryDescriptor.HIGHEST_POSITION_OFFSET;
import static io.cairn.raft.log.RaftEntryDescriptor.LOWEST_POSITION_OFFSET;
import static io.cairn.raft.log.RaftEntryDescriptor.PAYLOAD_LENGTH_OFFSET;
import static io.cairn.raft.log.RaftEntryDescriptor.RESERVED_OFFSET;
import static io.cairn.raft.log.RaftEntryDescriptor.TERM_OFFSET;
import static io.cairn.raft.log.RaftEntryDescriptor.TYPE_OFFSET;
import static io.cairn.raft.log.RaftEntryDescriptor.VERSION;
import static io.cairn.raft.log.RaftEntryDescriptor.VERSION_OFFSET;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Encodes and decodes {@link RaftEntry} in the layout of {@link RaftEntryDescriptor}. */
public final class RaftEntryCodec {

  private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

  private RaftEntryCodec() {}

  /** Encodes the entry into a new buffer of exactly its encoded length. */
  public static DirectBuffer encode(RaftEntry entry) {
    int payloadLength = entry.payload().capacity();
    UnsafeBuffer buffer =
        new UnsafeBuffer(new byte[RaftEntryDescriptor.encodedLength(payloadLength)]);
    encode(entry, buffer, 0);
    return buffer;
  }

  /** Encodes the entry at {@code offset}; returns the number of bytes written. */
  public static int encode(RaftEntry entry, MutableDirectBuffer buffer, int offset) {
    int payloadLength = entry.payload().capacity();
    buffer.putByte(offset + VERSION_OFFSET, VERSION);
    buffer.putByte(offset + TYPE_OFFSET, entry.type().code());
    buffer.putShort(offset + RESERVED_OFFSET, (short) 0, ORDER);
    buffer.putInt(offset + PAYLOAD_LENGTH_OFFSET, payloadLength, ORDER);
    buffer.putLong(offset + TERM_OFFSET, entry.term(), ORDER);
    buffer.putLong(offset + LOWEST_POSITION_OFFSET, entry.lowestPosition(), ORDER);
    buffer.putLong(offset + HIGHEST_POSITION_OFFSET, entry.highestPosition(), ORDER);
    buffer.putBytes(offset + HEADER_LENGTH, entry.payload(), 0, payloadLength);
    return HEADER_LENGTH + payloadLength;
  }

  /**
   * Decodes an entry; the payload is a view over {@code data} (no copy).
   *
   * @throws IllegalArgumentException if the data is not a raft entry of a known version
   */
  public static RaftEntry decode(DirectBuffer data) {
    checkHeader(data);
    int payloadLength = data.getInt(PAYLOAD_LENGTH_OFFSET, ORDER);
    UnsafeBuffer payload = new UnsafeBuffer(data, HEADER_LENGTH, payloadLength);
    return new RaftEntry(
        data.getLong(TERM_OFFSET, ORDER),
        RaftEntryType.fromCode(data.getByte(TYPE_OFFSET)),
        data.getLong(LOWEST_POSITION_OFFSET, ORDER),
        data.getLong(HIGHEST_POSITION_OFFSET, ORDER),
        payload);
  }

  /** Reads only the term of an encoded entry. */
  public static long term(DirectBuffer data) {
    checkHeader(data);
    return data.getLong(TERM_OFFSET, ORDER);
  }

  /** Reads only the highest position of an encoded entry. */
  public static long highestPosition(DirectBuffer data) {
    checkHeader(data);
    return data.getLong(HIGHEST_POSITION_OFFSET, ORDER);
  }

  private static void checkHeader(DirectBuffer data) {
    if (data.capacity() < HEADER_LENGTH) {
      throw new IllegalArgumentException(
          "Expected a raft entry of at least "
              + HEADER_LENGTH
              + " bytes, but was "
              + data.capacity()
              + " bytes (raft entry header)");
    }
    byte version = data.getByte(VERSION_OFFSET);
    if (version != VERSION) {
      throw new IllegalArgumentException(
          "Expected raft entry version "
              + VERSION
              + ", but was "
              + version
              + " (raft entry header)");
    }
    int payloadLength = data.getInt(PAYLOAD_LENGTH_OFFSET, ORDER);
    if (payloadLength < 0 || HEADER_LENGTH + payloadLength != data.capacity()) {
      throw new IllegalArgumentException(
          "Expected payloadLength "
              + (data.capacity() - HEADER_LENGTH)
              + ", but was "
              + payloadLength
              + " (raft entry header)");
    }
  }
}
