package io.cairn.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.journal.Journal;
import io.cairn.journal.JournalRecord;
import io.cairn.raft.log.RaftEntry;
import io.cairn.raft.log.RaftEntryCodec;
import io.cairn.raft.log.RaftEntryDescriptor;
import io.cairn.raft.log.RaftEntryType;
import io.cairn.raft.protocol.RaftMessage;
import io.cairn.raft.protocol.RaftMessage.AppendRequest;
import io.cairn.raft.protocol.RaftMessage.AppendResponse;
import io.cairn.raft.protocol.RaftMessage.InstallSnapshotRequest;
import io.cairn.raft.protocol.RaftMessage.InstallSnapshotResponse;
import io.cairn.raft.protocol.RaftMessage.TimeoutNow;
import io.cairn.raft.protocol.RaftMessage.VoteRequest;
import io.cairn.raft.protocol.RaftMessage.VoteResponse;
import io.cairn.raft.protocol.RaftMessageCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Round trips of the entry and message codecs, with seeded random values. */
class RaftCodecTest {

  private static final long SEED = 20240611L;

  @Test
  void shouldRoundTripRandomEntries() {
    Random random = new Random(SEED);
    for (int i = 0; i < 500; i++) {
      byte[] payload = new byte[random.nextInt(300)];
      random.nextBytes(payload);
      long lowest = random.nextInt(1_000_000);
      RaftEntry entry =
          random.nextBoolean()
              ? new RaftEntry(
                  1 + random.nextInt(1000),
                  RaftEntryType.APPLICATION,
                  lowest,
                  lowest + random.nextInt(50),
                  new UnsafeBuffer(payload))
              : new RaftEntry(
                  1 + random.nextInt(1000),
                  RaftEntryType.INITIAL,
                  -1,
                  -1,
                  new UnsafeBuffer(new byte[0]));

      DirectBuffer encoded = RaftEntryCodec.encode(entry);
      RaftEntry decoded = RaftEntryCodec.decode(encoded);

      assertThat(encoded.capacity())
          .as("seed %d", SEED)
          .isEqualTo(RaftEntryDescriptor.HEADER_LENGTH + entry.payload().capacity());
      assertThat(decoded.term()).isEqualTo(entry.term());
      assertThat(decoded.type()).isEqualTo(entry.type());
      assertThat(decoded.lowestPosition()).isEqualTo(entry.lowestPosition());
      assertThat(decoded.highestPosition()).isEqualTo(entry.highestPosition());
      assertThat(bytes(decoded.payload())).isEqualTo(bytes(entry.payload()));
      assertThat(decoded.asqn())
          .isEqualTo(entry.type() == RaftEntryType.INITIAL ? Journal.ASQN_IGNORE : lowest);
    }
  }

  @Test
  void shouldRejectEntryOfUnknownVersionOrTruncated() {
    UnsafeBuffer encoded =
        (UnsafeBuffer)
            RaftEntryCodec.encode(
                new RaftEntry(3, RaftEntryType.INITIAL, -1, -1, new UnsafeBuffer(new byte[4])));
    UnsafeBuffer truncated = new UnsafeBuffer(encoded, 0, encoded.capacity() - 1);
    assertThatThrownBy(() -> RaftEntryCodec.decode(truncated))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected payloadLength 3, but was 4");

    encoded.putByte(RaftEntryDescriptor.VERSION_OFFSET, (byte) 9);
    assertThatThrownBy(() -> RaftEntryCodec.decode(encoded))
        .hasMessage("Expected raft entry version 1, but was 9 (raft entry header)");
  }

  @Test
  void shouldRoundTripEveryMessageKind() {
    Random random = new Random(SEED);
    List<RaftMessage> messages = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      messages.add(
          new VoteRequest(
              random.nextLong(),
              random.nextInt(5),
              random.nextLong(),
              random.nextLong(),
              random.nextBoolean()));
      messages.add(
          new VoteResponse(
              random.nextLong(), random.nextLong(), random.nextBoolean(), random.nextBoolean()));
      List<JournalRecord> records = new ArrayList<>();
      for (int r = random.nextInt(4); r > 0; r--) {
        byte[] data = new byte[random.nextInt(64)];
        random.nextBytes(data);
        records.add(
            new JournalRecord(
                random.nextLong(), random.nextLong(), random.nextInt(), new UnsafeBuffer(data)));
      }
      messages.add(
          new AppendRequest(
              random.nextLong(),
              random.nextInt(5),
              random.nextLong(),
              random.nextLong(),
              random.nextLong(),
              records));
      messages.add(
          new AppendResponse(
              random.nextLong(),
              random.nextBoolean(),
              random.nextLong(),
              random.nextInt(),
              random.nextLong(),
              random.nextLong()));
      byte[] chunk = new byte[random.nextInt(100)];
      random.nextBytes(chunk);
      int count = 1 + random.nextInt(10);
      messages.add(
          new InstallSnapshotRequest(
              random.nextLong(),
              random.nextInt(5),
              random.nextLong(),
              random.nextLong(),
              new RaftSnapshotChunk(
                  random.nextInt(count),
                  count,
                  "file-" + i,
                  chunk,
                  RaftSnapshotChunk.checksumOf(chunk),
                  random.nextLong())));
      messages.add(
          new InstallSnapshotResponse(
              random.nextLong(),
              random.nextLong(),
              random.nextInt(),
              InstallSnapshotResponse.Status.values()[random.nextInt(3)]));
      messages.add(new TimeoutNow(random.nextLong(), random.nextInt(5)));
    }

    for (RaftMessage message : messages) {
      RaftMessage decoded = RaftMessageCodec.decode(RaftMessageCodec.encode(message));
      assertThat(normalize(decoded)).as("seed %d", SEED).isEqualTo(normalize(message));
    }
  }

  @Test
  void shouldEncodeTimeoutNowAsNewKindOfVersionOne() {
    byte[] encoded = RaftMessageCodec.encode(new TimeoutNow(0x0102030405060708L, 2));

    // version 1 (unchanged: members that do not know kind 7 drop it as undecodable), kind 7,
    // term i64, leaderId i32, little endian
    assertThat(encoded).containsExactly(1, 7, 8, 7, 6, 5, 4, 3, 2, 1, 2, 0, 0, 0);
    assertThat(RaftMessageCodec.decode(encoded)).isEqualTo(new TimeoutNow(0x0102030405060708L, 2));
  }

  @Test
  void shouldRejectTruncatedOrUnknownMessages() {
    byte[] encoded = RaftMessageCodec.encode(new VoteRequest(1, 2, 3, 4, true));
    byte[] truncated = java.util.Arrays.copyOf(encoded, encoded.length - 1);

    assertThatThrownBy(() -> RaftMessageCodec.decode(truncated))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("truncated");
    assertThatThrownBy(() -> RaftMessageCodec.decode(new byte[] {1, 42}))
        .hasMessage("Expected raft message kind in [1, 7], but was 42");
    assertThatThrownBy(() -> RaftMessageCodec.decode(new byte[] {7, 1}))
        .hasMessage("Expected raft message version 1, but was 7");
  }

  /** Records holding buffers and arrays compare by identity; compare their text instead. */
  private static String normalize(RaftMessage message) {
    if (message instanceof AppendRequest m) {
      StringBuilder text =
          new StringBuilder(
              m.term()
                  + "/"
                  + m.leaderId()
                  + "/"
                  + m.prevLogIndex()
                  + "/"
                  + m.prevLogTerm()
                  + "/"
                  + m.leaderCommit());
      for (JournalRecord record : m.entries()) {
        text.append('|')
            .append(record.index())
            .append(',')
            .append(record.asqn())
            .append(',')
            .append(record.checksum())
            .append(',')
            .append(java.util.Arrays.toString(bytes(record.data())));
      }
      return text.toString();
    }
    if (message instanceof InstallSnapshotRequest m) {
      RaftSnapshotChunk c = m.chunk();
      return m.term()
          + "/"
          + m.leaderId()
          + "/"
          + m.snapshotIndex()
          + "/"
          + m.snapshotTerm()
          + "/"
          + c.chunkIndex()
          + "/"
          + c.chunkCount()
          + "/"
          + c.name()
          + "/"
          + c.checksum()
          + "/"
          + c.snapshotChecksum()
          + "/"
          + java.util.Arrays.toString(c.data());
    }
    return message.toString();
  }

  private static byte[] bytes(DirectBuffer buffer) {
    byte[] bytes = new byte[buffer.capacity()];
    buffer.getBytes(0, bytes);
    return bytes;
  }
}
