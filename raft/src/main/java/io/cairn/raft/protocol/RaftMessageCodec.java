package io.cairn.raft.protocol;

import io.cairn.journal.JournalRecord;
import io.cairn.raft.RaftSnapshotChunk;
import io.cairn.raft.protocol.RaftMessage.AppendRequest;
import io.cairn.raft.protocol.RaftMessage.AppendResponse;
import io.cairn.raft.protocol.RaftMessage.InstallSnapshotRequest;
import io.cairn.raft.protocol.RaftMessage.InstallSnapshotResponse;
import io.cairn.raft.protocol.RaftMessage.TimeoutNow;
import io.cairn.raft.protocol.RaftMessage.VoteRequest;
import io.cairn.raft.protocol.RaftMessage.VoteResponse;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Binary encoding of {@link RaftMessage}s. Little endian; every message starts with a version byte
 * and a kind byte, then the fields in declaration order. Entries are sent as journal records
 * (index, asqn, checksum, length, data) so the follower can verify their checksum on append.
 *
 * <p>A new message is a new kind within the same version: a member that does not know the kind
 * drops the message as undecodable, which every message tolerates (they may be lost anyway). So
 * {@link TimeoutNow} (kind 7) needs no version change; a member of an older release ignores it and
 * the leadership transfer it asks for times out.
 */
public final class RaftMessageCodec {

  public static final byte VERSION = 1;

  private static final byte VOTE_REQUEST = 1;
  private static final byte VOTE_RESPONSE = 2;
  private static final byte APPEND_REQUEST = 3;
  private static final byte APPEND_RESPONSE = 4;
  private static final byte INSTALL_REQUEST = 5;
  private static final byte INSTALL_RESPONSE = 6;
  private static final byte TIMEOUT_NOW = 7;

  private static final int HEADER_BYTES = 2;
  private static final int MAX_ENTRIES = 1 << 20;

  /** Index, asqn, checksum and data length of an appended entry. */
  private static final int ENTRY_HEADER_BYTES = 8 + 8 + 4 + 4;

  private RaftMessageCodec() {}

  public static byte[] encode(RaftMessage message) {
    ByteBuffer buffer = ByteBuffer.allocate(encodedLength(message)).order(ByteOrder.LITTLE_ENDIAN);
    buffer.put(VERSION);
    if (message instanceof VoteRequest m) {
      buffer.put(VOTE_REQUEST).putLong(m.term()).putInt(m.candidateId());
      buffer.putLong(m.lastLogIndex()).putLong(m.lastLogTerm()).put(bool(m.preVote()));
    } else if (message instanceof VoteResponse m) {
      buffer.put(VOTE_RESPONSE).putLong(m.term()).putLong(m.requestTerm());
      buffer.put(bool(m.granted())).put(bool(m.preVote()));
    } else if (message instanceof AppendRequest m) {
      buffer.put(APPEND_REQUEST).putLong(m.term()).putInt(m.leaderId());
      buffer.putLong(m.prevLogIndex()).putLong(m.prevLogTerm()).putLong(m.leaderCommit());
      buffer.putInt(m.entries().size());
      for (JournalRecord record : m.entries()) {
        int length = record.data().capacity();
        buffer.putLong(record.index()).putLong(record.asqn()).putInt(record.checksum());
        buffer.putInt(length);
        record.data().getBytes(0, buffer, buffer.position(), length);
        buffer.position(buffer.position() + length);
      }
    } else if (message instanceof AppendResponse m) {
      buffer.put(APPEND_RESPONSE).putLong(m.term()).put(bool(m.success()));
      buffer.putLong(m.matchIndex()).putInt(m.entryCount());
      buffer.putLong(m.conflictIndex()).putLong(m.conflictTerm());
    } else if (message instanceof InstallSnapshotRequest m) {
      RaftSnapshotChunk chunk = m.chunk();
      byte[] name = chunk.name().getBytes(StandardCharsets.UTF_8);
      buffer.put(INSTALL_REQUEST).putLong(m.term()).putInt(m.leaderId());
      buffer.putLong(m.snapshotIndex()).putLong(m.snapshotTerm());
      buffer.putInt(chunk.chunkIndex()).putInt(chunk.chunkCount());
      buffer.putInt(chunk.checksum()).putLong(chunk.snapshotChecksum());
      buffer.putInt(name.length).put(name);
      buffer.putInt(chunk.data().length).put(chunk.data());
    } else if (message instanceof InstallSnapshotResponse m) {
      buffer.put(INSTALL_RESPONSE).putLong(m.term()).putLong(m.snapshotIndex());
      buffer.putInt(m.chunkIndex()).put((byte) m.status().ordinal());
    } else if (message instanceof TimeoutNow m) {
      buffer.put(TIMEOUT_NOW).putLong(m.term()).putInt(m.leaderId());
    }
    if (buffer.hasRemaining()) {
      throw new IllegalStateException(
          "Expected to fill " + buffer.capacity() + " bytes, but wrote " + buffer.position());
    }
    return buffer.array();
  }

  /**
   * @throws IllegalArgumentException if the bytes are not a message of a known version and kind
   */
  public static RaftMessage decode(byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    try {
      byte version = buffer.get();
      if (version != VERSION) {
        throw new IllegalArgumentException(
            "Expected raft message version " + VERSION + ", but was " + version);
      }
      byte kind = buffer.get();
      RaftMessage message =
          switch (kind) {
            case VOTE_REQUEST ->
                new VoteRequest(
                    buffer.getLong(),
                    buffer.getInt(),
                    buffer.getLong(),
                    buffer.getLong(),
                    bool(buffer));
            case VOTE_RESPONSE ->
                new VoteResponse(buffer.getLong(), buffer.getLong(), bool(buffer), bool(buffer));
            case APPEND_REQUEST -> decodeAppend(buffer);
            case APPEND_RESPONSE ->
                new AppendResponse(
                    buffer.getLong(),
                    bool(buffer),
                    buffer.getLong(),
                    buffer.getInt(),
                    buffer.getLong(),
                    buffer.getLong());
            case INSTALL_REQUEST -> decodeInstall(buffer);
            case INSTALL_RESPONSE ->
                new InstallSnapshotResponse(
                    buffer.getLong(),
                    buffer.getLong(),
                    buffer.getInt(),
                    installStatus(buffer.get()));
            case TIMEOUT_NOW -> new TimeoutNow(buffer.getLong(), buffer.getInt());
            default ->
                throw new IllegalArgumentException(
                    "Expected raft message kind in [1, 7], but was " + kind);
          };
      if (buffer.hasRemaining()) {
        throw new IllegalArgumentException(
            "Expected no bytes after the message, but " + buffer.remaining() + " remain");
      }
      return message;
    } catch (BufferUnderflowException | IndexOutOfBoundsException | NegativeArraySizeException e) {
      throw new IllegalArgumentException(
          "Expected a complete raft message, but " + bytes.length + " bytes are truncated", e);
    }
  }

  private static AppendRequest decodeAppend(ByteBuffer buffer) {
    long term = buffer.getLong();
    int leaderId = buffer.getInt();
    long prevLogIndex = buffer.getLong();
    long prevLogTerm = buffer.getLong();
    long leaderCommit = buffer.getLong();
    int count = buffer.getInt();
    // Each entry takes at least its header: a count beyond what the bytes can hold is refused
    // before it sizes the list.
    int fitting = buffer.remaining() / ENTRY_HEADER_BYTES;
    if (count < 0 || count > Math.min(MAX_ENTRIES, fitting)) {
      throw new IllegalArgumentException(
          "Expected entry count in [0, "
              + Math.min(MAX_ENTRIES, fitting)
              + "] (at most "
              + MAX_ENTRIES
              + ", and what the message's bytes can hold), but was "
              + count);
    }
    List<JournalRecord> entries = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      long index = buffer.getLong();
      long asqn = buffer.getLong();
      int checksum = buffer.getInt();
      byte[] data = new byte[length(buffer, "entry data")];
      buffer.get(data);
      entries.add(new JournalRecord(index, asqn, checksum, new UnsafeBuffer(data)));
    }
    return new AppendRequest(term, leaderId, prevLogIndex, prevLogTerm, leaderCommit, entries);
  }

  private static InstallSnapshotResponse.Status installStatus(byte code) {
    InstallSnapshotResponse.Status[] statuses = InstallSnapshotResponse.Status.values();
    if (code < 0 || code >= statuses.length) {
      throw new IllegalArgumentException(
          "Expected an install snapshot status in [0, "
              + (statuses.length - 1)
              + "], but was "
              + code);
    }
    return statuses[code];
  }

  /** Reads a length and checks it against the bytes left, before it sizes an array. */
  private static int length(ByteBuffer buffer, String what) {
    int length = buffer.getInt();
    if (length < 0 || length > buffer.remaining()) {
      throw new IllegalArgumentException(
          "Expected a length of "
              + what
              + " in [0, "
              + buffer.remaining()
              + "] (the bytes left), but was "
              + length);
    }
    return length;
  }

  private static InstallSnapshotRequest decodeInstall(ByteBuffer buffer) {
    long term = buffer.getLong();
    int leaderId = buffer.getInt();
    long snapshotIndex = buffer.getLong();
    long snapshotTerm = buffer.getLong();
    int chunkIndex = buffer.getInt();
    int chunkCount = buffer.getInt();
    int checksum = buffer.getInt();
    long snapshotChecksum = buffer.getLong();
    byte[] name = new byte[length(buffer, "snapshot chunk name")];
    buffer.get(name);
    byte[] data = new byte[length(buffer, "snapshot chunk data")];
    buffer.get(data);
    return new InstallSnapshotRequest(
        term,
        leaderId,
        snapshotIndex,
        snapshotTerm,
        new RaftSnapshotChunk(
            chunkIndex,
            chunkCount,
            new String(name, StandardCharsets.UTF_8),
            data,
            checksum,
            snapshotChecksum));
  }

  private static int encodedLength(RaftMessage message) {
    int body;
    if (message instanceof VoteRequest) {
      body = 8 + 4 + 8 + 8 + 1;
    } else if (message instanceof VoteResponse) {
      body = 8 + 8 + 1 + 1;
    } else if (message instanceof AppendRequest m) {
      body = 8 + 4 + 8 + 8 + 8 + 4;
      for (JournalRecord record : m.entries()) {
        body += 8 + 8 + 4 + 4 + record.data().capacity();
      }
    } else if (message instanceof AppendResponse) {
      body = 8 + 1 + 8 + 4 + 8 + 8;
    } else if (message instanceof InstallSnapshotRequest m) {
      body =
          8
              + 4
              + 8
              + 8
              + 4
              + 4
              + 4
              + 8
              + 4
              + m.chunk().name().getBytes(StandardCharsets.UTF_8).length
              + 4
              + m.chunk().data().length;
    } else if (message instanceof TimeoutNow) {
      body = 8 + 4;
    } else {
      body = 8 + 8 + 4 + 1;
    }
    return HEADER_BYTES + body;
  }

  private static byte bool(boolean value) {
    return value ? (byte) 1 : (byte) 0;
  }

  private static boolean bool(ByteBuffer buffer) {
    byte value = buffer.get();
    if (value != 0 && value != 1) {
      throw new IllegalArgumentException("Expected a boolean byte 0 or 1, but was " + value);
    }
    return value == 1;
  }
}
