package io.cairn.raft.state;

import io.cairn.raft.RaftRole;
import io.cairn.raft.RaftSafetyException;
import io.cairn.raft.storage.RaftMeta;
import io.cairn.raft.storage.RaftMetaStore;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The term, the vote and the role of one raft member, and the only place that changes them.
 *
 * <p>Every transition checks that it is legal, persists the term and vote <b>before</b> the new
 * state becomes visible (so nothing is sent or answered in a term that a crash could forget), logs
 * once at INFO and tells the listener.
 *
 * <pre>
 * from \ to      | FOLLOWER               | PRE_CANDIDATE     | CANDIDATE               | LEADER        | FAILED
 * ---------------+------------------------+-------------------+-------------------------+---------------+-------
 * INACTIVE       | start (stored term)    | -                 | -                       | -             | yes
 * FOLLOWER       | higher term; learns    | election timeout  | election timeout        | -             | yes
 *                | the leader of its term | (pre-vote on)     | (pre-vote off);         |               |
 *                |                        |                   | TimeoutNow from its     |               |
 *                |                        |                   | leader (no pre-vote)    |               |
 * PRE_CANDIDATE  | higher term; leader of | timeout: new      | majority of pre-votes   | -             | yes
 *                | its term appears       | round             |                         |               |
 * CANDIDATE      | higher term; leader of | -                 | timeout: next term      | majority of   | yes
 *                | its term appears       |                   |                         | votes         |
 * LEADER         | higher term (also a    | -                 | -                       | -             | yes
 *                | transfer target's vote |                   |                         |               |
 *                | request); no quorum    |                   |                         |               |
 *                | heard for a timeout    |                   |                         |               |
 * </pre>
 *
 * Any role goes to INACTIVE on close. The term only grows; entering CANDIDATE increments it and
 * votes for itself. A member votes at most once per term. Two leaders in one term is a safety
 * violation and fails the member.
 */
public final class QuorumState {

  private static final Logger LOG = LoggerFactory.getLogger(QuorumState.class);

  private final int partitionId;
  private final int localId;
  private final List<Integer> members;
  private final RaftMetaStore metaStore;
  private final TransitionListener listener;
  private final boolean unsafeAllowSecondVote;
  private long term;
  private int votedFor = RaftMeta.NO_VOTE;
  private RoleState state = new InactiveState(0);

  /**
   * @param unsafeAllowSecondVote breaks safety: lets the member vote twice in a term. Only for
   *     tests that prove the simulation's checker catches it.
   */
  public QuorumState(
      int partitionId,
      int localId,
      List<Integer> members,
      RaftMetaStore metaStore,
      TransitionListener listener,
      boolean unsafeAllowSecondVote) {
    this.partitionId = partitionId;
    this.localId = localId;
    this.members = List.copyOf(members);
    this.metaStore = Objects.requireNonNull(metaStore, "metaStore");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.unsafeAllowSecondVote = unsafeAllowSecondVote;
    if (!this.members.contains(localId)) {
      throw new IllegalArgumentException(
          "Expected the members "
              + members
              + " to contain the local node "
              + localId
              + " (partition "
              + partitionId
              + ")");
    }
  }

  /** Loads the stored term and vote and becomes a follower in that term, leader unknown. */
  public FollowerState start(long electionDeadlineMs) {
    requireRole(RaftRole.INACTIVE, "start");
    RaftMeta meta = metaStore.load();
    term = meta.term();
    votedFor = meta.votedFor();
    FollowerState follower = new FollowerState(term, -1, electionDeadlineMs);
    transition(follower, "started");
    return follower;
  }

  public long term() {
    return term;
  }

  public int votedFor() {
    return votedFor;
  }

  public RoleState state() {
    return state;
  }

  public RaftRole role() {
    return state.role();
  }

  public int leaderId() {
    return state.leaderId();
  }

  public int localId() {
    return localId;
  }

  public List<Integer> members() {
    return members;
  }

  public boolean isLeader() {
    return state instanceof LeaderState;
  }

  public boolean isActive() {
    return !(state instanceof InactiveState) && !(state instanceof FailedState);
  }

  /**
   * Becomes a follower in {@code newTerm} (at least the current term), with the leader if known
   * ({@code -1} otherwise). A higher term clears the vote; the new term is stored first.
   *
   * @throws RaftSafetyException if this would give the current term a second leader
   */
  public FollowerState becomeFollower(long newTerm, int leader, long electionDeadlineMs) {
    requireActive("becomeFollower");
    if (newTerm < term) {
      throw new IllegalStateException(
          "Expected a term >= " + term + " to become follower, but was " + newTerm + context());
    }
    if (newTerm == term && leader >= 0) {
      int known = state.leaderId();
      if (known >= 0 && known != leader) {
        throw new RaftSafetyException(
            "Expected one leader per term, but both "
                + known
                + " and "
                + leader
                + " lead term "
                + term
                + context());
      }
    }
    if (newTerm > term) {
      persist(newTerm, RaftMeta.NO_VOTE);
    }
    if (state instanceof FollowerState follower && follower.term() == newTerm) {
      if (leader >= 0 && follower.leaderId() != leader) {
        follower.leaderId(leader);
        LOG.info(
            "Partition {} node {}: follower in term {} learned leader {}",
            partitionId,
            localId,
            term,
            leader);
        listener.onTransition(follower, follower);
      }
      return follower;
    }
    FollowerState follower = new FollowerState(newTerm, leader, electionDeadlineMs);
    transition(follower, leader >= 0 ? "leader is " + leader : "leader unknown");
    return follower;
  }

  /** Starts (or restarts) a pre-vote round for term {@code term + 1}. */
  public PreCandidateState becomePreCandidate(long electionDeadlineMs) {
    RaftRole role = role();
    if (role != RaftRole.FOLLOWER && role != RaftRole.PRE_CANDIDATE) {
      throw illegal(RaftRole.PRE_CANDIDATE);
    }
    PreCandidateState preCandidate =
        new PreCandidateState(term, members.size(), localId, electionDeadlineMs);
    transition(preCandidate, "pre-vote for term " + (term + 1));
    return preCandidate;
  }

  /** Increments the term, votes for itself (stored first) and becomes candidate. */
  public CandidateState becomeCandidate(long electionDeadlineMs) {
    RaftRole role = role();
    if (role != RaftRole.FOLLOWER && role != RaftRole.PRE_CANDIDATE && role != RaftRole.CANDIDATE) {
      throw illegal(RaftRole.CANDIDATE);
    }
    persist(term + 1, localId);
    CandidateState candidate =
        new CandidateState(term, members.size(), localId, electionDeadlineMs);
    transition(candidate, "election started");
    return candidate;
  }

  /** Becomes leader of the current term; only a candidate that won its election may. */
  public LeaderState becomeLeader(long nextIndex, long quorumDeadlineMs) {
    if (!(state instanceof CandidateState candidate) || !candidate.tally().isWon()) {
      throw illegal(RaftRole.LEADER);
    }
    List<Integer> others = members.stream().filter(m -> m != localId).toList();
    LeaderState leader = new LeaderState(term, localId, others, nextIndex, quorumDeadlineMs);
    transition(leader, "won the election");
    return leader;
  }

  /**
   * Records a vote for {@code candidateId} in the current term (stored before it is answered).
   *
   * @throws RaftSafetyException if the member already voted for another candidate in this term
   */
  public void grantVote(int candidateId) {
    requireActive("grantVote");
    if (votedFor == candidateId) {
      return;
    }
    if (votedFor != RaftMeta.NO_VOTE && !unsafeAllowSecondVote) {
      throw new RaftSafetyException(
          "Expected at most one vote per term, but member voted for "
              + votedFor
              + " and was asked to vote for "
              + candidateId
              + " in term "
              + term
              + context());
    }
    persist(term, candidateId);
  }

  /** Stops for good: the member keeps its storage for an operator to inspect. */
  public void fail(Throwable cause) {
    if (state instanceof FailedState) {
      return;
    }
    closeRole();
    RoleState previous = state;
    state = new FailedState(term, cause);
    LOG.error(
        "Partition {} node {} FAILED in term {}: {}. Inspect the partition's data before restarting"
            + " it.",
        partitionId,
        localId,
        term,
        cause.toString());
    listener.onTransition(previous, state);
  }

  /** Closes: becomes INACTIVE. */
  public void close() {
    if (state instanceof InactiveState || state instanceof FailedState) {
      return;
    }
    closeRole();
    RoleState previous = state;
    state = new InactiveState(term);
    LOG.info("Partition {} node {} became INACTIVE in term {}", partitionId, localId, term);
    listener.onTransition(previous, state);
  }

  private void persist(long newTerm, int newVote) {
    if (newTerm < term) {
      throw new RaftSafetyException(
          "Expected the term to never decrease, but it would go from "
              + term
              + " to "
              + newTerm
              + context());
    }
    metaStore.store(new RaftMeta(newTerm, newVote));
    term = newTerm;
    votedFor = newVote;
  }

  private void transition(RoleState next, String reason) {
    closeRole();
    RoleState previous = state;
    state = next;
    LOG.info(
        "Partition {} node {} became {} in term {} ({})",
        partitionId,
        localId,
        next.role(),
        next.term(),
        reason);
    listener.onTransition(previous, next);
  }

  private void closeRole() {
    if (state instanceof LeaderState leader) {
      leader.close();
    }
  }

  private void requireRole(RaftRole expected, String operation) {
    if (role() != expected) {
      throw new IllegalStateException(
          "Expected role " + expected + " to " + operation + ", but was " + role() + context());
    }
  }

  private void requireActive(String operation) {
    if (!isActive()) {
      throw new IllegalStateException(
          "Expected an active member to " + operation + ", but was " + role() + context());
    }
  }

  private IllegalStateException illegal(RaftRole target) {
    return new IllegalStateException(
        "Expected a legal transition, but " + role() + " cannot become " + target + context());
  }

  private String context() {
    return " (partition " + partitionId + ", node " + localId + ")";
  }

  /** Told after every change of role, term or known leader. */
  @FunctionalInterface
  public interface TransitionListener {
    void onTransition(RoleState previous, RoleState next);
  }
}
