package io.cairn.raft;

import io.cairn.raft.storage.RaftMeta;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The safety invariants of the simulation, checked as events happen and after every step:
 *
 * <ul>
 *   <li>at most one leader per term;
 *   <li>at most one vote per member per term (from what the members store);
 *   <li>a member's term never decreases, across restarts; its commit index never decreases while it
 *       runs;
 *   <li>log matching: two entries with the same index and term have the same content and follow
 *       entries of the same term;
 *   <li>a committed entry never changes: every member that commits an index holds the same entry,
 *       and no member deletes a committed entry;
 *   <li>no member fails;
 *   <li>an installed snapshot holds exactly the committed prefix it claims.
 * </ul>
 *
 * Violations are collected, with the simulated time, for the test to report.
 */
final class RaftInvariants implements CheckedJournal.Observer {

  private record EntryKey(long index, long term) {}

  private record EntryId(long hash, long prevTerm) {}

  record Committed(long term, long hash) {}

  private final List<String> violations = new ArrayList<>();
  private final Map<Long, Integer> leaderOfTerm = new HashMap<>();
  private final Map<Integer, Map<Long, Integer>> votes = new HashMap<>();
  private final Map<Integer, Long> storedTerm = new HashMap<>();
  private final Map<Integer, Long> roleTerm = new HashMap<>();
  private final Map<Integer, Long> commitIndex = new HashMap<>();
  private final Map<Integer, Long> checkedCommit = new HashMap<>();
  private final Map<EntryKey, EntryId> entries = new HashMap<>();
  private final TreeMap<Long, Committed> committed = new TreeMap<>();
  private final List<Long> prefixHashes = new ArrayList<>(List.of(0L));
  private final java.util.function.LongSupplier clockMs;
  private int snapshotInstalls;
  private int truncations;

  RaftInvariants(java.util.function.LongSupplier clockMs) {
    this.clockMs = clockMs;
  }

  List<String> violations() {
    return violations;
  }

  boolean ok() {
    return violations.isEmpty();
  }

  TreeMap<Long, Committed> committed() {
    return committed;
  }

  long maxCommitted() {
    return committed.isEmpty() ? 0 : committed.lastKey();
  }

  private void violation(String message) {
    if (violations.size() < 20) {
      violations.add("t=" + clockMs.getAsLong() + "ms: " + message);
    }
  }

  // ---- events ----

  void onRoleChange(int member, RaftRole role, long term, int leaderId) {
    long previous = roleTerm.getOrDefault(member, 0L);
    if (term < previous) {
      violation("member " + member + " went back from term " + previous + " to " + term);
    }
    roleTerm.put(member, Math.max(previous, term));
    if (role == RaftRole.LEADER) {
      Integer other = leaderOfTerm.putIfAbsent(term, member);
      if (other != null && other != member) {
        violation("two leaders in term " + term + ": " + other + " and " + member);
      }
    }
    if (role == RaftRole.FAILED) {
      violation("member " + member + " FAILED in term " + term);
    }
  }

  void onMetaStored(int member, RaftMeta meta) {
    long previous = storedTerm.getOrDefault(member, 0L);
    if (meta.term() < previous) {
      violation("member " + member + " stored term " + meta.term() + " after term " + previous);
    }
    storedTerm.put(member, Math.max(previous, meta.term()));
    if (meta.hasVoted()) {
      Integer earlier =
          votes
              .computeIfAbsent(member, m -> new HashMap<>())
              .putIfAbsent(meta.term(), meta.votedFor());
      if (earlier != null && earlier != meta.votedFor()) {
        violation(
            "member "
                + member
                + " voted twice in term "
                + meta.term()
                + ": for "
                + earlier
                + " and for "
                + meta.votedFor());
      }
    }
  }

  void onCommit(int member, long index) {
    long previous = commitIndex.getOrDefault(member, 0L);
    if (index < previous) {
      violation("member " + member + " commit index went back from " + previous + " to " + index);
    }
    commitIndex.put(member, Math.max(previous, index));
  }

  /** A member restarted: its commit index starts over (it is not stored). */
  void onRestart(int member) {
    commitIndex.remove(member);
    checkedCommit.remove(member);
  }

  @Override
  public void onAppend(int member, long index, long term, long hash, long prevTerm) {
    EntryId id = new EntryId(hash, prevTerm);
    EntryId known = entries.putIfAbsent(new EntryKey(index, term), id);
    if (known != null) {
      if (known.hash() != hash) {
        violation(
            "log matching: member "
                + member
                + " holds another entry at index "
                + index
                + " term "
                + term);
      }
      if (known.prevTerm() != LogMirror.UNKNOWN
          && prevTerm != LogMirror.UNKNOWN
          && known.prevTerm() != prevTerm) {
        violation(
            "log matching: member "
                + member
                + " has term "
                + prevTerm
                + " before index "
                + index
                + " term "
                + term
                + ", others have term "
                + known.prevTerm());
      }
      if (known.prevTerm() == LogMirror.UNKNOWN && prevTerm != LogMirror.UNKNOWN) {
        entries.put(new EntryKey(index, term), id);
      }
    }
    Committed entry = committed.get(index);
    if (entry != null
        && index <= commitIndex.getOrDefault(member, 0L)
        && (entry.term() != term || entry.hash() != hash)) {
      violation("member " + member + " appended a different entry at committed index " + index);
    }
  }

  int snapshotInstalls() {
    return snapshotInstalls;
  }

  int truncations() {
    return truncations;
  }

  int leaderTerms() {
    return leaderOfTerm.size();
  }

  @Override
  public void onDeleteAfter(int member, long index, LogMirror mirror) {
    if (index < mirror.lastIndex()) {
      truncations++;
    }
    for (long i = index + 1; i <= mirror.lastIndex(); i++) {
      Committed entry = committed.get(i);
      if (entry != null && entry.term() == mirror.term(i) && entry.hash() == mirror.hash(i)) {
        violation(
            "member " + member + " deletes committed entry " + i + " (delete after " + index + ")");
        return;
      }
    }
  }

  /** After a step: the entries the member now counts as committed equal everybody else's. */
  void checkCommitted(int member, LogMirror mirror, long memberCommitIndex) {
    long from = checkedCommit.getOrDefault(member, 0L) + 1;
    for (long i = from; i <= memberCommitIndex; i++) {
      if (!mirror.holds(i)) {
        continue; // replaced by a snapshot
      }
      Committed mine = new Committed(mirror.term(i), mirror.hash(i));
      Committed known = committed.putIfAbsent(i, mine);
      if (known != null && !known.equals(mine)) {
        violation(
            "committed entry "
                + i
                + " differs: member "
                + member
                + " has term "
                + mine.term()
                + ", committed was term "
                + known.term());
      }
    }
    checkedCommit.put(member, Math.max(from - 1, memberCommitIndex));
  }

  /** The hash of the committed entries 1..index (the content of a snapshot at index). */
  long prefixHash(long index) {
    while (prefixHashes.size() <= index) {
      long i = prefixHashes.size();
      Committed entry = committed.get(i);
      if (entry == null) {
        throw new IllegalStateException("Expected committed entry " + i + " to be known");
      }
      long previous = prefixHashes.get((int) i - 1);
      prefixHashes.add(previous * 31 + entry.hash() * 17 + entry.term());
    }
    return prefixHashes.get((int) index);
  }

  static byte[] snapshotContent(long index, long prefixHash, int paddingBytes) {
    ByteBuffer buffer = ByteBuffer.allocate(16 + paddingBytes);
    buffer.putLong(index).putLong(prefixHash);
    for (int i = 0; i < paddingBytes; i++) {
      buffer.put((byte) (index + i));
    }
    return buffer.array();
  }

  void onSnapshotInstalled(int member, long index, byte[] content) {
    snapshotInstalls++;
    ByteBuffer buffer = ByteBuffer.wrap(content);
    long contentIndex = buffer.getLong();
    long contentHash = buffer.getLong();
    if (contentIndex != index || contentHash != prefixHash(index)) {
      violation(
          "member "
              + member
              + " installed a snapshot at "
              + index
              + " that is not the committed prefix");
    }
  }
}
