package io.cairn.logstreams.raft;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.logstreams.LogStream;
import io.cairn.logstreams.LogStreamContractTest;
import io.cairn.logstreams.LogStreamReader;
import io.cairn.logstreams.WriteResult;
import io.cairn.logstreams.raft.RaftLogStreamCluster.Member;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.Record;
import io.cairn.raft.RaftRole;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class RaftLogStreamTest {

  // Shorter than the election timeout, so holding commits never deposes the leader.
  private static final Duration SETTLE = Duration.ofMillis(120);

  @TempDir Path directory;
  private RaftLogStreamCluster cluster;
  private Member leader;

  @BeforeEach
  void startCluster() {
    cluster = new RaftLogStreamCluster(directory, 42, LogStreamContractTest.CONFIG);
    leader = cluster.awaitLeader();
  }

  @AfterEach
  void stopCluster() {
    cluster.close();
  }

  @Nested
  final class Contract extends LogStreamContractTest {
    @Override
    protected LogStream leaderStream() {
      return leader.stream;
    }

    @Override
    protected LogStream followerStream() {
      return cluster.follower(leader).stream;
    }

    @Override
    protected void holdCommits() {
      cluster.network().isolate(leader.id);
    }

    @Override
    protected void releaseCommits() {
      cluster.network().heal();
      settle();
    }

    @Override
    protected void loseLeadership() {
      cluster.network().isolate(leader.id);
      cluster.awaitStepDown(leader);
    }

    @Override
    protected void settle() {
      cluster.run(SETTLE);
    }

    @Override
    protected long clockMillis() {
      return cluster.clock().millis();
    }
  }

  @Test
  void shouldDropTheUncommittedAppendsOfADeposedLeaderAndReuseTheirPositions() {
    // given a committed record, then a leader cut off from the others
    assertThat(leader.stream.writer().tryWrite(record("committed")))
        .isEqualTo(new WriteResult.Written(1, 1));
    cluster.run(SETTLE);
    cluster.network().isolate(leader.id);
    WriteResult lost = leader.stream.writer().tryWrite(record("lost"));
    cluster.run(SETTLE);

    // when the others elect a new leader that writes
    Member newLeader = cluster.awaitLeaderOtherThan(leader);
    WriteResult written = newLeader.stream.writer().tryWrite(record("new"));
    cluster.network().heal();
    cluster.awaitLeader();
    cluster.run(Duration.ofSeconds(1));

    // then the lost append never shows, its position is reused, and every member reads the same
    assertThat(lost).isEqualTo(new WriteResult.Written(2, 2));
    assertThat(written).isEqualTo(new WriteResult.Written(2, 2));
    assertThat(leader.raft.role()).isNotEqualTo(RaftRole.LEADER);
    assertThat(leader.stream.writer().tryWrite(record("late")))
        .isEqualTo(new WriteResult.NotLeader());
    for (Member member : cluster.members) {
      assertThat(readAccountIds(member.stream))
          .as("member %d", member.id)
          .containsExactly("committed", "new");
      assertThat(member.stream.commitPosition()).isEqualTo(2);
    }
  }

  @Test
  void shouldContinuePositionsAfterEverythingInTheNewLeadersLog() {
    // given
    leader.stream.writer().tryWrite(List.of(record("a"), record("b"), record("c")));
    cluster.run(SETTLE);

    // when the leader is cut off and another takes over
    cluster.network().isolate(leader.id);
    Member newLeader = cluster.awaitLeaderOtherThan(leader);
    cluster.run(SETTLE);

    // then
    assertThat(newLeader.stream.lastWrittenPosition()).isEqualTo(3);
    assertThat(newLeader.stream.writer().tryWrite(record("d")))
        .isEqualTo(new WriteResult.Written(4, 4));
    cluster.run(SETTLE);
    assertThat(readAccountIds(newLeader.stream)).containsExactly("a", "b", "c", "d");
  }

  @Test
  void shouldTellAFollowersCommitListenersInPositionOrder() {
    // given
    Member follower = cluster.follower(leader);
    List<Long> told = new ArrayList<>();
    follower.stream.addCommitListener(told::add);

    // when
    for (int i = 0; i < 5; i++) {
      leader.stream.writer().tryWrite(List.of(record("x" + i), record("y" + i)));
      cluster.run(Duration.ofMillis(7));
    }
    cluster.run(SETTLE);

    // then
    assertThat(told).isNotEmpty().isSorted().doesNotHaveDuplicates().last().isEqualTo(10L);
    assertThat(follower.stream.commitPosition()).isEqualTo(10);
  }

  private static Record record(String accountId) {
    return LogStreamContractTest.command(accountId);
  }

  private static List<String> readAccountIds(LogStream stream) {
    List<String> ids = new ArrayList<>();
    try (LogStreamReader reader = stream.newReader()) {
      while (reader.hasNext()) {
        ids.add(((AccountValue) reader.next().value()).accountId());
      }
    }
    return ids;
  }
}
