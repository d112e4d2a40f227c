package io.cairn.raft;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Meters of one raft member, tagged {@code partition} and {@code node}.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>{@value #ROLE}</td><td>gauge</td><td>{@link RaftRole#code()}: 0 inactive, 1 follower,
 *       2 pre-candidate, 3 candidate, 4 leader, 5 failed</td></tr>
 *   <tr><td>{@value #TERM}</td><td>gauge</td><td>current term</td></tr>
 *   <tr><td>{@value #COMMIT_INDEX}</td><td>gauge</td><td>highest index known committed</td></tr>
 *   <tr><td>{@value #APPEND_LATENCY}</td><td>timer</td><td>leader: from an application append to
 *       the entry being flushed locally</td></tr>
 *   <tr><td>{@value #COMMIT_LATENCY}</td><td>timer</td><td>leader: from an application append to
 *       its commit</td></tr>
 *   <tr><td>{@value #ELECTIONS}</td><td>counter</td><td>elections started (became candidate)</td></tr>
 *   <tr><td>{@value #LEADERSHIPS}</td><td>counter</td><td>elections won (became leader)</td></tr>
 *   <tr><td>{@value #SNAPSHOTS_INSTALLED}</td><td>counter</td><td>snapshots installed from a
 *       leader</td></tr>
 *   <tr><td>{@value #LEADERSHIP_TRANSFERS}</td><td>counter, tag {@code result}</td><td>leadership
 *       transfers to the preferred member this member started ({@code started}), and how they
 *       ended: {@code completed} (the target leads) or {@code failed}</td></tr>
 * </table>
 */
public final class RaftMetrics implements AutoCloseable {

  /** Gauge; tags partition, node: the member's {@link RaftRole#code()}. */
  public static final String ROLE = "cairn.raft.role";

  /** Gauge; tags partition, node: current term. */
  public static final String TERM = "cairn.raft.term";

  /** Gauge; tags partition, node: highest index known committed. */
  public static final String COMMIT_INDEX = "cairn.raft.commit.index";

  /** Timer; tags partition, node: leader, application append to local flush. */
  public static final String APPEND_LATENCY = "cairn.raft.append.latency";

  /** Timer; tags partition, node: leader, application append to commit. */
  public static final String COMMIT_LATENCY = "cairn.raft.commit.latency";

  /** Counter; tags partition, node: elections started (became candidate). */
  public static final String ELECTIONS = "cairn.raft.elections";

  /** Counter; tags partition, node: elections won (became leader). */
  public static final String LEADERSHIPS = "cairn.raft.leaderships";

  /** Counter; tags partition, node: snapshots installed from a leader. */
  public static final String SNAPSHOTS_INSTALLED = "cairn.raft.snapshots.installed";

  /** Counter; tags partition, node, result: leadership transfers started, completed, failed. */
  public static final String LEADERSHIP_TRANSFERS = "cairn.raft.leadership.transfers";

  private final MeterRegistry registry;
  private final List<Meter> meters = new ArrayList<>();
  private final AtomicLong role = new AtomicLong();
  private final AtomicLong term = new AtomicLong();
  private final AtomicLong commitIndex = new AtomicLong();
  private final Timer appendLatency;
  private final Timer commitLatency;
  private final Counter elections;
  private final Counter leaderships;
  private final Counter snapshotsInstalled;
  private final Counter transfersStarted;
  private final Counter transfersCompleted;
  private final Counter transfersFailed;

  public RaftMetrics(MeterRegistry registry, int partitionId, int nodeId) {
    this.registry = registry;
    Tags tags =
        Tags.of("partition", Integer.toString(partitionId), "node", Integer.toString(nodeId));
    meters.add(
        Gauge.builder(ROLE, role, AtomicLong::get)
            .description(
                "Role code: 0 inactive, 1 follower, 2 pre-candidate, 3 candidate, 4 leader, 5 failed")
            .tags(tags)
            .register(registry));
    meters.add(
        Gauge.builder(TERM, term, AtomicLong::get)
            .description("Current raft term")
            .tags(tags)
            .register(registry));
    meters.add(
        Gauge.builder(COMMIT_INDEX, commitIndex, AtomicLong::get)
            .description("Highest raft index known to be committed")
            .tags(tags)
            .register(registry));
    appendLatency =
        Timer.builder(APPEND_LATENCY)
            .description("Leader: application append to local flush")
            .tags(tags)
            .register(registry);
    commitLatency =
        Timer.builder(COMMIT_LATENCY)
            .description("Leader: application append to commit")
            .tags(tags)
            .register(registry);
    elections =
        Counter.builder(ELECTIONS).description("Elections started").tags(tags).register(registry);
    leaderships =
        Counter.builder(LEADERSHIPS).description("Elections won").tags(tags).register(registry);
    snapshotsInstalled =
        Counter.builder(SNAPSHOTS_INSTALLED)
            .description("Snapshots installed from a leader")
            .tags(tags)
            .register(registry);
    transfersStarted = transfers(tags, "started");
    transfersCompleted = transfers(tags, "completed");
    transfersFailed = transfers(tags, "failed");
    meters.add(appendLatency);
    meters.add(commitLatency);
    meters.add(elections);
    meters.add(leaderships);
    meters.add(snapshotsInstalled);
    meters.add(transfersStarted);
    meters.add(transfersCompleted);
    meters.add(transfersFailed);
  }

  private Counter transfers(Tags tags, String result) {
    return Counter.builder(LEADERSHIP_TRANSFERS)
        .description("Leadership transfers to the preferred member: started, completed, failed")
        .tags(tags)
        .tag("result", result)
        .register(registry);
  }

  void onRoleChange(RaftRole newRole, long newTerm) {
    // called once per transition into CANDIDATE (each is a new term) or LEADER
    if (newRole == RaftRole.CANDIDATE) {
      elections.increment();
    } else if (newRole == RaftRole.LEADER) {
      leaderships.increment();
    }
    role.set(newRole.code());
    term.set(newTerm);
  }

  void onCommit(long index) {
    commitIndex.set(index);
  }

  void onSnapshotInstalled() {
    snapshotsInstalled.increment();
  }

  void onLeadershipTransferStarted() {
    transfersStarted.increment();
  }

  void onLeadershipTransferEnded(boolean completed) {
    (completed ? transfersCompleted : transfersFailed).increment();
  }

  void recordAppendLatency(long nanos) {
    appendLatency.record(Duration.ofNanos(Math.max(0, nanos)));
  }

  void recordCommitLatency(long nanos) {
    commitLatency.record(Duration.ofNanos(Math.max(0, nanos)));
  }

  @Override
  public void close() {
    meters.forEach(registry::remove);
    meters.clear();
  }
}
