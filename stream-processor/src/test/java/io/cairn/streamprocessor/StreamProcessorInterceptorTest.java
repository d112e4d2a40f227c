package io.cairn.streamprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamily;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbCodecs;
import io.cairn.logstreams.LogStreamConfig;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RejectionType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Interceptors, prepended commands, and follow-ups too large for one batch. */
final class StreamProcessorInterceptorTest {

  private static final ColumnFamilyDefinition CHECKPOINTS =
      ColumnFamilyDefinition.excluded("TEST_CHECKPOINTS");

  @TempDir Path directory;
  private StreamProcessorTestKit kit;

  @AfterEach
  void close() {
    if (kit != null) {
      kit.close();
    }
  }

  @Test
  void shouldLetAnInterceptorWriteACheckpointAheadOfTheCommandItTakesOver() {
    // given a ledger with a checkpoint processor and the cut interceptor
    kit = kit(StreamProcessorInterceptorTest::registerWithCheckpoints, LogStreamConfig.defaults());
    kit.startLeader();
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    kit.runUntilIdle();

    // when an inter-partition command carrying a higher checkpoint id arrives
    long command =
        kit.write(
            new Record(
                RecordMetadata.builder()
                    .command(DepositIntent.DEPOSIT)
                    .requestId(77)
                    .requestStreamId(StreamProcessorTestKit.REQUEST_STREAM_ID)
                    .checkpointId(5)
                    .build(),
                new DepositValue("a", 10)));
    kit.runUntilIdle();

    // then the checkpoint is written ahead of a copy of the command, in one batch ...
    List<Record> rewritten = kit.followUps(command);
    assertThat(rewritten)
        .extracting(r -> r.metadata().recordType(), r -> r.metadata().intent())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(RecordType.COMMAND, CheckpointIntent.CREATE),
            org.assertj.core.groups.Tuple.tuple(RecordType.COMMAND, DepositIntent.DEPOSIT));
    assertThat(rewritten.get(1).position()).isEqualTo(rewritten.get(0).position() + 1);
    assertThat(rewritten.get(1).metadata().checkpointId()).isEqualTo(5);
    assertThat(rewritten.get(1).metadata().requestId()).isEqualTo(77);

    // ... and processed in that order: the checkpoint before the deposit
    long created = kit.followUps(rewritten.get(0).position()).get(0).position();
    long deposited = kit.followUps(rewritten.get(1).position()).get(0).position();
    assertThat(created).isLessThan(deposited);
    assertThat(kit.followUps(rewritten.get(0).position()).get(0).value())
        .isEqualTo(
            new CheckpointValue(
                5, rewritten.get(0).position(), rewritten.get(0).metadata().timestamp()));
    assertThat(TestLedger.balances(kit.db())).containsEntry("a", 10L);
    assertThat(kit.responseTo(77))
        .hasValueSatisfying(
            r -> assertThat(r.record().metadata().intent()).isEqualTo(DepositIntent.DEPOSITED));
    assertThat(kit.responses()).filteredOn(r -> r.requestId() == 77).hasSize(1);

    // and a follower replaying the log agrees
    StreamProcessorTestKit.Replica follower = kit.replica("follower");
    follower.start(StreamProcessorMode.FOLLOWER);
    assertThat(follower.stateDigest()).isEqualTo(kit.leader().stateDigest());
    assertThat(lastCheckpoint(follower.db())).isEqualTo(5);
  }

  @Test
  void shouldPutPrependedCommandsAheadOfEverythingAppended() {
    // given a processor that appends an event and then prepends a command
    kit =
        kit(
            (db, builder) -> {
              TestLedger.register(db, builder, new ArrayList<>());
              builder.interceptor(
                  (context, result) -> {
                    if (context.intent() == AccountIntent.CREATE) {
                      String id = ((AccountValue) context.value()).accountId();
                      result.appendEvent(
                          context.position(), AccountIntent.CREATED, context.value());
                      result.prependCommand(
                          RecordMetadata.NO_KEY, DepositIntent.DEPOSIT, new DepositValue(id, 4));
                      return CommandInterceptor.Decision.HANDLED;
                    }
                    return CommandInterceptor.Decision.CONTINUE;
                  });
            },
            LogStreamConfig.defaults());
    kit.startLeader();

    // when
    long command = kit.writeCommand(AccountIntent.CREATE, new AccountValue("b", 0));
    kit.runUntilIdle();

    // then
    assertThat(kit.followUps(command))
        .extracting(r -> r.metadata().intent())
        .containsExactly(DepositIntent.DEPOSIT, AccountIntent.CREATED);
    assertThat(TestLedger.balances(kit.db())).containsEntry("b", 4L);
  }

  @Test
  void shouldRejectACommandWhoseFollowUpsDoNotFitInABatch() {
    // given a processor that writes far more than a batch may hold
    kit =
        kit(
            (db, builder) -> {
              TestLedger.register(db, builder, new ArrayList<>());
              builder.interceptor(
                  (context, result) -> {
                    if (context.intent() == AccountIntent.CREATE
                        && ((AccountValue) context.value()).accountId().equals("huge")) {
                      for (int i = 0; i < 40; i++) {
                        result.appendEvent(
                            i, AccountIntent.CREATED, new AccountValue("huge-" + i, 0));
                      }
                      return CommandInterceptor.Decision.HANDLED;
                    }
                    return CommandInterceptor.Decision.CONTINUE;
                  });
            },
            LogStreamConfig.builder().maxBatchSizeBytes(1024).build());
    kit.startLeader();

    // when
    long command = kit.writeCommand(AccountIntent.CREATE, new AccountValue("huge", 0));
    long next = kit.writeCommand(AccountIntent.CREATE, new AccountValue("small", 0));
    kit.runUntilIdle();

    // then
    assertThat(kit.followUps(command))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.metadata().rejectionType()).isEqualTo(RejectionType.PROCESSING_ERROR);
              assertThat(r.metadata().rejectionReason())
                  .startsWith(
                      "Expected the follow-up records to fit in a batch of at most 1024 bytes");
            });
    assertThat(TestLedger.balances(kit.db())).containsOnlyKeys("small");
    assertThat(kit.followUps(next)).hasSize(1);
  }

  private StreamProcessorTestKit kit(
      StreamProcessorTestKit.ProcessorsSetup setup, LogStreamConfig logConfig) {
    List<ColumnFamilyDefinition> families = new ArrayList<>(TestLedger.FAMILIES);
    families.add(CHECKPOINTS);
    return StreamProcessorTestKit.builder()
        .directory(directory)
        .families(families)
        .processors(setup)
        .logStreamConfig(logConfig)
        .build();
  }

  /** The ledger plus a checkpoint processor and the interceptor of the consistent cut. */
  private static void registerWithCheckpoints(CairnDb db, RecordProcessors.Builder builder) {
    TestLedger.register(db, builder, new ArrayList<>());
    ColumnFamily<String, Long> checkpoints =
        db.columnFamily(CHECKPOINTS, DbCodecs.STRING, DbCodecs.LONG);
    builder
        .interceptor(
            (context, result) -> {
              long last = lastCheckpoint(db);
              if (context.checkpointId() == RecordMetadata.NO_CHECKPOINT_ID
                  || context.checkpointId() <= last) {
                return CommandInterceptor.Decision.CONTINUE;
              }
              result
                  .appendCommand(
                      RecordMetadata.NO_KEY,
                      CheckpointIntent.CREATE,
                      new CheckpointValue(
                          context.checkpointId(),
                          RecordMetadata.NO_POSITION,
                          RecordMetadata.NO_TIMESTAMP))
                  .appendCommand(context.command());
              return CommandInterceptor.Decision.HANDLED;
            })
        .processor(
            CheckpointIntent.CREATE,
            (context, result) -> {
              CheckpointValue value = (CheckpointValue) context.value();
              if (value.checkpointId() > lastCheckpoint(db)) {
                result.appendEvent(
                    value.checkpointId(),
                    CheckpointIntent.CREATED,
                    new CheckpointValue(
                        value.checkpointId(), context.position(), context.timestamp()));
              } else {
                result.appendEvent(value.checkpointId(), CheckpointIntent.IGNORED, value);
              }
            })
        .applier(
            CheckpointIntent.CREATED,
            event -> checkpoints.put("last", ((CheckpointValue) event.value()).checkpointId()))
        .applier(CheckpointIntent.IGNORED, EventApplier.NONE);
  }

  private static long lastCheckpoint(CairnDb db) {
    Long last = db.columnFamily(CHECKPOINTS, DbCodecs.STRING, DbCodecs.LONG).get("last");
    return last == null ? RecordMetadata.NO_CHECKPOINT_ID : last;
  }
}
