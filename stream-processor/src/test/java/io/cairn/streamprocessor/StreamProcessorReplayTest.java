package io.cairn.streamprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class StreamProcessorReplayTest {

  private static final long SEED = 20_240_611L;

  @TempDir Path directory;
  private final List<String> leaderSideEffects = new ArrayList<>();
  private final List<String> followerSideEffects = new ArrayList<>();
  private StreamProcessorTestKit kit;

  @BeforeEach
  void createKit() {
    kit =
        StreamProcessorTestKit.builder()
            .directory(directory)
            .families(TestLedger.FAMILIES)
            .processors((db, builder) -> TestLedger.register(db, builder, leaderSideEffects))
            .processorConfig(StreamProcessorConfig.builder().maxRecordsPerTurn(7).build())
            .build();
  }

  @AfterEach
  void close() {
    kit.close();
  }

  @Test
  void shouldReachTheLeadersStateWhenAFollowerReplaysTheLog() {
    // given a leader that processed a seeded mix of commands, rejections included
    kit.startLeader();
    writeRandomCommands(new Random(SEED), 120);
    kit.runUntilIdle();
    assertThat(kit.committedRecords(RecordType.REJECTION)).isNotEmpty();
    int responses = kit.responses().size();

    // when a fresh replica replays the same log as a follower
    StreamProcessorTestKit.Replica follower = follower();
    follower.start(StreamProcessorMode.FOLLOWER);

    // then it has the same state and positions, and sent nothing
    assertThat(follower.stateDigest()).isEqualTo(kit.leader().stateDigest());
    assertThat(TestLedger.balances(follower.db())).isEqualTo(TestLedger.balances(kit.db()));
    assertThat(follower.processor().lastProcessedPosition())
        .isEqualTo(kit.processor().lastProcessedPosition());
    assertThat(follower.processor().lastWrittenPosition())
        .isEqualTo(kit.processor().lastWrittenPosition());
    assertThat(follower.responses()).isEmpty();
    assertThat(followerSideEffects).isEmpty();
    assertThat(kit.responses()).hasSize(responses);
    assertThat(follower.processor().phase()).isEqualTo(StreamProcessorPhase.REPLAYING);
    assertThat(follower.registry().get(StreamProcessorMetrics.REPLAYED_RECORDS).counter().count())
        .isEqualTo(kit.committedRecords(RecordType.EVENT).size());
  }

  @Test
  void shouldFollowTheLeaderWhileItProcesses() {
    // given a follower started before anything was written
    kit.startLeader();
    StreamProcessorTestKit.Replica follower = follower();
    follower.start(StreamProcessorMode.FOLLOWER);
    Random random = new Random(SEED + 1);

    // when the leader processes in small steps
    for (int step = 0; step < 10; step++) {
      writeRandomCommands(random, 8);
      kit.runUntilIdle();
      // then after every step the follower has the leader's state
      assertThat(follower.stateDigest()).as("step %d", step).isEqualTo(kit.leader().stateDigest());
    }
    assertThat(followerSideEffects).isEmpty();
    assertThat(follower.responses()).isEmpty();
  }

  @Test
  void shouldResumeAfterTheLastProcessedPositionOnRestart() {
    // given
    kit.startLeader();
    writeRandomCommands(new Random(SEED + 2), 30);
    kit.runUntilIdle();
    int records = kit.committedRecords().size();
    int responses = kit.responses().size();
    int sideEffects = leaderSideEffects.size();
    var digest = kit.leader().stateDigest();
    long lastProcessed = kit.processor().lastProcessedPosition();

    // when the member restarts on the same state
    StreamProcessor restarted = kit.leader().restart(StreamProcessorMode.LEADER);

    // then nothing is processed again
    assertThat(restarted.phase()).isEqualTo(StreamProcessorPhase.PROCESSING);
    assertThat(kit.committedRecords()).hasSize(records);
    assertThat(kit.responses()).hasSize(responses);
    assertThat(leaderSideEffects).hasSize(sideEffects);
    assertThat(kit.leader().stateDigest()).isEqualTo(digest);
    assertThat(restarted.lastProcessedPosition()).isEqualTo(lastProcessed);

    // and a new command is processed as usual
    long command = kit.writeCommand(AccountIntent.CREATE, new AccountValue("fresh", 0));
    kit.runUntilIdle();
    assertThat(kit.followUps(command))
        .extracting(r -> r.metadata().intent())
        .containsExactly(AccountIntent.CREATED);
  }

  @Test
  void shouldReplayAndThenProcessWhenTakingOverLeadership() {
    // given a leader that processed some commands and then stopped, and commands it never saw
    kit.startLeader();
    writeRandomCommands(new Random(SEED + 3), 40);
    kit.runUntilIdle();
    kit.leader().stop();
    long unprocessed = kit.writeCommand(AccountIntent.CREATE, new AccountValue("late", 0));
    kit.writeCommand(DepositIntent.DEPOSIT, new DepositValue("late", 11));

    // when another member takes over with a state that lags behind
    StreamProcessorTestKit.Replica newLeader = follower();
    newLeader.start(StreamProcessorMode.LEADER);

    // then it replayed what was processed and processed only what was not
    assertThat(newLeader.processor().phase()).isEqualTo(StreamProcessorPhase.PROCESSING);
    for (Record command : kit.committedRecords(RecordType.COMMAND)) {
      assertThat(kit.logStream().committedBatches())
          .as("batches caused by the command at %d", command.position())
          .filteredOn(b -> b.records().get(0).metadata().sourcePosition() == command.position())
          .hasSize(1);
    }
    assertThat(kit.followUps(unprocessed))
        .extracting(r -> r.metadata().intent())
        .containsExactly(AccountIntent.CREATED);
    assertThat(TestLedger.balances(newLeader.db())).containsEntry("late", 11L);
    assertThat(newLeader.responses()).hasSize(2);

    // and a follower replaying everything agrees with it
    StreamProcessorTestKit.Replica check = kit.replica("check");
    check.start(StreamProcessorMode.FOLLOWER);
    assertThat(check.stateDigest()).isEqualTo(newLeader.stateDigest());
  }

  @Test
  void shouldWaitForThePreviousLeadersBatchesToCommitBeforeProcessing() {
    // given a command processed by the old leader whose follow-ups are not committed yet
    kit.startLeader();
    long command = kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    kit.logStream().holdCommits();
    kit.runUntilIdle();
    kit.leader().stop();

    // when a new leader (with this entry in its log) starts
    StreamProcessorTestKit.Replica newLeader = follower();
    newLeader.start(StreamProcessorMode.LEADER);

    // then it replays and waits; it does not process the command again
    assertThat(newLeader.processor().phase()).isEqualTo(StreamProcessorPhase.REPLAYING);
    kit.logStream().commitAll();
    kit.runUntilIdle();
    assertThat(newLeader.processor().phase()).isEqualTo(StreamProcessorPhase.PROCESSING);
    assertThat(kit.followUps(command)).hasSize(1);
    assertThat(TestLedger.balances(newLeader.db())).containsOnlyKeys("a");
    assertThat(newLeader.processor().lastProcessedPosition()).isEqualTo(command);
  }

  @Test
  void shouldProcessAgainWhatALeaderChangeDroppedWhenStateIsRebuilt() {
    // given a leader whose follow-up batch was dropped by a leader change
    kit.startLeader();
    long command = kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    kit.logStream().holdCommits();
    kit.runUntilIdle();
    assertThat(TestLedger.balances(kit.db())).containsOnlyKeys("a"); // state ran ahead of the log
    kit.logStream().dropUncommitted();
    kit.logStream().releaseCommits();

    // when the old leader's state is discarded and rebuilt by a new leader processor
    kit.leader().discardState();
    kit.startLeader();

    // then the command is processed again, once; the old leader had answered at once (the command
    // was committed), and the new processor answers with the very same record
    assertThat(kit.followUps(command))
        .extracting(r -> r.metadata().intent())
        .containsExactly(AccountIntent.CREATED);
    assertThat(TestLedger.balances(kit.db())).containsOnlyKeys("a");
    assertThat(kit.responses()).hasSize(2);
    assertThat(kit.responses().get(1)).isEqualTo(kit.responses().get(0));
    assertThat(kit.responses().get(1).record().position()).isEqualTo(command);
  }

  private StreamProcessorTestKit.Replica follower() {
    return kit.replica(
        "follower", (db, builder) -> TestLedger.register(db, builder, followerSideEffects));
  }

  /** Writes {@code count} commands drawn from {@code random}: creates, deposits, transfers. */
  private void writeRandomCommands(Random random, int count) {
    for (int i = 0; i < count; i++) {
      String account = "acc-" + random.nextInt(6);
      switch (random.nextInt(3)) {
        case 0 -> kit.writeCommand(AccountIntent.CREATE, new AccountValue(account, 0));
        case 1 ->
            kit.writeCommand(
                DepositIntent.DEPOSIT, new DepositValue(account, random.nextInt(50) - 5));
        default ->
            kit.writeCommand(
                TransferIntent.CREATE,
                new TransferValue(account, "acc-" + random.nextInt(6), random.nextInt(40), 1, 1));
      }
    }
  }
}
