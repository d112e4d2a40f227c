package io.cairn.broker.exporting;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one-way message a partition leader sends its followers with the exporters' acknowledged
 * positions (type {@code exporter-positions-<partitionId>}). Version 1, big-endian:
 *
 * <pre>
 *  offset  size  field
 *  0       1     version (1)
 *  1       4     partition id
 *  5       2     entry count n, at most {@value #ENTRIES_MAX}
 *  7       ...   n entries: id length (2), id (UTF-8, 1..{@value #ID_BYTES_MAX} bytes),
 *                position (8)
 * </pre>
 */
final class ExporterPositionsCodec {

  static final byte VERSION = 1;
  static final int ENTRIES_MAX = 256;
  static final int ID_BYTES_MAX = 64;

  private ExporterPositionsCodec() {}

  /** The message type of a partition. */
  static String messageType(int partitionId) {
    return "exporter-positions-" + partitionId;
  }

  static byte[] encode(int partitionId, Map<String, Long> positions) {
    if (positions.size() > ENTRIES_MAX) {
      throw new IllegalArgumentException(
          "Expected at most " + ENTRIES_MAX + " exporters, but got " + positions.size());
    }
    int length = 7;
    Map<byte[], Long> encoded = new LinkedHashMap<>();
    for (Map.Entry<String, Long> entry : positions.entrySet()) {
      byte[] id = entry.getKey().getBytes(StandardCharsets.UTF_8);
      if (id.length < 1 || id.length > ID_BYTES_MAX) {
        throw new IllegalArgumentException(
            "Expected an exporter id of 1 to " + ID_BYTES_MAX + " bytes, but got " + id.length);
      }
      encoded.put(id, entry.getValue());
      length += 2 + id.length + 8;
    }
    ByteBuffer buffer = ByteBuffer.allocate(length);
    buffer.put(VERSION).putInt(partitionId).putShort((short) encoded.size());
    encoded.forEach((id, position) -> buffer.putShort((short) id.length).put(id).putLong(position));
    return buffer.array();
  }

  /** A decoded message. */
  record Message(int partitionId, Map<String, Long> positions) {}

  /**
   * @throws IllegalArgumentException if the payload is not exactly one valid message
   */
  static Message decode(byte[] payload) {
    ByteBuffer buffer = ByteBuffer.wrap(payload);
    try {
      byte version = buffer.get();
      if (version != VERSION) {
        throw new IllegalArgumentException(
            "Expected exporter positions of version " + VERSION + ", but got " + version);
      }
      int partitionId = buffer.getInt();
      int count = Short.toUnsignedInt(buffer.getShort());
      if (count > ENTRIES_MAX) {
        throw new IllegalArgumentException(
            "Expected at most " + ENTRIES_MAX + " exporter positions, but got " + count);
      }
      Map<String, Long> positions = new LinkedHashMap<>();
      for (int i = 0; i < count; i++) {
        int idLength = Short.toUnsignedInt(buffer.getShort());
        if (idLength < 1 || idLength > ID_BYTES_MAX) {
          throw new IllegalArgumentException(
              "Expected an exporter id of 1 to " + ID_BYTES_MAX + " bytes, but got " + idLength);
        }
        byte[] id = new byte[idLength];
        buffer.get(id);
        positions.put(new String(id, StandardCharsets.UTF_8), buffer.getLong());
      }
      if (buffer.hasRemaining()) {
        throw new IllegalArgumentException(
            "Expected the message to end, but " + buffer.remaining() + " bytes follow");
      }
      return new Message(partitionId, positions);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException(
          "Expected a complete exporter positions message, but it ends early", e);
    }
  }
}
