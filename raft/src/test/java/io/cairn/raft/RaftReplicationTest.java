package io.cairn.raft;

import static io.cairn.raft.RaftTestContext.appendRequest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cairn.journal.JournalRecord;
import io.cairn.raft.log.RaftLog;
import io.cairn.raft.protocol.RaftMessage.AppendRequest;
import io.cairn.raft.protocol.RaftMessage.AppendResponse;
import java.util.List;
import java.util.stream.LongStream;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Replication as protocol scripts: follower consistency checks, leader pipelining and commit. */
class RaftReplicationTest {

  // ---- follower ----

  @Test
  void shouldAppendEntriesAndAcknowledgeOnlyAfterFlush() {
    RaftTestContext ctx = RaftTestContext.builder(1, 0, 1, 2).build();

    ctx.deliver(0, appendRequest(1, 0, 0, 0, 1, 1, 1));

    assertThat(ctx.journal.flushedIndex()).isEqualTo(2);
    assertThat(ctx.onlySentTo(0, AppendResponse.class))
        .isEqualTo(new AppendResponse(1, true, 2, 2, -1, -1));
    assertThat(ctx.node.commitIndex()).isEqualTo(1);
    assertThat(ctx.node.leaderId()).isEqualTo(0);
  }

  @Test
  void shouldAcknowledgeOnlyOnceADeferredFlushRan() {
    RaftTestContext ctx = RaftTestContext.builder(1, 0, 1, 2).deferFlush().build();

    ctx.deliver(0, appendRequest(1, 0, 0, 0, 1, 1, 1));

    // appended, not flushed: nothing is acknowledged and nothing committed yet
    assertThat(ctx.sentTo(0, AppendResponse.class)).isEmpty();
    assertThat(ctx.node.needsFlush()).isTrue();
    assertThat(ctx.node.commitIndex()).isZero();

    RaftLog.PendingFlush flush = ctx.node.prepareFlush(ctx.nowMs);
    flush.force();
    ctx.node.onFlushed(flush, ctx.nowMs);

    assertThat(ctx.journal.flushedIndex()).isEqualTo(2);
    assertThat(ctx.onlySentTo(0, AppendResponse.class))
        .isEqualTo(new AppendResponse(1, true, 2, 2, -1, -1));
    assertThat(ctx.node.commitIndex()).isEqualTo(1);
    assertThat(ctx.node.needsFlush()).isFalse();
  }

  @Test
  void shouldNotAcknowledgeEntriesReplacedWhileTheirFlushRan() {
    RaftTestContext ctx = RaftTestContext.builder(1, 0, 1, 2).log(1, 1).deferFlush().build();
    ctx.deliver(0, appendRequest(2, 0, 2, 1, 0, 2, 2));
    RaftLog.PendingFlush old = ctx.node.prepareFlush(ctx.nowMs);

    // a new leader replaces entries 3 and 4 before the flush of the old ones completes
    ctx.deliver(2, appendRequest(3, 2, 2, 1, 0, 3, 3));
    old.force();
    ctx.node.onFlushed(old, ctx.nowMs);

    assertThat(ctx.sentTo(0, AppendResponse.class)).isEmpty();
    assertThat(ctx.sentTo(2, AppendResponse.class)).isEmpty();
    assertThat(ctx.node.log().flushedIndex()).isEqualTo(2);
    assertThat(ctx.node.needsFlush()).isTrue();

    RaftLog.PendingFlush current = ctx.node.prepareFlush(ctx.nowMs);
    current.force();
    ctx.node.onFlushed(current, ctx.nowMs);

    assertThat(ctx.sentTo(0, AppendResponse.class)).isEmpty();
    assertThat(ctx.onlySentTo(2, AppendResponse.class))
        .isEqualTo(new AppendResponse(3, true, 4, 2, -1, -1));
    assertThat(LongStream.rangeClosed(1, 4).map(ctx::termAt).toArray()).containsExactly(1, 1, 3, 3);
  }

  @Test
  void shouldSendEntriesBeforeTheLeaderFlushesAndCountItOnlyAfter() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).deferFlush().build().electLeader();
    ctx.acknowledgeAppends(1);
    ctx.acknowledgeAppends(2);
    ctx.drain();
    long committed = ctx.node.commitIndex();
    ctx.node.append(10, 10, new UnsafeBuffer("a".getBytes()), ctx.nowMs);

    RaftLog.PendingFlush flush = ctx.node.prepareFlush(ctx.nowMs);

    // the followers get the entry while the leader's own fsync has not run
    assertThat(ctx.lastSentTo(1, AppendRequest.class).entries()).hasSize(1);
    assertThat(ctx.lastSentTo(2, AppendRequest.class).entries()).hasSize(1);
    assertThat(ctx.node.log().flushedIndex()).isEqualTo(committed);
    ctx.acknowledgeAppends(1);
    assertThat(ctx.node.commitIndex()).isEqualTo(committed); // one of three has it on disk

    flush.force();
    ctx.node.onFlushed(flush, ctx.nowMs);
    assertThat(ctx.node.commitIndex()).isEqualTo(committed + 1);
  }

  @Test
  void shouldRejectWhenPreviousIndexIsBeyondLogAndHintNextIndex() {
    RaftTestContext ctx = RaftTestContext.builder(1, 0, 1, 2).log(1, 1).build();

    ctx.deliver(0, appendRequest(2, 0, 5, 2, 0, 2));

    assertThat(ctx.onlySentTo(0, AppendResponse.class))
        .isEqualTo(new AppendResponse(2, false, 0, 1, 3, -1));
    assertThat(ctx.node.log().lastIndex()).isEqualTo(2);
  }

  @Test
  void shouldRejectMismatchWithFirstIndexOfConflictingTerm() {
    RaftTestContext ctx = RaftTestContext.builder(1, 0, 1, 2).log(1, 1, 2, 2).build();

    ctx.deliver(0, appendRequest(3, 0, 4, 3, 0));

    assertThat(ctx.onlySentTo(0, AppendResponse.class))
        .isEqualTo(new AppendResponse(3, false, 0, 0, 3, 2));
  }

  @Test
  void shouldTruncateConflictingSuffixAndAppendLeaderEntries() {
    RaftTestContext ctx = RaftTestContext.builder(1, 0, 1, 2).log(1, 1, 2, 2).build();

    ctx.deliver(0, appendRequest(3, 0, 2, 1, 0, 3, 3));

    assertThat(LongStream.rangeClosed(1, 4).map(ctx::termAt).toArray()).containsExactly(1, 1, 3, 3);
    assertThat(ctx.node.log().lastIndex()).isEqualTo(4);
    assertThat(ctx.onlySentTo(0, AppendResponse.class).success()).isTrue();
    assertThat(ctx.journal.flushedIndex()).isEqualTo(4);
  }

  @Test
  void shouldKeepMatchingEntriesWhenDelayedRequestArrives() {
    RaftTestContext ctx = RaftTestContext.builder(1, 0, 1, 2).build();
    ctx.deliver(0, appendRequest(1, 0, 0, 0, 0, 1, 1, 1, 1));
    ctx.drain();

    ctx.deliver(0, appendRequest(1, 0, 0, 0, 0, 1, 1));

    assertThat(ctx.node.log().lastIndex()).isEqualTo(4);
    assertThat(ctx.onlySentTo(0, AppendResponse.class))
        .isEqualTo(new AppendResponse(1, true, 2, 2, -1, -1));
  }

  @Test
  void shouldCommitOnlyUpToVerifiedPrefix() {
    RaftTestContext ctx = RaftTestContext.builder(1, 0, 1, 2).log(1, 1, 1, 1).build();

    ctx.deliver(0, appendRequest(2, 0, 1, 1, 10));

    assertThat(ctx.node.commitIndex()).isEqualTo(1);
  }

  @Test
  void shouldFailInsteadOfTruncatingCommittedEntry() {
    RaftTestContext ctx = RaftTestContext.builder(1, 0, 1, 2).build();
    ctx.deliver(0, appendRequest(2, 0, 0, 0, 3, 1, 2, 2));
    assertThat(ctx.node.commitIndex()).isEqualTo(3);

    assertThatThrownBy(() -> ctx.deliver(2, appendRequest(3, 2, 1, 1, 3, 3)))
        .isInstanceOf(RaftSafetyException.class)
        .hasMessageContaining("never truncate committed entries");

    assertThat(ctx.node.role()).isEqualTo(RaftRole.FAILED);
    assertThat(ctx.node.log().lastIndex()).isEqualTo(3);
  }

  @Test
  void shouldRejectAppendFromOlderTermWithoutChangingLog() {
    RaftTestContext ctx = RaftTestContext.builder(1, 0, 1, 2).meta(5, -1).build();

    ctx.deliver(0, appendRequest(4, 0, 0, 0, 0, 4));

    assertThat(ctx.onlySentTo(0, AppendResponse.class).term()).isEqualTo(5);
    assertThat(ctx.onlySentTo(0, AppendResponse.class).success()).isFalse();
    assertThat(ctx.node.log().lastIndex()).isZero();
  }

  @Test
  void shouldRejectCorruptEntryAndAskForItAgain() {
    RaftTestContext ctx = RaftTestContext.builder(1, 0, 1, 2).build();
    ctx.deliver(0, withCorruptSecondEntry(appendRequest(1, 0, 0, 0, 0, 1, 1)));

    assertThat(ctx.node.log().lastIndex()).isEqualTo(1);
    assertThat(ctx.onlySentTo(0, AppendResponse.class))
        .isEqualTo(new AppendResponse(1, false, 0, 2, 2, -1));
    assertThat(ctx.node.role()).isEqualTo(RaftRole.FOLLOWER);
  }

  @Test
  void shouldLogAnAppendTheJournalRefusesOnceUntilAnAppendSucceeds() {
    RaftTestContext ctx = RaftTestContext.builder(1, 0, 1, 2).build();
    AppendRequest good = appendRequest(1, 0, 0, 0, 0, 1, 1);
    Logger logger = (Logger) LoggerFactory.getLogger("io.cairn.raft.consensus.FollowerHandler");
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    logger.addAppender(logged);
    Level level = logger.getLevel();
    logger.setLevel(Level.DEBUG);
    try {
      for (int attempt = 0; attempt < 5; attempt++) { // the leader sends it again and again
        ctx.deliver(0, withCorruptSecondEntry(good));
      }
      ctx.deliver(0, new AppendRequest(1, 0, 1, 1, 0, List.of(good.entries().get(1))));
    } finally {
      logger.detachAppender(logged);
      logger.setLevel(level);
    }

    assertThat(ctx.node.log().lastIndex()).isEqualTo(2);
    assertThat(logged.list)
        .filteredOn(event -> event.getLevel() == Level.WARN)
        .singleElement()
        .satisfies(
            event ->
                assertThat(event.getFormattedMessage())
                    .startsWith("Dropping entry 2 that failed to append (partition")
                    .contains("further failures are logged at DEBUG"));
    assertThat(logged.list).filteredOn(event -> event.getLevel() == Level.DEBUG).hasSize(4);
    assertThat(logged.list)
        .filteredOn(event -> event.getLevel() == Level.INFO)
        .singleElement()
        .satisfies(event -> assertThat(event.getFormattedMessage()).endsWith("after 5 refused"));
  }

  /** {@code request} with its second entry's checksum broken: the journal refuses that entry. */
  private static AppendRequest withCorruptSecondEntry(AppendRequest request) {
    JournalRecord second = request.entries().get(1);
    JournalRecord corrupt =
        new JournalRecord(second.index(), second.asqn(), second.checksum() ^ 1, second.data());
    return new AppendRequest(
        request.term(),
        request.leaderId(),
        request.prevLogIndex(),
        request.prevLogTerm(),
        request.leaderCommit(),
        List.of(request.entries().get(0), corrupt));
  }

  // ---- leader ----

  @Test
  void shouldCommitWhenMajorityStoredEntryOfCurrentTerm() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).build().electLeader();
    long index = ctx.append(10, "a");
    assertThat(ctx.node.commitIndex()).isZero();

    ctx.acknowledgeAppends(1);

    assertThat(ctx.node.commitIndex()).isEqualTo(index);
    assertThat(ctx.commits).containsExactly(1L, index); // the initial entry, then the append
  }

  @Test
  void shouldNotCommitOlderTermEntryByCountingReplicas() {
    // Raft's figure 8: entries of older terms commit only with an entry of the current term
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).log(1, 2).meta(3, -1).build();
    ctx.electLeader();
    assertThat(ctx.node.term()).isEqualTo(4);
    ctx.drain();

    ctx.deliver(1, new AppendResponse(4, true, 2, 2, -1, -1));

    assertThat(ctx.node.commitIndex()).isZero();
    ctx.deliver(1, new AppendResponse(4, true, 3, 1, -1, -1));
    assertThat(ctx.node.commitIndex()).isEqualTo(3);
  }

  @Test
  void shouldCountLeaderEntryOnlyAfterLocalFlush() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2, 3, 4).build().electLeader();
    for (int member : ctx.others()) {
      ctx.acknowledgeAppends(member);
    }
    assertThat(ctx.node.commitIndex()).isEqualTo(1);
    ctx.node.append(10, 10, new UnsafeBuffer("a".getBytes()), ctx.nowMs);
    ctx.time(100); // the heartbeat carries the entry, not yet flushed on the leader

    ctx.deliver(1, new AppendResponse(ctx.node.term(), true, 2, 1, -1, -1));
    ctx.deliver(2, new AppendResponse(ctx.node.term(), true, 2, 1, -1, -1));
    assertThat(ctx.node.commitIndex()).isEqualTo(1);

    ctx.node.flushAndReplicate(ctx.nowMs);
    assertThat(ctx.node.commitIndex()).isEqualTo(2);
  }

  @Test
  void shouldPipelineAtMostMaxInFlightAppendsPerFollower() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).build().electLeader();
    ctx.acknowledgeAppends(1);
    ctx.acknowledgeAppends(2);
    ctx.drain();

    for (int i = 1; i <= 10; i++) {
      ctx.node.append(i * 10L, i * 10L, new UnsafeBuffer(new byte[120]), ctx.nowMs);
    }
    ctx.node.flushAndReplicate(ctx.nowMs);

    List<AppendRequest> sent = ctx.sentTo(1, AppendRequest.class);
    assertThat(sent).hasSize(RaftTestContext.CONFIG.maxInFlightAppends());
    assertThat(sent).allSatisfy(r -> assertThat(r.entries()).hasSize(1)); // 152 bytes each, 200 max
    assertThat(sent.get(1).prevLogIndex()).isEqualTo(sent.get(0).prevLogIndex() + 1);

    ctx.drain();
    ctx.deliver(1, new AppendResponse(ctx.node.term(), true, 2, 1, -1, -1));
    assertThat(ctx.sentTo(1, AppendRequest.class))
        .singleElement()
        .satisfies(r -> assertThat(r.prevLogIndex()).isEqualTo(3));
  }

  @Test
  void shouldBatchSmallEntriesUpToMaxBatchBytes() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).build().electLeader();
    ctx.acknowledgeAppends(1);
    ctx.drain();

    for (int i = 1; i <= 6; i++) {
      ctx.node.append(i * 10L, i * 10L, new UnsafeBuffer(new byte[8]), ctx.nowMs);
    }
    ctx.node.flushAndReplicate(ctx.nowMs);

    // 40 bytes per entry, 200 bytes per request: 5 then 1
    assertThat(ctx.sentTo(1, AppendRequest.class))
        .extracting(r -> r.entries().size())
        .containsExactly(5, 1);
  }

  @Test
  void shouldBackOffToConflictHintAndResendFromThere() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).log(1, 1, 2, 2).meta(2, -1).build();
    ctx.electLeader();
    ctx.drain();

    // follower 1 has [1, 1, 4?]: its entry 3 is of term 2 but entry 4 missing -> hint index 4
    ctx.deliver(1, new AppendResponse(ctx.node.term(), false, 0, 1, 4, -1));
    AppendRequest retry = ctx.lastSentTo(1, AppendRequest.class);
    assertThat(retry.prevLogIndex()).isEqualTo(3);
    ctx.drain();

    // follower 2 has a term-1 entry at 3 that conflicts: the leader resends after its last term 1
    ctx.deliver(2, new AppendResponse(ctx.node.term(), false, 0, 1, 3, 1));
    AppendRequest second = ctx.lastSentTo(2, AppendRequest.class);
    assertThat(second.prevLogIndex()).isEqualTo(2);
    assertThat(second.prevLogTerm()).isEqualTo(1);
    assertThat(second.entries()).extracting(r -> r.index()).startsWith(3L);
  }

  @Test
  void shouldResendFromMatchIndexWhenRequestTimesOut() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).build().electLeader();
    ctx.acknowledgeAppends(1);
    ctx.drain();
    ctx.append(10, "a");
    ctx.append(20, "b");
    assertThat(ctx.sentTo(1, AppendRequest.class)).hasSize(2);
    ctx.drain();

    ctx.time(RaftTestContext.CONFIG.requestTimeout().toMillis());

    AppendRequest resent = ctx.lastSentTo(1, AppendRequest.class);
    assertThat(resent.prevLogIndex()).isEqualTo(1);
    assertThat(resent.entries()).extracting(r -> r.index()).containsExactly(2L, 3L);
  }

  @Test
  void shouldSendHeartbeatWhenIdleForHeartbeatInterval() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).build().electLeader();
    ctx.acknowledgeAppends(1);
    ctx.acknowledgeAppends(2);
    ctx.drain();

    ctx.time(50);
    assertThat(ctx.sentTo(1, AppendRequest.class)).isEmpty();
    ctx.time(50);

    AppendRequest heartbeat = ctx.onlySentTo(1, AppendRequest.class);
    assertThat(heartbeat.entries()).isEmpty();
    assertThat(heartbeat.prevLogIndex()).isEqualTo(1);
    assertThat(heartbeat.leaderCommit()).isEqualTo(1);
    assertThat(ctx.node.nextDeadlineMs()).isEqualTo(ctx.nowMs + 100);
  }

  @Test
  void shouldRejectAppendWithPositionsNotAfterLastWrittenPosition() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).build().electLeader();
    ctx.append(10, "a");

    assertThatThrownBy(() -> ctx.node.append(10, 12, new UnsafeBuffer(new byte[1]), ctx.nowMs))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected lowestPosition > last written position 10");
    assertThat(ctx.node.role()).isEqualTo(RaftRole.LEADER);
  }
}
