package io.cairn.streamprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.logstreams.LogStream;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class StreamProcessorPositionsTest {

  @TempDir Path directory;
  private StreamProcessorTestKit kit;

  @BeforeEach
  void createKit() {
    kit =
        StreamProcessorTestKit.builder()
            .directory(directory)
            .families(TestLedger.FAMILIES)
            .processors(
                (db, builder) -> {
                  TestLedger.register(db, builder, new ArrayList<>());
                  // A command whose processing writes nothing at all.
                  builder.processor(CreditIntent.ACK, (context, result) -> {});
                })
            .build();
  }

  @AfterEach
  void close() {
    kit.close();
  }

  @Test
  void shouldStartWithoutPositionsInAFreshState() {
    StreamProcessor processor = kit.startLeader();

    assertThat(processor.lastProcessedPosition()).isEqualTo(LogStream.NO_POSITION);
    assertThat(processor.lastWrittenPosition()).isEqualTo(LogStream.NO_POSITION);
    assertThat(new ProcessingPositions(kit.db()).lastProcessedPosition())
        .isEqualTo(LogStream.NO_POSITION);
  }

  @Test
  void shouldStoreTheLastProcessedAndLastWrittenPositionsWithTheState() {
    // given
    kit.startLeader();
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    long last = kit.writeCommand(DepositIntent.DEPOSIT, new DepositValue("a", 3));

    // when
    kit.runUntilIdle();

    // then
    List<Record> followUps = kit.followUps(last);
    long lastFollowUp = followUps.get(followUps.size() - 1).position();
    assertThat(kit.processor().lastProcessedPosition()).isEqualTo(last);
    assertThat(kit.processor().lastWrittenPosition()).isEqualTo(lastFollowUp);
    assertThat(gauge(StreamProcessorMetrics.LAST_PROCESSED_POSITION)).isEqualTo(last);
    assertThat(gauge(StreamProcessorMetrics.LAST_WRITTEN_POSITION)).isEqualTo(lastFollowUp);

    // and they survive a restart
    kit.leader().closeState();
    ProcessingPositions stored = new ProcessingPositions(kit.db());
    assertThat(stored.lastProcessedPosition()).isEqualTo(last);
    assertThat(stored.lastWrittenPosition()).isEqualTo(lastFollowUp);
  }

  @Test
  void shouldRebuildThePositionsByReplay() {
    // given
    kit.startLeader();
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    kit.writeCommand(DepositIntent.DEPOSIT, new DepositValue("a", 3));
    kit.writeCommand(DepositIntent.DEPOSIT, new DepositValue("missing", 3));
    kit.runUntilIdle();

    // when
    StreamProcessorTestKit.Replica follower = kit.replica("follower");
    follower.start(StreamProcessorMode.FOLLOWER);

    // then
    ProcessingPositions rebuilt = new ProcessingPositions(follower.db());
    assertThat(rebuilt.lastProcessedPosition()).isEqualTo(kit.processor().lastProcessedPosition());
    assertThat(rebuilt.lastWrittenPosition()).isEqualTo(kit.processor().lastWrittenPosition());
  }

  @Test
  void shouldMoveOnlyTheProcessedPositionForACommandThatWritesNothing() {
    // given
    kit.startLeader();
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    kit.runUntilIdle();
    long written = kit.processor().lastWrittenPosition();

    // when
    long silent = kit.writeCommand(CreditIntent.ACK, new CreditValue(1, "a", 1, 1, 2));
    kit.runUntilIdle();

    // then
    assertThat(kit.followUps(silent)).isEmpty();
    assertThat(kit.processor().lastProcessedPosition()).isEqualTo(silent);
    assertThat(kit.processor().lastWrittenPosition()).isEqualTo(written);

    // and a restart does not process it again
    kit.leader().restart(StreamProcessorMode.LEADER);
    assertThat(kit.processor().lastProcessedPosition()).isEqualTo(silent);
    assertThat(
            kit.leader()
                .registry()
                .get(StreamProcessorMetrics.RECORDS)
                .tag("result", "processed")
                .counter()
                .count())
        .isZero();
  }

  private double gauge(String name) {
    return kit.leader().registry().get(name).gauge().value();
  }
}
