package io.cairn.raft;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.raft.RaftTestContext.Sent;
import io.cairn.raft.protocol.RaftMessage;
import io.cairn.raft.protocol.RaftMessage.InstallSnapshotRequest;
import io.cairn.raft.protocol.RaftMessage.InstallSnapshotResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Snapshot transfer to a follower that needs compacted entries, and compaction bounds. */
class RaftSnapshotInstallTest {

  private static final byte[] CONTENT =
      "the state of the partition at index six, in chunks".getBytes();
  private static final byte[] NEWER_CONTENT =
      "the state of the partition at index eight, also in several chunks".getBytes();

  @Test
  void shouldInstallSnapshotOnFollowerThatNeedsCompactedEntries() {
    RaftTestContext leader = compactedLeader();
    RaftTestContext follower = RaftTestContext.builder(1, 0, 1, 2).build();

    exchange(leader, follower);

    InMemorySnapshotStore.Snapshot installed = follower.snapshots.latest();
    assertThat(installed.index()).isEqualTo(6);
    assertThat(installed.term()).isEqualTo(1);
    assertThat(installed.content()).isEqualTo(CONTENT);
    assertThat(follower.journal.getFirstIndex()).isEqualTo(7);
    assertThat(follower.node.log().lastIndex()).isEqualTo(leader.node.log().lastIndex());
    for (long i = 7; i <= leader.node.log().lastIndex(); i++) {
      assertThat(follower.termAt(i)).isEqualTo(leader.termAt(i));
      assertThat(follower.journal.record(i).checksum())
          .isEqualTo(leader.journal.record(i).checksum());
    }
    assertThat(follower.node.commitIndex()).isEqualTo(leader.node.commitIndex());
  }

  @Test
  void shouldRejectCorruptChunkAndRetryTransferFromFirstChunk() {
    RaftTestContext leader = compactedLeader();
    RaftTestContext follower = RaftTestContext.builder(1, 0, 1, 2).build();
    List<Integer> chunksSent = new ArrayList<>();
    boolean[] corrupted = new boolean[1];
    leader.outboundFilter(
        message -> {
          if (message instanceof InstallSnapshotRequest request) {
            chunksSent.add(request.chunk().chunkIndex());
            if (request.chunk().chunkIndex() == 1 && !corrupted[0]) {
              corrupted[0] = true;
              return corrupt(request);
            }
          }
          return message;
        });

    exchange(leader, follower);

    assertThat(follower.snapshots.latest())
        .as("nothing installed after the corrupt chunk")
        .isNull();
    assertThat(follower.snapshots.aborts()).isEqualTo(1);
    assertThat(follower.journal.getFirstIndex()).isEqualTo(1);

    leader.time(RaftTestContext.CONFIG.requestTimeout().toMillis());
    exchange(leader, follower);

    // chunk 0 went out before the filter was set; after the rejection the transfer restarts at 0
    assertThat(chunksSent).containsExactly(1, 0, 1, 2, 3);
    assertThat(follower.snapshots.latest().content()).isEqualTo(CONTENT);
    assertThat(follower.snapshots.commits()).isEqualTo(1);
    assertThat(follower.journal.getFirstIndex()).isEqualTo(7);
    assertThat(follower.node.log().lastIndex()).isEqualTo(leader.node.log().lastIndex());
  }

  @Test
  void shouldRestartTransferFromLatestSnapshotWhenSnapshotBeingSentIsGone() {
    RaftTestContext leader = compactedLeader();
    RaftTestContext follower = RaftTestContext.builder(1, 0, 1, 2).build();
    // while chunk 0 is on its way, a newer snapshot replaces the one being sent
    leader.snapshots.take(8, 1, NEWER_CONTENT);
    assertThat(leader.node.compact(9)).isTrue();
    rejectChunkOnce(leader, 1);
    exchange(leader, follower);
    assertThat(follower.snapshots.aborts()).as("chunk 1 rejected").isEqualTo(1);

    for (int attempt = 0; attempt < 3 && follower.snapshots.latest() == null; attempt++) {
      leader.time(RaftTestContext.CONFIG.requestTimeout().toMillis());
      exchange(leader, follower);
    }

    assertThat(follower.snapshots.latest())
        .as("the transfer started over from the latest snapshot instead of stalling")
        .isNotNull();
    assertThat(follower.snapshots.latest().index()).isEqualTo(8);
    assertThat(follower.snapshots.latest().content()).isEqualTo(NEWER_CONTENT);
    assertThat(follower.journal.getFirstIndex()).isEqualTo(9);
    assertThat(follower.node.log().lastIndex()).isEqualTo(leader.node.log().lastIndex());
    assertThat(follower.node.commitIndex()).isEqualTo(leader.node.commitIndex());
  }

  @Test
  void shouldWaitRequestTimeoutAndRetryWhenLatestSnapshotHasNoChunks() {
    RaftTestContext leader = compactedLeader();
    RaftTestContext follower = RaftTestContext.builder(1, 0, 1, 2).build();
    leader.snapshots.loseLatest();
    rejectChunkOnce(leader, 1);
    exchange(leader, follower);
    assertThat(follower.snapshots.aborts()).as("chunk 1 rejected").isEqualTo(1);

    leader.time(RaftTestContext.CONFIG.requestTimeout().toMillis());

    assertThat(leader.sentTo(1, InstallSnapshotRequest.class)).as("nothing to send").isEmpty();
    assertThat(leader.node.nextDeadlineMs())
        .as("the leader waits for the next attempt instead of spinning")
        .isGreaterThan(leader.nowMs);

    leader.snapshots.take(8, 1, NEWER_CONTENT);
    leader.time(RaftTestContext.CONFIG.requestTimeout().toMillis());
    assertThat(leader.lastSentTo(1, InstallSnapshotRequest.class).snapshotIndex()).isEqualTo(8);
    exchange(leader, follower);

    assertThat(follower.snapshots.latest().index()).isEqualTo(8);
    assertThat(follower.snapshots.latest().content()).isEqualTo(NEWER_CONTENT);
    assertThat(follower.node.log().lastIndex()).isEqualTo(leader.node.log().lastIndex());
  }

  @Test
  void shouldAnswerInstalledWhenFollowerAlreadyHasSnapshotEntry() {
    RaftTestContext follower = RaftTestContext.builder(1, 0, 1, 2).log(1, 1, 1, 1, 1, 1, 1).build();
    RaftTestContext leader = compactedLeader();
    InMemorySnapshotStore.Snapshot snapshot = leader.snapshots.latest();

    follower.deliver(
        0,
        new InstallSnapshotRequest(leader.node.term(), 0, 6, 1, snapshot.openChunkReader().next()));

    assertThat(follower.onlySentTo(0, InstallSnapshotResponse.class).status())
        .isEqualTo(InstallSnapshotResponse.Status.INSTALLED);
    assertThat(follower.snapshots.latest()).isNull();
    assertThat(follower.node.log().lastIndex()).isEqualTo(7);
  }

  @Test
  void shouldNeverCompactPastSnapshotStoreBound() {
    InMemorySnapshotStore snapshots = new InMemorySnapshotStore();
    RaftTestContext ctx =
        RaftTestContext.builder(1, 0, 1, 2)
            .snapshots(snapshots)
            .log(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
            .build();
    ctx.deliver(0, RaftTestContext.appendRequest(1, 0, 12, 1, 12));
    assertThat(ctx.node.compact(11)).as("no snapshot yet").isFalse();

    snapshots.take(10, 1, CONTENT);
    snapshots.compactionBound(3);
    assertThat(ctx.node.compact(11)).isFalse();
    assertThat(ctx.journal.getFirstIndex()).isEqualTo(1);

    snapshots.compactionBound(-1);
    assertThat(ctx.node.compact(11)).isTrue();
    assertThat(ctx.journal.getFirstIndex()).isEqualTo(9);
    assertThat(ctx.node.log().termAt(10)).isEqualTo(1);
  }

  /** Leader of term 2 whose log up to 4 is compacted under a snapshot at index 6. */
  private static RaftTestContext compactedLeader() {
    InMemorySnapshotStore snapshots = new InMemorySnapshotStore(16);
    RaftTestContext leader =
        RaftTestContext.builder(0, 0, 1, 2)
            .snapshots(snapshots)
            .log(1, 1, 1, 1, 1, 1, 1, 1)
            .meta(1, -1)
            .build();
    leader.electLeader();
    leader.acknowledgeAppends(2);
    assertThat(leader.node.commitIndex()).isEqualTo(9);
    snapshots.take(6, 1, CONTENT);
    assertThat(leader.node.compact(7)).isTrue();
    assertThat(leader.journal.getFirstIndex()).isEqualTo(5);
    leader.drain();
    // follower 1 never answered: after a request timeout the leader sends from index 1, compacted
    leader.time(RaftTestContext.CONFIG.requestTimeout().toMillis());
    assertThat(leader.lastSentTo(1, InstallSnapshotRequest.class).chunk().chunkIndex()).isZero();
    return leader;
  }

  /**
   * Corrupts the first copy of chunk {@code chunkIndex} the leader sends, so the follower rejects
   * it.
   */
  private static void rejectChunkOnce(RaftTestContext leader, int chunkIndex) {
    boolean[] corrupted = new boolean[1];
    leader.outboundFilter(
        message -> {
          if (message instanceof InstallSnapshotRequest request
              && request.chunk().chunkIndex() == chunkIndex
              && !corrupted[0]) {
            corrupted[0] = true;
            return corrupt(request);
          }
          return message;
        });
  }

  /** Delivers messages between leader and follower until neither sends anything. */
  private static void exchange(RaftTestContext leader, RaftTestContext follower) {
    for (int round = 0; round < 100; round++) {
      List<Sent> fromLeader = leader.drain();
      List<Sent> fromFollower = follower.drain();
      if (fromLeader.isEmpty() && fromFollower.isEmpty()) {
        return;
      }
      for (Sent sent : fromLeader) {
        if (sent.to() == follower.localId) {
          follower.deliver(leader.localId, sent.message());
        }
      }
      for (Sent sent : fromFollower) {
        if (sent.to() == leader.localId) {
          leader.deliver(follower.localId, sent.message());
        }
      }
    }
    throw new AssertionError("Expected the exchange to settle within 100 rounds");
  }

  private static RaftMessage corrupt(InstallSnapshotRequest request) {
    RaftSnapshotChunk chunk = request.chunk();
    byte[] data = chunk.data().clone();
    data[0] ^= 0x5A;
    return new InstallSnapshotRequest(
        request.term(),
        request.leaderId(),
        request.snapshotIndex(),
        request.snapshotTerm(),
        new RaftSnapshotChunk(
            chunk.chunkIndex(),
            chunk.chunkCount(),
            chunk.name(),
            data,
            chunk.checksum(),
            chunk.snapshotChecksum()));
  }
}
