package io.cairn.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.journal.Journal;
import io.cairn.raft.log.RaftEntry;
import io.cairn.raft.log.RaftEntryType;
import io.cairn.raft.protocol.RaftMessage.AppendRequest;
import io.cairn.raft.protocol.RaftMessage.AppendResponse;
import io.cairn.raft.protocol.RaftMessage.VoteRequest;
import io.cairn.raft.protocol.RaftMessage.VoteResponse;
import io.cairn.raft.storage.RaftMeta;
import org.junit.jupiter.api.Test;

/** Elections as protocol scripts: pre-vote, vote, persistence order, step-down. */
class RaftElectionTest {

  @Test
  void shouldStartAsFollowerInStoredTerm() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).meta(7, 2).build();

    assertThat(ctx.node.role()).isEqualTo(RaftRole.FOLLOWER);
    assertThat(ctx.node.term()).isEqualTo(7);
    assertThat(ctx.node.votedFor()).isEqualTo(2);
    assertThat(ctx.node.leaderId()).isEqualTo(-1);
  }

  @Test
  void shouldAskForPreVotesWithoutChangingTermWhenElectionTimeoutExpires() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).meta(3, -1).log(1, 2, 3).build();

    ctx.expireElectionTimeout();

    assertThat(ctx.node.role()).isEqualTo(RaftRole.PRE_CANDIDATE);
    assertThat(ctx.node.term()).isEqualTo(3);
    assertThat(ctx.meta.meta()).isEqualTo(new RaftMeta(3, -1));
    VoteRequest request = ctx.onlySentTo(1, VoteRequest.class);
    assertThat(request).isEqualTo(new VoteRequest(4, 0, 3, 3, true));
    assertThat(ctx.onlySentTo(2, VoteRequest.class)).isEqualTo(request);
  }

  @Test
  void shouldNotStartElectionBeforeElectionTimeout() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).build();

    ctx.time(CONFIG_ELECTION_MS - 1);

    assertThat(ctx.node.role()).isEqualTo(RaftRole.FOLLOWER);
    assertThat(ctx.sent).isEmpty();
  }

  @Test
  void shouldStoreTermAndVoteBeforeSendingVoteRequests() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).meta(3, -1).build();
    ctx.expireElectionTimeout();
    ctx.drain();
    ctx.events.clear();

    ctx.deliver(1, new VoteResponse(3, 4, true, true));

    assertThat(ctx.node.role()).isEqualTo(RaftRole.CANDIDATE);
    assertThat(ctx.node.term()).isEqualTo(4);
    assertThat(ctx.events.get(0)).isEqualTo("store " + new RaftMeta(4, 0));
    assertThat(ctx.events).contains("send VoteRequest to 1", "send VoteRequest to 2");
    assertThat(ctx.events.indexOf("store " + new RaftMeta(4, 0)))
        .isLessThan(ctx.events.indexOf("send VoteRequest to 1"));
    assertThat(ctx.onlySentTo(2, VoteRequest.class)).isEqualTo(new VoteRequest(4, 0, 0, 0, false));
  }

  @Test
  void shouldBecomeLeaderAndAppendInitialEntryWithMajorityOfVotes() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).log(1, 1).build();

    ctx.electLeader();

    assertThat(ctx.node.role()).isEqualTo(RaftRole.LEADER);
    assertThat(ctx.node.leaderId()).isEqualTo(0);
    long term = ctx.node.term();
    assertThat(ctx.node.log().lastIndex()).isEqualTo(3);
    assertThat(ctx.termAt(3)).isEqualTo(term);
    RaftEntry initial = ctx.node.log().readEntry(3);
    assertThat(initial.type()).isEqualTo(RaftEntryType.INITIAL);
    assertThat(ctx.journal.record(3).asqn()).isEqualTo(Journal.ASQN_IGNORE);
    AppendRequest request = ctx.lastSentTo(1, AppendRequest.class);
    assertThat(request.term()).isEqualTo(term);
    assertThat(request.prevLogIndex()).isEqualTo(2);
    assertThat(request.entries()).extracting(r -> r.index()).containsExactly(3L);
  }

  @Test
  void shouldStayCandidateWhenOnlyMinorityGrants() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2, 3, 4).build();
    ctx.expireElectionTimeout();
    ctx.deliver(1, new VoteResponse(0, 1, true, true));
    ctx.deliver(2, new VoteResponse(0, 1, true, true));
    assertThat(ctx.node.role()).isEqualTo(RaftRole.CANDIDATE);

    ctx.deliver(1, new VoteResponse(1, 1, true, false));
    ctx.deliver(1, new VoteResponse(1, 1, true, false)); // a duplicate counts once
    ctx.deliver(3, new VoteResponse(1, 1, false, false));

    assertThat(ctx.node.role()).isEqualTo(RaftRole.CANDIDATE);
    ctx.deliver(4, new VoteResponse(1, 1, true, false));
    assertThat(ctx.node.role()).isEqualTo(RaftRole.LEADER);
  }

  @Test
  void shouldStartNextTermWhenElectionTimesOut() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).build();
    ctx.expireElectionTimeout();
    ctx.deliver(1, new VoteResponse(0, 1, true, true));
    assertThat(ctx.node.term()).isEqualTo(1);

    ctx.expireElectionTimeout();

    assertThat(ctx.node.role()).isEqualTo(RaftRole.CANDIDATE);
    assertThat(ctx.node.term()).isEqualTo(2);
    assertThat(ctx.meta.meta()).isEqualTo(new RaftMeta(2, 0));
  }

  @Test
  void shouldGrantVoteOncePerTermAndStoreItBeforeAnswering() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).log(1).build();

    ctx.deliver(1, new VoteRequest(2, 1, 1, 1, false));
    ctx.deliver(2, new VoteRequest(2, 2, 5, 1, false));
    ctx.deliver(1, new VoteRequest(2, 1, 1, 1, false)); // a retry by the same candidate

    assertThat(ctx.meta.meta()).isEqualTo(new RaftMeta(2, 1));
    assertThat(ctx.events.indexOf("store " + new RaftMeta(2, 1)))
        .isLessThan(ctx.events.indexOf("send VoteResponse to 1"));
    assertThat(ctx.sentTo(1, VoteResponse.class))
        .containsExactly(new VoteResponse(2, 2, true, false), new VoteResponse(2, 2, true, false));
    assertThat(ctx.onlySentTo(2, VoteResponse.class))
        .isEqualTo(new VoteResponse(2, 2, false, false));
  }

  @Test
  void shouldRejectVoteForCandidateWithOlderLog() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).log(1, 2, 2).build();

    ctx.deliver(1, new VoteRequest(3, 1, 5, 1, false)); // longer but older last term
    ctx.deliver(2, new VoteRequest(3, 2, 2, 2, false)); // same last term but shorter

    assertThat(ctx.onlySentTo(1, VoteResponse.class).granted()).isFalse();
    assertThat(ctx.onlySentTo(2, VoteResponse.class).granted()).isFalse();
    assertThat(ctx.node.term()).isEqualTo(3);
    assertThat(ctx.node.votedFor()).isEqualTo(-1);
  }

  @Test
  void shouldGrantVoteWithoutLogCheckWhenUnsafeOptionSet() {
    RaftTestContext ctx =
        RaftTestContext.builder(0, 0, 1, 2)
            .log(1, 2, 2)
            .unsafe(new io.cairn.raft.consensus.UnsafeOptions(false, true))
            .build();

    ctx.deliver(1, new VoteRequest(3, 1, 5, 1, false));

    assertThat(ctx.onlySentTo(1, VoteResponse.class).granted()).isTrue();
  }

  @Test
  void shouldRejectVoteFromOlderTermAndAnswerWithCurrentTerm() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).meta(5, -1).build();

    ctx.deliver(1, new VoteRequest(4, 1, 0, 0, false));

    assertThat(ctx.onlySentTo(1, VoteResponse.class))
        .isEqualTo(new VoteResponse(5, 4, false, false));
    assertThat(ctx.node.votedFor()).isEqualTo(-1);
  }

  @Test
  void shouldRefusePreVoteWhileLeaderIsHeardFrom() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).build();
    ctx.deliver(1, RaftTestContext.appendRequest(1, 1, 0, 0, 0));
    ctx.drain();

    ctx.time(500).deliver(2, new VoteRequest(2, 2, 10, 1, true));

    assertThat(ctx.onlySentTo(2, VoteResponse.class))
        .isEqualTo(new VoteResponse(1, 2, false, true));
    assertThat(ctx.node.term()).isEqualTo(1);
  }

  @Test
  void shouldGrantPreVoteWithoutChangingTermOrVoteWhenLeaderIsSilent() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).log(1).build();
    ctx.deliver(1, RaftTestContext.appendRequest(1, 1, 1, 1, 0));
    ctx.drain();

    ctx.time(1000).deliver(2, new VoteRequest(2, 2, 1, 1, true));

    assertThat(ctx.onlySentTo(2, VoteResponse.class)).isEqualTo(new VoteResponse(1, 2, true, true));
    assertThat(ctx.node.term()).isEqualTo(1);
    assertThat(ctx.node.votedFor()).isEqualTo(-1);
    assertThat(ctx.node.role()).isEqualTo(RaftRole.FOLLOWER);
  }

  @Test
  void shouldStepDownToFollowerWhenPreVoteAnswerCarriesHigherTerm() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).build();
    ctx.expireElectionTimeout();

    ctx.deliver(1, new VoteResponse(9, 1, false, true));

    assertThat(ctx.node.role()).isEqualTo(RaftRole.FOLLOWER);
    assertThat(ctx.node.term()).isEqualTo(9);
    assertThat(ctx.meta.meta()).isEqualTo(new RaftMeta(9, -1));
  }

  @Test
  void shouldSkipPreVoteWhenDisabled() {
    RaftTestContext ctx =
        RaftTestContext.builder(0, 0, 1, 2)
            .config(RaftTestContext.CONFIG.toBuilder().preVote(false).build())
            .build();

    ctx.expireElectionTimeout();

    assertThat(ctx.node.role()).isEqualTo(RaftRole.CANDIDATE);
    assertThat(ctx.onlySentTo(1, VoteRequest.class).preVote()).isFalse();
  }

  @Test
  void shouldBecomeLeaderAloneAndCommitInitialEntryWhenSingleMember() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0).build();

    ctx.expireElectionTimeout();

    assertThat(ctx.node.role()).isEqualTo(RaftRole.LEADER);
    assertThat(ctx.node.commitIndex()).isEqualTo(1);
    long index = ctx.append(5, "x");
    assertThat(ctx.node.commitIndex()).isEqualTo(index);
  }

  @Test
  void shouldStepDownWhenLeaderHearsNoMajorityForElectionTimeout() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).build().electLeader();
    long term = ctx.node.term();

    for (int i = 0; i < 12; i++) {
      ctx.time(100);
    }

    assertThat(ctx.node.role()).isEqualTo(RaftRole.FOLLOWER);
    assertThat(ctx.node.term()).isEqualTo(term);
    assertThat(ctx.node.leaderId()).isEqualTo(-1);
  }

  @Test
  void shouldStayLeaderWhileMajorityAnswers() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).build().electLeader();

    for (int i = 0; i < 30; i++) {
      ctx.time(100);
      ctx.acknowledgeAppends(1);
      ctx.drain();
    }

    assertThat(ctx.node.role()).isEqualTo(RaftRole.LEADER);
  }

  @Test
  void shouldStepDownWhenAppendResponseCarriesHigherTerm() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).build().electLeader();

    ctx.deliver(1, new AppendResponse(ctx.node.term() + 3, false, 0, 0, -1, -1));

    assertThat(ctx.node.role()).isEqualTo(RaftRole.FOLLOWER);
    assertThat(ctx.meta.meta().term()).isEqualTo(ctx.node.term());
  }

  @Test
  void shouldAnswerNotLeaderWithKnownLeader() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).build();
    ctx.deliver(2, RaftTestContext.appendRequest(4, 2, 0, 0, 0));

    AppendResult result =
        ctx.node.append(1, 1, new org.agrona.concurrent.UnsafeBuffer(new byte[1]), ctx.nowMs);

    assertThat(result).isEqualTo(new AppendResult.NotLeader(2, 4));
    assertThat(((AppendResult.NotLeader) result).leader()).hasValue(2);
  }

  @Test
  void shouldFailWhenSecondLeaderAppearsInItsTerm() {
    RaftTestContext ctx = RaftTestContext.builder(0, 0, 1, 2).build().electLeader();
    long term = ctx.node.term();

    assertThatThrownBy(() -> ctx.deliver(1, RaftTestContext.appendRequest(term, 1, 0, 0, 0)))
        .isInstanceOf(RaftSafetyException.class)
        .hasMessageContaining("one leader per term");

    assertThat(ctx.node.role()).isEqualTo(RaftRole.FAILED);
  }

  private static final long CONFIG_ELECTION_MS =
      RaftTestContext.CONFIG.electionTimeout().toMillis();
}
