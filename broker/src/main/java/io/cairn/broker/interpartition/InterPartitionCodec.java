package io.cairn.broker.interpartition;

import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The broker-to-broker message that carries an inter-partition command ({@code CREDIT APPLY},
 * {@code CREDIT ACK}) to the leader of its target partition ({@value #TYPE}), and its answer.
 * Big-endian.
 *
 * <pre>
 * request  : version u8 (1) | targetPartitionId i32 | command RECORD (RecordCodec; fills the rest)
 * response : version u8 (1) | status u8 | leaderNodeId i32 (for NOT_LEADER: the leader the
 *            receiver knows of, or -1)
 * </pre>
 *
 * The command's checkpoint id travels in its metadata (DESIGN.md §7).
 */
public final class InterPartitionCodec {

  /** The transport message type. */
  public static final String TYPE = "cairn-inter-partition";

  static final int VERSION = 1;
  private static final int REQUEST_HEADER = 1 + 4;
  private static final int RESPONSE_LENGTH = 1 + 1 + 4;

  private InterPartitionCodec() {}

  /** What the receiving broker did with a command. */
  public enum Status {
    /** Written to the target partition's log. */
    WRITTEN,
    /** The receiver does not lead (or host) the target partition. */
    NOT_LEADER,
    /** The target partition's log is full; the engine re-sends. */
    BACKPRESSURE,
    /** Not an inter-partition command for that partition; never retried as is. */
    INVALID
  }

  /**
   * @param targetPartitionId the partition whose log gets the command
   * @param command the command
   */
  public record Request(int targetPartitionId, Record command) {}

  /**
   * @param status what happened
   * @param leaderNodeId for NOT_LEADER the leader the receiver knows of, else -1
   */
  public record Response(Status status, int leaderNodeId) {}

  /**
   * @throws ProtocolException if the command cannot be encoded
   */
  public static byte[] encodeRequest(int targetPartitionId, Record command) {
    int recordLength = RecordCodec.encodedLength(command);
    byte[] bytes = new byte[REQUEST_HEADER + recordLength];
    UnsafeBuffer buffer = new UnsafeBuffer(bytes);
    buffer.putByte(0, (byte) VERSION);
    buffer.putInt(1, targetPartitionId, ByteOrder.BIG_ENDIAN);
    RecordCodec.encode(command, buffer, REQUEST_HEADER);
    return bytes;
  }

  /**
   * @throws ProtocolException if the payload is not exactly one request of version 1
   */
  public static Request decodeRequest(byte[] payload) {
    if (payload.length < REQUEST_HEADER) {
      throw new ProtocolException(
          "Expected at least "
              + REQUEST_HEADER
              + " bytes, but was "
              + payload.length
              + " ("
              + TYPE
              + " request)");
    }
    UnsafeBuffer buffer = new UnsafeBuffer(payload);
    checkVersion(buffer.getByte(0), "request");
    int target = buffer.getInt(1, ByteOrder.BIG_ENDIAN);
    if (target < 1) {
      throw new ProtocolException(
          "Expected a target partition id >= 1, but was " + target + " (" + TYPE + " request)");
    }
    Record command = RecordCodec.decode(buffer, REQUEST_HEADER, payload.length - REQUEST_HEADER);
    return new Request(target, command);
  }

  public static byte[] encodeResponse(Status status, int leaderNodeId) {
    return ByteBuffer.allocate(RESPONSE_LENGTH)
        .put((byte) VERSION)
        .put((byte) status.ordinal())
        .putInt(leaderNodeId)
        .array();
  }

  /**
   * @throws ProtocolException if the payload is not exactly one response of version 1
   */
  public static Response decodeResponse(byte[] payload) {
    if (payload.length != RESPONSE_LENGTH) {
      throw new ProtocolException(
          "Expected "
              + RESPONSE_LENGTH
              + " bytes, but was "
              + payload.length
              + " ("
              + TYPE
              + " response)");
    }
    ByteBuffer buffer = ByteBuffer.wrap(payload);
    checkVersion(buffer.get(), "response");
    int code = buffer.get() & 0xFF;
    Status[] statuses = Status.values();
    if (code >= statuses.length) {
      throw new ProtocolException(
          "Expected a status code in [0, "
              + (statuses.length - 1)
              + "], but was "
              + code
              + " ("
              + TYPE
              + " response)");
    }
    return new Response(statuses[code], buffer.getInt());
  }

  private static void checkVersion(byte version, String what) {
    if (version != VERSION) {
      throw new ProtocolException(
          "Expected version " + VERSION + ", but was " + version + " (" + TYPE + " " + what + ")");
    }
  }
}
