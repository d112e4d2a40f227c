package io.cairn.raft;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.journal.JournalRecord;
import io.cairn.raft.consensus.RaftNode;
import io.cairn.raft.consensus.RaftNodeListener;
import io.cairn.raft.consensus.UnsafeOptions;
import io.cairn.raft.log.RaftEntry;
import io.cairn.raft.log.RaftEntryCodec;
import io.cairn.raft.log.RaftEntryType;
import io.cairn.raft.log.RaftLog;
import io.cairn.raft.protocol.RaftMessage;
import io.cairn.raft.protocol.RaftMessage.AppendRequest;
import io.cairn.raft.protocol.RaftMessage.AppendResponse;
import io.cairn.raft.protocol.RaftMessage.VoteResponse;
import io.cairn.raft.storage.RaftMeta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Drives one {@link RaftNode} through protocol scripts: the test delivers messages and moves time,
 * and reads what the node sent. Everything is in memory and deterministic.
 */
final class RaftTestContext {

  static final RaftConfig CONFIG =
      RaftConfig.builder()
          .electionTimeout(Duration.ofMillis(1000))
          .heartbeatInterval(Duration.ofMillis(100))
          .requestTimeout(Duration.ofMillis(300))
          .maxInFlightAppends(2)
          .maxAppendBatchBytes(200)
          .build();

  final int localId;
  final List<Integer> members;
  final InMemoryJournal journal;
  final InMemoryMetaStore meta;
  final InMemorySnapshotStore snapshots;
  final RaftNode node;
  final List<Sent> sent = new ArrayList<>();
  final List<Long> commits = new ArrayList<>();
  final List<String> events = new ArrayList<>();
  long nowMs = 1_000;
  private UnaryOperator<RaftMessage> outboundFilter = UnaryOperator.identity();

  record Sent(int to, RaftMessage message) {}

  private RaftTestContext(Builder builder) {
    this.localId = builder.localId;
    this.members = builder.members;
    this.journal = builder.journal;
    this.meta = builder.meta;
    this.snapshots = builder.snapshots;
    meta.onStore(m -> events.add("store " + m));
    RaftLog log =
        RaftLog.open(
            journal,
            snapshots.latestSnapshot().map(RaftSnapshot::index).orElse(0L),
            snapshots.latestSnapshot().map(RaftSnapshot::term).orElse(0L),
            "test node " + localId);
    node =
        new RaftNode(
            1,
            localId,
            members,
            builder.preferredLeader,
            builder.config,
            log,
            meta,
            snapshots,
            new SplittableRandom(builder.seed),
            (to, message) -> {
              RaftMessage filtered = outboundFilter.apply(message);
              events.add("send " + message.getClass().getSimpleName() + " to " + to);
              sent.add(new Sent(to, filtered));
            },
            new RaftNodeListener() {
              @Override
              public void onCommit(long commitIndex) {
                commits.add(commitIndex);
              }

              @Override
              public void onRoleChange(RaftRole role, long term, int leaderId) {
                events.add("role " + role + " " + term);
              }

              @Override
              public void onLeadershipTransferStarted(int target, long term) {
                events.add("transfer to " + target + " in " + term + " started");
              }

              @Override
              public void onLeadershipTransferEnded(int target, long term, boolean completed) {
                events.add(
                    "transfer to "
                        + target
                        + " in "
                        + term
                        + (completed ? " completed" : " failed"));
              }
            },
            builder.unsafe,
            builder.deferFlush);
    node.start(nowMs);
  }

  static Builder builder(int localId, Integer... members) {
    return new Builder(localId, List.of(members));
  }

  /** Moves time forward and ticks. */
  RaftTestContext time(long ms) {
    nowMs += ms;
    node.tick(nowMs);
    return this;
  }

  /** Moves time past the largest possible election timeout. */
  RaftTestContext expireElectionTimeout() {
    return time(2 * CONFIG.electionTimeout().toMillis());
  }

  RaftTestContext deliver(int from, RaftMessage message) {
    node.handle(from, message, nowMs);
    return this;
  }

  /** Transforms messages as the node sends them (e.g. corrupts them on the wire). */
  void outboundFilter(UnaryOperator<RaftMessage> filter) {
    outboundFilter = filter;
  }

  /** Every message sent since the last drain. */
  List<Sent> drain() {
    List<Sent> copy = new ArrayList<>(sent);
    sent.clear();
    return copy;
  }

  /** The messages of one type sent to one member since the last drain (not removed). */
  <T extends RaftMessage> List<T> sentTo(int member, Class<T> type) {
    List<T> result = new ArrayList<>();
    for (Sent s : sent) {
      if (s.to() == member && type.isInstance(s.message())) {
        result.add(type.cast(s.message()));
      }
    }
    return result;
  }

  <T extends RaftMessage> T onlySentTo(int member, Class<T> type) {
    List<T> messages = sentTo(member, type);
    assertThat(messages).as("%s sent to %d in %s", type.getSimpleName(), member, sent).hasSize(1);
    return messages.get(0);
  }

  <T extends RaftMessage> T lastSentTo(int member, Class<T> type) {
    List<T> messages = sentTo(member, type);
    assertThat(messages).as("%s sent to %d in %s", type.getSimpleName(), member, sent).isNotEmpty();
    return messages.get(messages.size() - 1);
  }

  /** Runs an election that every other member supports; the node ends as leader. */
  RaftTestContext electLeader() {
    expireElectionTimeout();
    if (node.role() == RaftRole.PRE_CANDIDATE) {
      long proposed = node.term() + 1;
      for (int member : others()) {
        deliver(member, new VoteResponse(node.term(), proposed, true, true));
      }
    }
    assertThat(node.role()).isIn(RaftRole.CANDIDATE, RaftRole.LEADER);
    for (int member : others()) {
      if (node.role() == RaftRole.CANDIDATE) {
        deliver(member, new VoteResponse(node.term(), node.term(), true, false));
      }
    }
    assertThat(node.role()).isEqualTo(RaftRole.LEADER);
    return this;
  }

  /** Appends an application entry as leader and flushes it; returns its index. */
  long append(long position, String payload) {
    AppendResult result =
        node.append(position, position, new UnsafeBuffer(payload.getBytes()), nowMs);
    assertThat(result).isInstanceOf(AppendResult.Appended.class);
    node.flushAndReplicate(nowMs);
    return ((AppendResult.Appended) result).index();
  }

  /** Acknowledges every append request sent to {@code member} as a matching follower would. */
  void acknowledgeAppends(int member) {
    for (AppendRequest request : sentTo(member, AppendRequest.class)) {
      long match = request.prevLogIndex() + request.entries().size();
      deliver(
          member,
          new AppendResponse(request.term(), true, match, request.entries().size(), -1, -1));
    }
  }

  List<Integer> others() {
    return members.stream().filter(m -> m != localId).toList();
  }

  /** An append request from {@code leader} carrying entries of the given terms after prev. */
  static AppendRequest appendRequest(
      long term, int leader, long prevIndex, long prevTerm, long commit, long... entryTerms) {
    List<JournalRecord> records = new ArrayList<>();
    long index = prevIndex;
    for (long entryTerm : entryTerms) {
      index++;
      records.add(record(index, entryTerm));
    }
    return new AppendRequest(term, leader, prevIndex, prevTerm, commit, records);
  }

  /** The journal record of an application entry at {@code index} with position {@code index}. */
  static JournalRecord record(long index, long term) {
    RaftEntry entry =
        new RaftEntry(
            term,
            RaftEntryType.APPLICATION,
            index * 10,
            index * 10,
            new UnsafeBuffer(("entry-" + index + "-" + term).getBytes()));
    UnsafeBuffer data = (UnsafeBuffer) RaftEntryCodec.encode(entry);
    return new JournalRecord(
        index, entry.asqn(), InMemoryJournal.checksum(index, entry.asqn(), data), data);
  }

  long termAt(long index) {
    return node.log().termAt(index);
  }

  static final class Builder {
    private final int localId;
    private final List<Integer> members;
    private RaftConfig config = CONFIG;
    private final InMemoryJournal journal = new InMemoryJournal();
    private final InMemoryMetaStore meta = new InMemoryMetaStore();
    private InMemorySnapshotStore snapshots = new InMemorySnapshotStore();
    private long seed = 42;
    private UnsafeOptions unsafe = UnsafeOptions.NONE;
    private boolean deferFlush;
    private int preferredLeader = -1;

    private Builder(int localId, List<Integer> members) {
      this.localId = localId;
      this.members = members;
    }

    Builder config(RaftConfig value) {
      config = value;
      return this;
    }

    /** Log entries with these terms, from index 1 (position = 10 * index). */
    Builder log(long... terms) {
      for (long term : terms) {
        journal.append(record(journal.getLastIndex() + 1, term));
      }
      journal.flush();
      return this;
    }

    Builder meta(long term, int votedFor) {
      meta.store(new RaftMeta(term, votedFor));
      return this;
    }

    Builder snapshots(InMemorySnapshotStore value) {
      snapshots = value;
      return this;
    }

    Builder seed(long value) {
      seed = value;
      return this;
    }

    Builder preferredLeader(int value) {
      preferredLeader = value;
      return this;
    }

    Builder unsafe(UnsafeOptions value) {
      unsafe = value;
      return this;
    }

    /** Flushes run only when the test drives them (prepareFlush, force, onFlushed). */
    Builder deferFlush() {
      deferFlush = true;
      return this;
    }

    RaftTestContext build() {
      return new RaftTestContext(this);
    }
  }
}
