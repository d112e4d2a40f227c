package io.cairn.raft;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.raft.RaftTestContext.Sent;
import io.cairn.raft.protocol.RaftMessage;
import io.cairn.raft.protocol.RaftMessage.AppendResponse;
import io.cairn.raft.protocol.RaftMessage.TimeoutNow;
import io.cairn.raft.protocol.RaftMessage.VoteRequest;
import io.cairn.raft.protocol.RaftMessage.VoteResponse;
import io.cairn.raft.storage.RaftMeta;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Leadership transfer to the preferred member as protocol scripts: when the leader sends
 * TimeoutNow, what the target and the voters do with it, and how a transfer that does not work out
 * ends.
 */
class RaftLeadershipTransferTest {

  private static final long ELECTION_MS = RaftTestContext.CONFIG.electionTimeout().toMillis();
  private static final long HEARTBEAT_MS = RaftTestContext.CONFIG.heartbeatInterval().toMillis();

  @Test
  void shouldHandLeadershipToCaughtUpPreferredMemberAfterSettleTime() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).preferredLeader(1).build();
    ctx.electLeader();
    long term = ctx.node.term();
    long electedAtMs = ctx.nowMs;
    ctx.acknowledgeAppends(1);
    ctx.acknowledgeAppends(2);
    ctx.drain();

    // the leader settles for an election timeout first
    assertThat(run(ctx, ELECTION_MS - HEARTBEAT_MS, 1, 2)).isEmpty();
    List<String> sent = run(ctx, 2 * HEARTBEAT_MS, 1, 2);

    assertThat(sent)
        .containsExactly("TimeoutNow(" + term + ", 0) to 1 at " + (electedAtMs + ELECTION_MS));
    assertThat(ctx.events).contains("transfer to 1 in " + term + " started");
    assertThat(ctx.node.role()).isEqualTo(RaftRole.LEADER);
    assertThat(ctx.node.isTransferringLeadership()).isTrue();
    // nothing new is appended, so the target's log stays as recent as any
    assertThat(ctx.node.append(100, 100, new UnsafeBuffer(new byte[1]), ctx.nowMs))
        .isEqualTo(new AppendResult.NotLeader(1, term));

    // the target's vote request makes the leader step down and vote for it
    long lastIndex = ctx.node.log().lastIndex();
    ctx.deliver(1, new VoteRequest(term + 1, 1, lastIndex, term, false));
    assertThat(ctx.node.role()).isEqualTo(RaftRole.FOLLOWER);
    assertThat(ctx.node.term()).isEqualTo(term + 1);
    assertThat(ctx.lastSentTo(1, VoteResponse.class))
        .isEqualTo(new VoteResponse(term + 1, term + 1, true, false));
    assertThat(ctx.meta.meta()).isEqualTo(new RaftMeta(term + 1, 1));

    ctx.deliver(1, RaftTestContext.appendRequest(term + 1, 1, lastIndex, term, 0));
    assertThat(ctx.node.leaderId()).isEqualTo(1);
    assertThat(ctx.events).contains("transfer to 1 in " + term + " completed");
  }

  @Test
  void shouldNotTransferToPreferredMemberWhileItIsBehind() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).preferredLeader(1).build();
    ctx.electLeader();
    long term = ctx.node.term();
    ctx.acknowledgeAppends(1);
    ctx.acknowledgeAppends(2);
    long staleMatch = ctx.node.log().lastIndex();
    ctx.drain();
    ctx.append(10, "a");
    ctx.append(20, "b");
    ctx.acknowledgeAppends(2);
    ctx.drain();

    // member 1 answers every heartbeat, but still matches only up to the initial entry
    for (long elapsed = 0; elapsed < 3 * ELECTION_MS; elapsed += HEARTBEAT_MS) {
      ctx.time(HEARTBEAT_MS);
      ctx.acknowledgeAppends(2);
      ctx.deliver(1, new AppendResponse(term, true, staleMatch, 0, -1, -1));
      assertThat(ctx.sentTo(1, TimeoutNow.class)).as("at %d ms", ctx.nowMs).isEmpty();
      ctx.drain();
    }

    // once it has every entry, it gets leadership
    assertThat(run(ctx, ELECTION_MS, 1, 2)).hasSize(1);
    assertThat(ctx.node.role()).isEqualTo(RaftRole.LEADER);
  }

  @Test
  void shouldHandLeadershipToInSyncPreferredMemberUnderSteadyAppendsOnceItHasTheEntriesInFlight() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).preferredLeader(1).build();
    ctx.electLeader();
    long term = ctx.node.term();
    long electedAtMs = ctx.nowMs;
    ctx.acknowledgeAppends(1);
    ctx.acknowledgeAppends(2);
    ctx.drain();

    // an entry is appended before every tick: member 1 holds every committed entry, but never the
    // last one when the leader ticks
    long position = 10;
    while (!ctx.node.isTransferringLeadership()) {
      assertThat(ctx.nowMs).isLessThan(electedAtMs + ELECTION_MS);
      ctx.append(position, "entry at " + position);
      position += 10;
      ctx.time(HEARTBEAT_MS);
      assertThat(ctx.sentTo(1, TimeoutNow.class)).as("at %d ms", ctx.nowMs).isEmpty();
      if (!ctx.node.isTransferringLeadership()) {
        ctx.acknowledgeAppends(1);
        ctx.acknowledgeAppends(2);
        ctx.drain();
      }
    }

    // once the settle time is over the transfer starts: nothing new is appended, ...
    assertThat(ctx.nowMs).isEqualTo(electedAtMs + ELECTION_MS);
    assertThat(ctx.events).contains("transfer to 1 in " + term + " started");
    assertThat(ctx.node.append(position, position, new UnsafeBuffer(new byte[1]), ctx.nowMs))
        .isEqualTo(new AppendResult.NotLeader(1, term));

    // ... and the target's acknowledgement of the entry in flight gets it TimeoutNow
    ctx.acknowledgeAppends(1);
    assertThat(ctx.onlySentTo(1, TimeoutNow.class)).isEqualTo(new TimeoutNow(term, 0));
    assertThat(ctx.node.role()).isEqualTo(RaftRole.LEADER);
  }

  @Test
  void shouldLeadOnWhenTargetDoesNotCatchUpWithinElectionTimeout() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).preferredLeader(1).build();
    ctx.electLeader();
    long term = ctx.node.term();
    ctx.acknowledgeAppends(1);
    ctx.acknowledgeAppends(2);
    ctx.drain();
    assertThat(run(ctx, ELECTION_MS - HEARTBEAT_MS, 1, 2)).isEmpty();

    // member 1 holds every committed entry when the transfer starts, but never acknowledges the
    // entry in flight; member 2 goes on answering
    ctx.append(10, "a");
    List<String> sent = run(ctx, HEARTBEAT_MS, 2);
    assertThat(ctx.events).contains("transfer to 1 in " + term + " started");
    assertThat(ctx.node.isTransferringLeadership()).isTrue();
    sent.addAll(run(ctx, ELECTION_MS, 2));

    // it never gets TimeoutNow; one election timeout after the start the leader appends again
    assertThat(sent).isEmpty();
    assertThat(ctx.events).contains("transfer to 1 in " + term + " failed");
    assertThat(ctx.node.role()).isEqualTo(RaftRole.LEADER);
    assertThat(ctx.node.term()).isEqualTo(term);
    assertThat(ctx.node.isTransferringLeadership()).isFalse();
    assertThat(ctx.node.append(100, 100, new UnsafeBuffer(new byte[1]), ctx.nowMs))
        .isInstanceOf(AppendResult.Appended.class);
  }

  @Test
  void shouldNotTransferToPreferredMemberThatHasNotAnsweredWithinElectionTimeout() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).preferredLeader(1).build();
    ctx.electLeader();
    ctx.acknowledgeAppends(1);
    ctx.acknowledgeAppends(2);
    ctx.drain();

    // caught up, but silent: it may be cut off, and could not win
    assertThat(run(ctx, 3 * ELECTION_MS, 2)).isEmpty();

    assertThat(run(ctx, ELECTION_MS, 1, 2)).hasSize(1);
  }

  @Test
  void shouldLeadOnAndBackOffWhenTargetDoesNotTakeOver() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).preferredLeader(1).build();
    ctx.electLeader();
    long term = ctx.node.term();
    long t0 = ctx.nowMs;
    ctx.acknowledgeAppends(1);
    ctx.acknowledgeAppends(2);
    ctx.drain();

    // member 1 answers appends but never starts the election (TimeoutNow lost, or it cannot win)
    List<String> sent = run(ctx, ELECTION_MS + HEARTBEAT_MS, 1, 2);
    assertThat(sent).hasSize(1);
    assertThat(ctx.node.append(100, 100, new UnsafeBuffer(new byte[1]), ctx.nowMs))
        .isInstanceOf(AppendResult.NotLeader.class);

    sent.addAll(run(ctx, ELECTION_MS, 1, 2));
    // one election timeout after it asked, the leader leads on in its term and appends again
    assertThat(ctx.events).contains("transfer to 1 in " + term + " failed");
    assertThat(ctx.node.role()).isEqualTo(RaftRole.LEADER);
    assertThat(ctx.node.term()).isEqualTo(term);
    assertThat(ctx.node.isTransferringLeadership()).isFalse();
    assertThat(ctx.node.append(100, 100, new UnsafeBuffer(new byte[1]), ctx.nowMs))
        .isInstanceOf(AppendResult.Appended.class);
    ctx.node.flushAndReplicate(ctx.nowMs);

    // and asks again after 2, 4, 8 election timeouts, not on every tick
    sent.addAll(run(ctx, 18 * ELECTION_MS, 1, 2));
    assertThat(sent)
        .containsExactly(
            "TimeoutNow(" + term + ", 0) to 1 at " + (t0 + ELECTION_MS),
            "TimeoutNow(" + term + ", 0) to 1 at " + (t0 + 4 * ELECTION_MS),
            "TimeoutNow(" + term + ", 0) to 1 at " + (t0 + 9 * ELECTION_MS),
            "TimeoutNow(" + term + ", 0) to 1 at " + (t0 + 18 * ELECTION_MS));
    assertThat(ctx.node.role()).isEqualTo(RaftRole.LEADER);
    assertThat(ctx.node.term()).isEqualTo(term);
  }

  @Test
  void shouldNeverTransferWithoutPreferredLeaderOrWhenLeaderIsPreferred() {
    for (int preferred : new int[] {-1, 0}) {
      RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).preferredLeader(preferred).build();
      ctx.electLeader();
      ctx.acknowledgeAppends(1);
      ctx.acknowledgeAppends(2);
      ctx.drain();

      assertThat(run(ctx, 10 * ELECTION_MS, 1, 2)).as("preferred %d", preferred).isEmpty();
      assertThat(ctx.node.role()).isEqualTo(RaftRole.LEADER);
    }
  }

  @Test
  void shouldStartElectionWithoutPreVoteWhenItsLeaderSendsTimeoutNow() {
    RaftTestContext ctx = RaftTestContext.builder(1, 0, 1, 2).meta(3, -1).log(1, 2, 3).build();
    ctx.deliver(0, RaftTestContext.appendRequest(3, 0, 3, 3, 0));
    ctx.drain();
    ctx.events.clear();

    ctx.deliver(0, new TimeoutNow(3, 0));

    assertThat(ctx.node.role()).isEqualTo(RaftRole.CANDIDATE);
    assertThat(ctx.node.term()).isEqualTo(4);
    assertThat(ctx.meta.meta()).isEqualTo(new RaftMeta(4, 1));
    assertThat(ctx.events.indexOf("store " + new RaftMeta(4, 1)))
        .isLessThan(ctx.events.indexOf("send VoteRequest to 0"));
    assertThat(ctx.onlySentTo(0, VoteRequest.class)).isEqualTo(new VoteRequest(4, 1, 3, 3, false));
    assertThat(ctx.onlySentTo(2, VoteRequest.class)).isEqualTo(new VoteRequest(4, 1, 3, 3, false));
  }

  @Test
  void shouldIgnoreTimeoutNowOfOlderTermOrFromAnotherThanItsLeader() {
    RaftTestContext ctx = RaftTestContext.builder(1, 0, 1, 2).meta(5, -1).build();
    ctx.deliver(0, RaftTestContext.appendRequest(5, 0, 0, 0, 0));
    ctx.drain();

    ctx.deliver(0, new TimeoutNow(4, 0)); // late or duplicated, from a term that is over
    ctx.deliver(2, new TimeoutNow(5, 2)); // member 0 leads term 5, not member 2

    assertThat(ctx.node.role()).isEqualTo(RaftRole.FOLLOWER);
    assertThat(ctx.node.term()).isEqualTo(5);
    assertThat(ctx.node.leaderId()).isEqualTo(0);
    assertThat(ctx.sent).isEmpty();

    ctx.deliver(0, new TimeoutNow(5, 0));
    assertThat(ctx.node.role()).isEqualTo(RaftRole.CANDIDATE);
    assertThat(ctx.node.term()).isEqualTo(6);
  }

  @Test
  void shouldGrantTransferTargetsVoteAlthoughItHeardFromLeaderRecently() {
    RaftTestContext ctx = RaftTestContext.builder(2, 0, 1, 2).meta(3, -1).log(1, 2, 3).build();
    ctx.deliver(0, RaftTestContext.appendRequest(3, 0, 3, 3, 0));
    ctx.drain();

    // a pre-vote is refused while the leader is heard from ...
    ctx.deliver(1, new VoteRequest(4, 1, 3, 3, true));
    assertThat(ctx.lastSentTo(1, VoteResponse.class).granted()).isFalse();

    // ... but the vote request of the transfer target (no pre-vote before it) is granted
    ctx.deliver(1, new VoteRequest(4, 1, 3, 3, false));
    assertThat(ctx.lastSentTo(1, VoteResponse.class))
        .isEqualTo(new VoteResponse(4, 4, true, false));
    assertThat(ctx.meta.meta()).isEqualTo(new RaftMeta(4, 1));
  }

  /**
   * Moves time in heartbeat steps for {@code ms}; after each tick, every member in {@code
   * answering} acknowledges what it was sent. Returns the TimeoutNow messages sent meanwhile.
   */
  private static List<String> run(RaftTestContext ctx, long ms, int... answering) {
    List<String> timeoutNows = new ArrayList<>();
    for (long elapsed = 0; elapsed < ms; elapsed += HEARTBEAT_MS) {
      ctx.time(HEARTBEAT_MS);
      for (Sent sent : ctx.sent) {
        RaftMessage message = sent.message();
        if (message instanceof TimeoutNow m) {
          timeoutNows.add(
              "TimeoutNow("
                  + m.term()
                  + ", "
                  + m.leaderId()
                  + ") to "
                  + sent.to()
                  + " at "
                  + ctx.nowMs);
        }
      }
      for (int member : answering) {
        ctx.acknowledgeAppends(member);
      }
      ctx.drain();
    }
    return timeoutNows;
  }
}
