package io.cairn.logstreams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.protocol.AccountValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordBatch;
import io.cairn.scheduler.SimClock;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

final class InMemoryLogStreamTest {

  private static Record command(String accountId) {
    return LogStreamContractTest.command(accountId);
  }

  @Nested
  final class Contract extends LogStreamContractTest {
    private final SimClock clock = new SimClock(5_000);
    private final InMemoryLogStream leader = new InMemoryLogStream(1, clock, CONFIG);
    private final InMemoryLogStream follower = new InMemoryLogStream(1, clock, CONFIG);

    Contract() {
      follower.leader(false);
      // The follower mirrors what the leader commits.
      leader.addCommitListener(position -> mirrorCommitted());
    }

    private void mirrorCommitted() {
      List<RecordBatch> batches = leader.committedBatches();
      follower.leader(true);
      for (int i = follower.committedBatches().size(); i < batches.size(); i++) {
        follower.writer().tryWrite(withoutPositions(batches.get(i).records()));
      }
      follower.leader(false);
    }

    private static List<Record> withoutPositions(List<Record> records) {
      return records.stream()
          .map(
              r ->
                  new Record(
                      r.metadata().toBuilder().position(LogStream.NO_POSITION).build(), r.value()))
          .toList();
    }

    @Override
    protected LogStream leaderStream() {
      return leader;
    }

    @Override
    protected LogStream followerStream() {
      return follower;
    }

    @Override
    protected void holdCommits() {
      leader.holdCommits();
    }

    @Override
    protected void releaseCommits() {
      leader.releaseCommits();
    }

    @Override
    protected void loseLeadership() {
      leader.leader(false);
    }

    @Override
    protected void settle() {}

    @Override
    protected long clockMillis() {
      return clock.millis();
    }
  }

  private final SimClock clock = new SimClock(1_000);
  private final InMemoryLogStream stream =
      new InMemoryLogStream(3, clock, LogStreamConfig.defaults());

  @Test
  void shouldReuseThePositionsOfDroppedAppends() {
    // given
    stream.writer().tryWrite(command("kept"));
    stream.holdCommits();
    stream.writer().tryWrite(List.of(command("lost"), command("lost")));

    // when
    int dropped = stream.dropUncommitted();
    WriteResult next = stream.writer().tryWrite(command("new"));
    stream.commitAll();

    // then
    assertThat(dropped).isEqualTo(1);
    assertThat(next).isEqualTo(new WriteResult.Written(2, 2));
    assertThat(stream.committedRecords())
        .extracting(r -> ((AccountValue) r.value()).accountId())
        .containsExactly("kept", "new");
  }

  @Test
  void shouldCommitStepByStep() {
    // given
    stream.holdCommits();
    stream.writer().tryWrite(List.of(command("a"), command("b")));
    stream.writer().tryWrite(command("c"));
    stream.writer().tryWrite(command("d"));

    // when / then
    assertThat(stream.commitNext()).isEqualTo(2);
    assertThat(stream.commitUpTo(3)).isEqualTo(3);
    assertThat(stream.uncommittedEntryCount()).isEqualTo(1);
    assertThat(stream.commitUpTo(3)).isEqualTo(3);
    assertThat(stream.commitAll()).isEqualTo(4);
  }

  @Test
  void shouldInjectBackpressureForTheNextWrites() {
    // given
    stream.injectBackpressure(2);

    // when
    WriteResult first = stream.writer().tryWrite(command("a"));
    WriteResult second = stream.writer().tryWrite(command("a"));
    WriteResult third = stream.writer().tryWrite(command("a"));

    // then
    assertThat(first).isInstanceOf(WriteResult.Backpressure.class);
    assertThat(second).isInstanceOf(WriteResult.Backpressure.class);
    assertThat(third).isEqualTo(new WriteResult.Written(1, 1));
    assertThat(stream.writeAttempts()).isEqualTo(3);
  }

  @Test
  void shouldFailTheReaderOnAnUndecodableEntryAndKeepFailing() {
    // given
    stream.writer().tryWrite(command("a"));
    stream.appendRawEntry(2, 2, "not a batch".getBytes(StandardCharsets.UTF_8));
    LogStreamReader reader = stream.newReader();
    assertThat(reader.next().position()).isEqualTo(1);

    // when / then
    assertThatThrownBy(reader::hasNext)
        .isInstanceOf(CorruptedLogException.class)
        .hasMessageContaining("positions [2, 2]")
        .hasMessageContaining("partition 3");
    assertThatThrownBy(reader::next).isInstanceOf(CorruptedLogException.class);
  }

  @Test
  void shouldFailTheReaderWhenTheBatchDisagreesWithItsEntry() {
    // given a valid batch at positions [1, 1] stored as the entry [5, 5]
    var batch = LogBatchAssembler.assemble(List.of(command("a")), 1, 0);
    stream.appendRawEntry(5, 5, LogBatchAssembler.encode(batch).byteArray());

    // when / then
    try (LogStreamReader reader = stream.newReader()) {
      assertThatThrownBy(reader::hasNext)
          .isInstanceOf(CorruptedLogException.class)
          .hasMessageContaining("to match the entry's [5, 5]");
    }
  }

  @Test
  void shouldRefuseARawEntryBelowTheLastPosition() {
    stream.writer().tryWrite(command("a"));

    assertThatThrownBy(() -> stream.appendRawEntry(1, 1, new byte[] {1}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldKeepRefusingALeaderWriterOfAnEarlierLeadership() {
    // given
    LogStreamWriter first = stream.newLeaderWriter();
    stream.leader(false);
    stream.leader(true);
    LogStreamWriter second = stream.newLeaderWriter();

    // when a leader change drops uncommitted appends
    WriteResult beforeDrop = second.tryWrite(command("a"));
    stream.dropUncommitted();

    // then
    assertThat(first.tryWrite(command("x"))).isEqualTo(new WriteResult.NotLeader());
    assertThat(beforeDrop).isEqualTo(new WriteResult.Written(1, 1));
    assertThat(second.tryWrite(command("y"))).isEqualTo(new WriteResult.NotLeader());
    assertThat(stream.newLeaderWriter().tryWrite(command("z")))
        .isEqualTo(new WriteResult.Written(2, 2));
    assertThat(stream.writer().tryWrite(command("w"))).isEqualTo(new WriteResult.Written(3, 3));
  }

  @Test
  void shouldAnswerNotLeaderWhenNotLeading() {
    stream.leader(false);

    assertThat(stream.writer().tryWrite(command("a"))).isEqualTo(new WriteResult.NotLeader());
    assertThat(stream.lastWrittenPosition()).isEqualTo(LogStream.NO_POSITION);
  }
}
