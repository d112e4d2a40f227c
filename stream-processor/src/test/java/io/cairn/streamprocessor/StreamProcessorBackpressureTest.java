package io.cairn.streamprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.logstreams.LogStreamConfig;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class StreamProcessorBackpressureTest {

  private static final Duration RETRY_DELAY = Duration.ofMillis(25);

  @TempDir Path directory;
  private StreamProcessorTestKit kit;

  @BeforeEach
  void startLeader() {
    kit =
        StreamProcessorTestKit.builder()
            .directory(directory)
            .families(TestLedger.FAMILIES)
            .processors((db, builder) -> TestLedger.register(db, builder, new ArrayList<>()))
            .logStreamConfig(LogStreamConfig.builder().maxInFlightAppends(2).build())
            .processorConfig(StreamProcessorConfig.builder().writeRetryDelay(RETRY_DELAY).build())
            .build();
    kit.startLeader();
  }

  @AfterEach
  void close() {
    kit.close();
  }

  @Test
  void shouldRetryAfterTheDelayWithoutLosingOrDuplicatingTheCommand() {
    // given a log that refuses the next three writes
    long command = kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    kit.logStream().injectBackpressure(3);

    // when
    kit.runUntilIdle();

    // then nothing was written or changed yet
    assertThat(kit.followUps(command)).isEmpty();
    assertThat(TestLedger.balances(kit.db())).isEmpty();
    assertThat(kit.processor().lastProcessedPosition()).isLessThan(command);

    // and each retry delay brings one more attempt, until the write is taken, once
    kit.run(RETRY_DELAY.multipliedBy(3));
    assertThat(kit.followUps(command))
        .extracting(r -> r.metadata().intent())
        .containsExactly(AccountIntent.CREATED);
    assertThat(TestLedger.balances(kit.db())).containsOnlyKeys("a");
    assertThat(kit.responses()).hasSize(1);
    assertThat(retries()).isEqualTo(3);
    kit.run(RETRY_DELAY.multipliedBy(4));
    assertThat(kit.followUps(command)).hasSize(1);
  }

  @Test
  void shouldWaitForCommitsWhenTooManyBatchesAreInFlightAndKeepTheOrder() {
    // given five committed commands, and a log that stops committing
    List<Long> commands = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      commands.add(kit.writeCommand(AccountIntent.CREATE, new AccountValue("a" + i, 0)));
    }
    kit.logStream().holdCommits();

    // when
    kit.run(RETRY_DELAY.multipliedBy(4));

    // then only two batches are in flight; the third command waits
    assertThat(kit.logStream().uncommittedEntryCount()).isEqualTo(2);
    assertThat(TestLedger.balances(kit.db())).containsOnlyKeys("a0", "a1");
    assertThat(retries()).isPositive();

    // and once the log commits again, every command is processed once, in order
    kit.logStream().releaseCommits();
    kit.run(RETRY_DELAY.multipliedBy(4));
    List<Record> events = kit.committedRecords(RecordType.EVENT);
    assertThat(events)
        .extracting(r -> r.metadata().sourcePosition())
        .containsExactlyElementsOf(commands);
    assertThat(TestLedger.balances(kit.db())).hasSize(5);
    assertThat(kit.responses())
        .extracting(StreamProcessorTestKit.Response::requestId)
        .containsExactly(1L, 2L, 3L, 4L, 5L);
  }

  private double retries() {
    return kit.leader().registry().get(StreamProcessorMetrics.WRITE_RETRIES).counter().count();
  }
}
