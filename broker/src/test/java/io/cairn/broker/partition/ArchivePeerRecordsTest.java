package io.cairn.broker.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backup.archive.ArchivePeers;
import io.cairn.backupapi.archive.ArchivedRecord;
import io.cairn.journal.JournalRecord;
import io.cairn.scheduler.Clock;
import io.cairn.transport.TransportConfig;
import io.cairn.transport.netty.NettyMessagingService;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The archive's records between members: what one encodes the other decodes, and checks; over real
 * netty transports on loopback, a leader gets the records from the member that holds them, "nobody
 * holds them" only when every member said so, and a failure when a member that may hold them could
 * not be asked or answered records that fail the check.
 */
class ArchivePeerRecordsTest {

  private static final int PARTITION = 2;
  private final Map<Integer, NettyMessagingService> transports = new HashMap<>();
  private final ExecutorService executor = Executors.newSingleThreadExecutor();

  @AfterEach
  void tearDown() {
    transports.values().forEach(NettyMessagingService::close);
    executor.shutdownNow();
  }

  /** Members 0 (the leader asking), 1 (holds nothing) and 2 (holds {@code held}). */
  private ArchivePeerRecords leaderOf(List<Integer> members, List<ArchivedRecord> held) {
    for (int id = 0; id < 3; id++) {
      NettyMessagingService transport =
          new NettyMessagingService(
              TransportConfig.builder(id).bindPort(0).ioThreadCount(1).build(),
              Clock.system(),
              new SimpleMeterRegistry());
      transport.start();
      transports.put(id, transport);
    }
    for (NettyMessagingService from : transports.values()) {
      for (Map.Entry<Integer, NettyMessagingService> to : transports.entrySet()) {
        from.setMemberAddress(to.getKey(), to.getValue().localAddress());
      }
    }
    ArchivePeerRecords.serve(transports.get(1), PARTITION, ArchivePeers.NONE, executor);
    ArchivePeerRecords.serve(
        transports.get(2),
        PARTITION,
        (from, to, maxBytes) ->
            CompletableFuture.completedFuture(
                held.stream().filter(r -> r.index() >= from && r.index() <= to).toList()),
        executor);
    return new ArchivePeerRecords(transports.get(0), PARTITION, members);
  }

  @Test
  void theLeaderGetsTheRecordsFromTheMemberThatHoldsThem() {
    List<ArchivedRecord> held = List.of(record(21, "first"), record(22, "second"));
    List<ArchivedRecord> records =
        leaderOf(List.of(0, 1, 2), held).committedRecords(21, 40, 4096).join();
    assertThat(records).extracting(ArchivedRecord::index).containsExactly(21L, 22L);
    assertThat(records.get(1).data()).isEqualTo(held.get(1).data());
  }

  @Test
  void nobodyHoldsThemOnlyWhenEveryMemberSaidSo() {
    assertThat(leaderOf(List.of(0, 1), List.of()).committedRecords(21, 40, 4096).join()).isEmpty();
  }

  @Test
  void aMemberThatCannotBeAskedFailsTheRound() {
    // member 3 has no address: it may hold the records, so "nobody holds them" would be a guess
    assertThatThrownBy(
            () -> leaderOf(List.of(0, 1, 3), List.of()).committedRecords(21, 40, 4096).join())
        .hasMessageContaining("member 3");
  }

  @Test
  void aMemberAnsweringRecordsThatFailTheCheckFailsTheRound() {
    ArchivedRecord good = record(21, "first");
    ArchivedRecord corrupt = new ArchivedRecord(21, good.asqn(), good.checksum() ^ 1, good.data());
    assertThatThrownBy(
            () ->
                leaderOf(List.of(0, 1, 2), List.of(corrupt)).committedRecords(21, 40, 4096).join())
        .hasMessageContaining("member 2")
        .hasMessageContaining("checksum of archive record 21");
  }

  private static ArchivedRecord record(long index, String data) {
    byte[] bytes = data.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    long asqn = index * 10;
    return new ArchivedRecord(
        index, asqn, JournalRecord.computeChecksum(index, asqn, new UnsafeBuffer(bytes)), bytes);
  }

  @Test
  void aRequestAndAnAnswerRoundTrip() {
    ArchivePeerRecords.Request request =
        ArchivePeerRecords.decodeRequest(ArchivePeerRecords.encodeRequest(3, 21, 40, 4096), 3);
    assertThat(request).isEqualTo(new ArchivePeerRecords.Request(21, 40, 4096));

    List<ArchivedRecord> records = List.of(record(21, "first"), record(22, "second"));
    List<ArchivedRecord> decoded =
        ArchivePeerRecords.decodeResponse(ArchivePeerRecords.encodeResponse(records), 21, 40);
    assertThat(decoded).hasSize(2);
    for (int i = 0; i < 2; i++) {
      assertThat(decoded.get(i).index()).isEqualTo(records.get(i).index());
      assertThat(decoded.get(i).asqn()).isEqualTo(records.get(i).asqn());
      assertThat(decoded.get(i).checksum()).isEqualTo(records.get(i).checksum());
      assertThat(decoded.get(i).data()).isEqualTo(records.get(i).data());
    }
    assertThat(
            ArchivePeerRecords.decodeResponse(ArchivePeerRecords.encodeResponse(List.of()), 1, 1))
        .isEmpty();
  }

  @Test
  void aRequestForAnotherPartitionOrOfBadIndexesIsRefusedNamingTheField() {
    assertThatThrownBy(
            () -> ArchivePeerRecords.decodeRequest(ArchivePeerRecords.encodeRequest(4, 1, 2, 9), 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("partition 3, but got one for 4");
    assertThatThrownBy(
            () -> ArchivePeerRecords.decodeRequest(ArchivePeerRecords.encodeRequest(3, 9, 2, 9), 3))
        .hasMessageContaining("from 9 to 2");
    assertThatThrownBy(
            () -> ArchivePeerRecords.decodeRequest(ArchivePeerRecords.encodeRequest(3, 1, 2, 0), 3))
        .hasMessageContaining("max bytes");
  }

  @Test
  void anAnswerWithOtherIndexesACorruptRecordOrCutShortIsRefused() {
    byte[] valid =
        ArchivePeerRecords.encodeResponse(List.of(record(21, "first"), record(22, "second")));
    assertThatThrownBy(() -> ArchivePeerRecords.decodeResponse(valid, 20, 40))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected archive record 20");
    assertThatThrownBy(() -> ArchivePeerRecords.decodeResponse(valid, 21, 21))
        .hasMessageContaining("at most 21");

    byte[] corrupt = valid.clone();
    corrupt[corrupt.length - 1] ^= 1; // a bit of the last record's data
    assertThatThrownBy(() -> ArchivePeerRecords.decodeResponse(corrupt, 21, 40))
        .hasMessageContaining("checksum of archive record 22");

    assertThatThrownBy(
            () -> ArchivePeerRecords.decodeResponse(Arrays.copyOf(valid, valid.length - 3), 21, 40))
        .isInstanceOf(IllegalArgumentException.class);
    byte[] huge = ByteBuffer.allocate(9).put((byte) 1).putInt(Integer.MAX_VALUE).array();
    assertThatThrownBy(() -> ArchivePeerRecords.decodeResponse(huge, 1, 2))
        .hasMessageContaining("archive records, but the answer says " + Integer.MAX_VALUE);
  }
}
