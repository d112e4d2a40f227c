package io.cairn.logstreams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link LogStream} shares. An implementation's test extends this class and
 * says how to get a leader's and a follower's stream, how to hold and release commits, and how to
 * let asynchronous work finish. The streams must be built with {@link #CONFIG}.
 */
public abstract class LogStreamContractTest {

  /** The settings every stream under test uses. */
  public static final LogStreamConfig CONFIG =
      LogStreamConfig.builder().maxInFlightAppends(4).maxBatchSizeBytes(4096).build();

  /** The stream of the member that leads. */
  protected abstract LogStream leaderStream();

  /** The stream of a member that does not lead; it must see what the leader commits. */
  protected abstract LogStream followerStream();

  /** From now on, nothing the leader writes commits. */
  protected abstract void holdCommits();

  /** Lets what was held commit (followed by {@link #settle()}). */
  protected abstract void releaseCommits();

  /** The leader stops leading (and does not lead again during the test). */
  protected abstract void loseLeadership();

  /** Lets asynchronous work (replication, commit notifications) finish. */
  protected abstract void settle();

  /** The time the stream's clock shows now, stamped on records written without a timestamp. */
  protected abstract long clockMillis();

  public static Record command(String accountId) {
    return new Record(
        RecordMetadata.builder().command(AccountIntent.CREATE).requestId(7).build(),
        new AccountValue(accountId, 0));
  }

  protected static Record event(String accountId, long amount, long timestamp) {
    return new Record(
        RecordMetadata.builder()
            .event(DepositIntent.DEPOSITED)
            .sourcePosition(1)
            .key(99)
            .timestamp(timestamp)
            .build(),
        new DepositValue(accountId, amount));
  }

  protected static List<Record> readAll(LogStreamReader reader) {
    List<Record> records = new ArrayList<>();
    while (reader.hasNext()) {
      records.add(reader.next());
    }
    return records;
  }

  private static List<Long> positions(List<Record> records) {
    return records.stream().map(Record::position).toList();
  }

  @Test
  void shouldAssignConsecutivePositionsAcrossBatches() {
    // when
    WriteResult first =
        leaderStream().writer().tryWrite(List.of(command("a"), command("b"), command("c")));
    WriteResult second = leaderStream().writer().tryWrite(command("d"));
    settle();

    // then
    assertThat(first).isEqualTo(new WriteResult.Written(1, 3));
    assertThat(second).isEqualTo(new WriteResult.Written(4, 4));
    try (LogStreamReader reader = leaderStream().newReader()) {
      List<Record> records = readAll(reader);
      assertThat(positions(records)).containsExactly(1L, 2L, 3L, 4L);
      assertThat(records)
          .extracting(r -> ((AccountValue) r.value()).accountId())
          .containsExactly("a", "b", "c", "d");
    }
  }

  @Test
  void shouldKeepFieldsAndStampOnlyMissingTimestamps() {
    // given
    Record withTime = event("x", 5, 1234);
    Record withoutTime = command("y");

    // when
    long writeMillis = clockMillis();
    leaderStream().writer().tryWrite(List.of(withTime, withoutTime));
    settle();

    // then
    try (LogStreamReader reader = leaderStream().newReader()) {
      List<Record> records = readAll(reader);
      assertThat(records).hasSize(2);
      assertThat(records.get(0).metadata())
          .isEqualTo(withTime.metadata().toBuilder().position(1).build());
      assertThat(records.get(0).value()).isEqualTo(withTime.value());
      assertThat(records.get(1).metadata().timestamp()).isEqualTo(writeMillis);
      assertThat(records.get(1).metadata().requestId()).isEqualTo(7);
    }
  }

  @Test
  void shouldReadOnlyCommittedRecords() {
    // given
    leaderStream().writer().tryWrite(command("committed"));
    settle();
    holdCommits();

    // when
    WriteResult held = leaderStream().writer().tryWrite(command("held"));
    settle();

    // then
    assertThat(held).isEqualTo(new WriteResult.Written(2, 2));
    assertThat(leaderStream().commitPosition()).isEqualTo(1);
    assertThat(leaderStream().lastWrittenPosition()).isEqualTo(2);
    try (LogStreamReader reader = leaderStream().newReader()) {
      assertThat(positions(readAll(reader))).containsExactly(1L);
      assertThat(reader.hasNext()).isFalse();

      releaseCommits();
      assertThat(positions(readAll(reader))).containsExactly(2L);
    }
    assertThat(leaderStream().commitPosition()).isEqualTo(2);
  }

  @Test
  void shouldTellCommitListenersWhenTheCommitPositionAdvances() {
    // given
    List<Long> told = new ArrayList<>();
    leaderStream().addCommitListener(told::add);

    // when
    leaderStream().writer().tryWrite(List.of(command("a"), command("b")));
    settle();

    // then
    assertThat(told).isNotEmpty().last().isEqualTo(2L);
    assertThat(told).isSorted();
  }

  @Test
  void shouldNotTellRemovedCommitListeners() {
    // given
    List<Long> told = new ArrayList<>();
    CommitListener listener = told::add;
    leaderStream().addCommitListener(listener);
    leaderStream().removeCommitListener(listener);

    // when
    leaderStream().writer().tryWrite(command("a"));
    settle();

    // then
    assertThat(leaderStream().commitPosition()).isEqualTo(1);
    assertThat(told).isEmpty();
  }

  @Test
  void shouldSeekToAPositionInsideABatch() {
    // given
    leaderStream().writer().tryWrite(List.of(command("a"), command("b"), command("c")));
    leaderStream().writer().tryWrite(List.of(command("d"), command("e")));
    settle();

    try (LogStreamReader reader = leaderStream().newReader()) {
      // when / then
      reader.seek(2);
      assertThat(positions(readAll(reader))).containsExactly(2L, 3L, 4L, 5L);
      reader.seek(4);
      assertThat(positions(readAll(reader))).containsExactly(4L, 5L);
      reader.seekToFirst();
      assertThat(positions(readAll(reader))).containsExactly(1L, 2L, 3L, 4L, 5L);
    }
  }

  @Test
  void shouldWaitAtAPositionNotWrittenYet() {
    // given
    leaderStream().writer().tryWrite(command("a"));
    settle();
    try (LogStreamReader reader = leaderStream().newReader()) {
      reader.seek(3);
      assertThat(reader.hasNext()).isFalse();

      // when
      leaderStream().writer().tryWrite(List.of(command("b"), command("c"), command("d")));
      settle();

      // then
      assertThat(positions(readAll(reader))).containsExactly(3L, 4L);
    }
  }

  @Test
  void shouldAnswerBackpressureWhileTooManyAppendsAreUncommitted() {
    // given
    holdCommits();
    List<WriteResult> accepted =
        IntStream.range(0, CONFIG.maxInFlightAppends())
            .mapToObj(i -> leaderStream().writer().tryWrite(command("a" + i)))
            .toList();

    // when
    WriteResult refused = leaderStream().writer().tryWrite(command("refused"));

    // then
    assertThat(accepted).allMatch(WriteResult::isWritten);
    assertThat(refused)
        .isEqualTo(
            new WriteResult.Backpressure(CONFIG.maxInFlightAppends(), CONFIG.maxInFlightAppends()));
    assertThat(leaderStream().lastWrittenPosition()).isEqualTo(CONFIG.maxInFlightAppends());

    // and when the appends commit, writes are accepted again
    releaseCommits();
    assertThat(leaderStream().writer().tryWrite(command("later")))
        .isEqualTo(
            new WriteResult.Written(
                CONFIG.maxInFlightAppends() + 1, CONFIG.maxInFlightAppends() + 1));
  }

  @Test
  void shouldAnswerTooLargeAndWriteNothing() {
    // given
    List<Record> huge = IntStream.range(0, 100).mapToObj(i -> command("account-" + i)).toList();

    // when
    WriteResult result = leaderStream().writer().tryWrite(huge);
    settle();

    // then
    assertThat(result).isInstanceOf(WriteResult.TooLarge.class);
    assertThat(((WriteResult.TooLarge) result).batchSizeBytes())
        .isGreaterThan(CONFIG.maxBatchSizeBytes());
    assertThat(leaderStream().writer().tryWrite(command("next")))
        .isEqualTo(new WriteResult.Written(1, 1));
  }

  @Test
  void shouldRejectRecordsThatAlreadyHaveAPosition() {
    Record positioned =
        new Record(command("a").metadata().toBuilder().position(5).build(), command("a").value());

    assertThatThrownBy(() -> leaderStream().writer().tryWrite(positioned))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("record 0 has position 5");
    assertThatThrownBy(() -> leaderStream().writer().tryWrite(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldAnswerNotLeaderOnAFollowerAndShowItTheCommittedRecords() {
    // given
    leaderStream().writer().tryWrite(List.of(command("a"), command("b")));
    settle();

    // when
    WriteResult result = followerStream().writer().tryWrite(command("c"));
    settle();

    // then
    assertThat(result).isEqualTo(new WriteResult.NotLeader());
    assertThat(followerStream().commitPosition()).isEqualTo(2);
    try (LogStreamReader reader = followerStream().newReader()) {
      assertThat(positions(readAll(reader))).containsExactly(1L, 2L);
    }
  }

  @Test
  void shouldEndALeaderWriterWithTheLeadership() {
    // given
    LogStreamWriter leaderWriter = leaderStream().newLeaderWriter();
    assertThat(leaderWriter.tryWrite(command("a"))).isEqualTo(new WriteResult.Written(1, 1));
    settle();

    // when
    loseLeadership();

    // then
    assertThat(leaderWriter.tryWrite(command("b"))).isEqualTo(new WriteResult.NotLeader());
    assertThat(leaderStream().newLeaderWriter().tryWrite(command("c")))
        .isEqualTo(new WriteResult.NotLeader());
  }

  @Test
  void shouldAnswerNotLeaderAndReadNothingOnceClosed() {
    // given
    leaderStream().writer().tryWrite(command("a"));
    settle();
    LogStreamReader reader = leaderStream().newReader();

    // when
    leaderStream().close();

    // then
    assertThat(leaderStream().writer().tryWrite(command("b")))
        .isEqualTo(new WriteResult.NotLeader());
    assertThat(leaderStream().newLeaderWriter().tryWrite(command("b")))
        .isEqualTo(new WriteResult.NotLeader());
    assertThat(reader.hasNext()).isFalse();
    reader.close();
    assertThatThrownBy(() -> leaderStream().newReader()).isInstanceOf(IllegalStateException.class);
  }
}
