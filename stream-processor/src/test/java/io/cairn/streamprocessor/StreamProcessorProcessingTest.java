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
import io.cairn.protocol.RecordBatch;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RejectionType;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class StreamProcessorProcessingTest {

  @TempDir Path directory;
  private final List<String> sideEffects = new ArrayList<>();
  private StreamProcessorTestKit kit;

  @BeforeEach
  void startLeader() {
    kit =
        StreamProcessorTestKit.builder()
            .directory(directory)
            .families(TestLedger.FAMILIES)
            .processors((db, builder) -> TestLedger.register(db, builder, sideEffects))
            .build();
    kit.startLeader();
  }

  @AfterEach
  void close() {
    kit.close();
  }

  @Test
  void shouldWriteTheFollowUpEventsAsOneBatchAndApplyThem() {
    // given
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("b", 0));
    kit.writeCommand(DepositIntent.DEPOSIT, new DepositValue("a", 100));
    kit.runUntilIdle();
    int batchesBefore = kit.logStream().committedBatches().size();

    // when
    long transfer = kit.writeCommand(TransferIntent.CREATE, new TransferValue("a", "b", 30, 1, 1));
    kit.runUntilIdle();

    // then the command's two events are one batch, caused by it, carrying its timestamp
    List<RecordBatch> batches = kit.logStream().committedBatches();
    assertThat(batches).hasSize(batchesBefore + 2);
    RecordBatch followUps = batches.get(batches.size() - 1);
    assertThat(followUps.records())
        .extracting(r -> r.metadata().intent())
        .containsExactly(TransferIntent.DEBITED, TransferIntent.COMPLETED);
    long commandTimestamp =
        kit.committedRecords().stream()
            .filter(r -> r.position() == transfer)
            .findFirst()
            .orElseThrow()
            .metadata()
            .timestamp();
    assertThat(followUps.records())
        .allSatisfy(
            r -> {
              assertThat(r.metadata().sourcePosition()).isEqualTo(transfer);
              assertThat(r.metadata().timestamp()).isEqualTo(commandTimestamp);
              assertThat(r.metadata().key()).isEqualTo(transfer);
            });
    assertThat(TestLedger.balances(kit.db())).isEqualTo(Map.of("a", 70L, "b", 30L));
  }

  @Test
  void shouldRespondOnceTheCommittedCommandIsProcessedWithoutWaitingForItsBatch() {
    // given a committed command whose follow-ups will not commit yet
    long command = kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    long requestId = kit.lastRequestId();
    kit.logStream().holdCommits();

    // when it is processed
    kit.runUntilIdle();

    // then state has the account and the response went out, although the batch is not committed:
    // the command is, and its result follows from the log
    assertThat(kit.logStream().uncommittedEntryCount()).isEqualTo(1);
    assertThat(TestLedger.balances(kit.db())).containsOnlyKeys("a");
    assertThat(kit.responses()).hasSize(1);
    StreamProcessorTestKit.Response response = kit.responses().get(0);
    assertThat(response.requestId()).isEqualTo(requestId);
    assertThat(response.requestStreamId()).isEqualTo(StreamProcessorTestKit.REQUEST_STREAM_ID);
    assertThat(response.record().metadata().intent()).isEqualTo(AccountIntent.CREATED);
    assertThat(response.record().position()).isEqualTo(command); // committed; its event follows
    kit.logStream().commitAll();
    kit.runUntilIdle();
    assertThat(kit.responses()).hasSize(1);
  }

  @Test
  void shouldAnswerAProcessingErrorOnlyOnceItsRejectionIsCommitted() {
    // given an account whose deposit processor throws
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("explode", 0));
    kit.runUntilIdle();
    long failing = kit.writeCommand(DepositIntent.DEPOSIT, new DepositValue("explode", 9));
    long failingRequest = kit.lastRequestId();
    kit.logStream().holdCommits();

    // when it is processed
    kit.runUntilIdle();

    // then the rejection (which may come from the machine, not the log) waits for its batch
    assertThat(kit.responseTo(failingRequest)).isEmpty();
    kit.logStream().commitAll();
    kit.runUntilIdle();
    assertThat(kit.responseTo(failingRequest))
        .hasValueSatisfying(
            r ->
                assertThat(r.record().metadata().rejectionType())
                    .isEqualTo(RejectionType.PROCESSING_ERROR));
    assertThat(kit.followUps(failing)).hasSize(1);
  }

  @Test
  void shouldRunSideEffectsOnlyAfterTheBatchIsCommittedAndInOrder() {
    // given
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    kit.runUntilIdle();
    kit.writeCommand(DepositIntent.DEPOSIT, new DepositValue("a", 5));
    kit.writeCommand(DepositIntent.DEPOSIT, new DepositValue("a", 7));
    kit.logStream().holdCommits();

    // when
    kit.runUntilIdle();

    // then
    assertThat(TestLedger.balances(kit.db())).containsEntry("a", 12L);
    assertThat(sideEffects).isEmpty();

    // and when only the first batch commits, only its side effect runs
    kit.logStream().commitNext();
    kit.runUntilIdle();
    assertThat(sideEffects).containsExactly("deposited a 5");
    kit.logStream().commitAll();
    kit.runUntilIdle();
    assertThat(sideEffects).containsExactly("deposited a 5", "deposited a 7");
  }

  @Test
  void shouldWriteARejectionAndRespondWithIt() {
    // when
    long command = kit.writeCommand(DepositIntent.DEPOSIT, new DepositValue("missing", 5));
    kit.runUntilIdle();

    // then
    List<Record> followUps = kit.followUps(command);
    assertThat(followUps).hasSize(1);
    RecordMetadata rejection = followUps.get(0).metadata();
    assertThat(rejection.recordType()).isEqualTo(RecordType.REJECTION);
    assertThat(rejection.intent()).isEqualTo(DepositIntent.DEPOSIT);
    assertThat(rejection.rejectionType()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(followUps.get(0).value()).isEqualTo(new DepositValue("missing", 5));
    assertThat(kit.responseTo(kit.lastRequestId()))
        .hasValueSatisfying(
            r -> {
              assertThat(r.record().metadata().rejectionType()).isEqualTo(RejectionType.NOT_FOUND);
              assertThat(r.record().position()).isEqualTo(command); // answered at the command
            });
    assertThat(counter("rejected")).isEqualTo(1);
    assertThat(counter("processed")).isZero();
  }

  @Test
  void shouldRejectWithProcessingErrorAndRollBackWhenTheProcessorThrows() {
    // given an account whose deposit processor applies its event, then throws
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("explode", 0));
    kit.runUntilIdle();
    var digestBefore = kit.leader().stateDigest();

    // when
    long failing = kit.writeCommand(DepositIntent.DEPOSIT, new DepositValue("explode", 9));
    long failingRequest = kit.lastRequestId();
    long next = kit.writeCommand(AccountIntent.CREATE, new AccountValue("after", 0));
    kit.runUntilIdle();

    // then the command is rejected, its applied event rolled back, and processing goes on
    assertThat(kit.followUps(failing))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.metadata().recordType()).isEqualTo(RecordType.REJECTION);
              assertThat(r.metadata().rejectionType()).isEqualTo(RejectionType.PROCESSING_ERROR);
              assertThat(r.metadata().rejectionReason()).isEqualTo("boom for explode");
            });
    assertThat(kit.responseTo(failingRequest))
        .hasValueSatisfying(
            r ->
                assertThat(r.record().metadata().rejectionType())
                    .isEqualTo(RejectionType.PROCESSING_ERROR));
    assertThat(TestLedger.balances(kit.db())).containsEntry("explode", 0L).containsKey("after");
    assertThat(kit.followUps(next))
        .extracting(r -> r.metadata().intent())
        .containsExactly(AccountIntent.CREATED);
    assertThat(sideEffects).isEmpty();
    assertThat(kit.processor().health().isHealthy()).isTrue();
    assertThat(kit.leader().stateDigest()).isNotEqualTo(digestBefore); // "after" was created
  }

  @Test
  void shouldRejectACommandWithoutProcessor() {
    // when
    long command = kit.writeCommand(CreditIntent.APPLY, new CreditValue(1, "a", 5, 2, 1));
    kit.runUntilIdle();

    // then
    assertThat(kit.followUps(command))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.metadata().rejectionType()).isEqualTo(RejectionType.PROCESSING_ERROR);
              assertThat(r.metadata().rejectionReason())
                  .isEqualTo(
                      "Expected a processor for CREDIT APPLY, but none is registered (partition 1)");
            });
  }

  @Test
  void shouldFailThePartitionWhenAnApplierThrowsAndProcessNothingMore() {
    // given
    List<PartitionHealth> told = new ArrayList<>();
    kit.processor().addHealthListener(told::add);
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("poison", 0));
    kit.runUntilIdle();
    int recordsBefore = kit.committedRecords().size();

    // when
    kit.writeCommand(DepositIntent.DEPOSIT, new DepositValue("poison", 1));
    long later = kit.writeCommand(AccountIntent.CREATE, new AccountValue("later", 0));
    kit.runUntilIdle();

    // then
    PartitionHealth health = kit.processor().health();
    assertThat(health.status()).isEqualTo(HealthStatus.FAILED);
    assertThat(health.reason())
        .contains("Expected the applier of DEPOSIT DEPOSITED to apply the event")
        .contains("poisoned deposit to poison");
    assertThat(told).containsExactly(health);
    assertThat(kit.processor().phase()).isEqualTo(StreamProcessorPhase.FAILED);
    assertThat(kit.committedRecords()).hasSize(recordsBefore + 2); // only the two commands
    assertThat(kit.followUps(later)).isEmpty();
    assertThat(TestLedger.balances(kit.db())).containsOnlyKeys("poison");
    assertThat(gauge(StreamProcessorMetrics.HEALTH)).isEqualTo(1.0);
  }

  @Test
  void shouldFailThePartitionOnAnUndecodableRecord() {
    // given
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    kit.runUntilIdle();
    long garbage = kit.logStream().lastWrittenPosition() + 1;

    // when
    kit.logStream().appendRawEntry(garbage, garbage, "garbage".getBytes(StandardCharsets.UTF_8));
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("b", 0));
    kit.runUntilIdle();

    // then
    assertThat(kit.processor().health().status()).isEqualTo(HealthStatus.FAILED);
    assertThat(kit.processor().health().reason())
        .contains("positions [" + garbage + ", " + garbage + "]");
    assertThat(TestLedger.balances(kit.db())).containsOnlyKeys("a");
  }

  @Test
  void shouldFailThePartitionWhenAnEventHasNoApplier() {
    // given a processor that appends an event nobody applies
    kit.leader().closeState();
    var replica =
        kit.replica(
            "no-applier",
            (db, builder) ->
                builder.processor(
                    AccountIntent.CREATE,
                    (context, result) ->
                        result.appendEvent(1, AccountIntent.CREATED, context.value())));
    StreamProcessor processor = replica.start(StreamProcessorMode.LEADER);

    // when
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    kit.runUntilIdle();

    // then
    assertThat(processor.health().status()).isEqualTo(HealthStatus.FAILED);
    assertThat(processor.health().reason())
        .startsWith("Expected an event applier for ACCOUNT CREATED, but none is registered");
    assertThat(kit.committedRecords()).hasSize(1);
  }

  @Test
  void shouldCountProcessedRecordsAndSkipItsOwnFollowUps() {
    // when
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    kit.runUntilIdle();

    // then the CREATED event and the rejection were read back and skipped
    assertThat(counter("processed")).isEqualTo(1);
    assertThat(counter("rejected")).isEqualTo(1);
    assertThat(counter("skipped")).isEqualTo(2);
    assertThat(
            kit.leader().registry().get(StreamProcessorMetrics.PROCESSING_LATENCY).timer().count())
        .isEqualTo(2);
  }

  @Test
  void shouldStopWithoutChangingStateWhenTheLogAnswersNotLeader() {
    // given a committed command, and a log that no longer takes writes from this member
    long command = kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    kit.logStream().leader(false);

    // when
    kit.runUntilIdle();

    // then nothing was written, the transaction was rolled back, and processing stopped
    assertThat(kit.processor().phase()).isEqualTo(StreamProcessorPhase.NOT_LEADER);
    assertThat(kit.processor().health().isHealthy()).isTrue();
    assertThat(kit.followUps(command)).isEmpty();
    assertThat(TestLedger.balances(kit.db())).isEmpty();
    assertThat(kit.processor().lastProcessedPosition()).isEqualTo(LogStream.NO_POSITION);
    assertThat(kit.responses()).isEmpty();

    // and it stays stopped when the log takes writes again (a new processor is needed)
    kit.logStream().leader(true);
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("b", 0));
    kit.runUntilIdle();
    assertThat(kit.committedRecords()).hasSize(2);
  }

  @Test
  void shouldNotOutliveTheLeadershipItStartedIn() {
    // given a member that lost its leadership and got it back while the processor ran
    kit.logStream().leader(false);
    kit.logStream().leader(true);

    // when
    long command = kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    kit.runUntilIdle();

    // then the processor refuses to extend its state into the new term
    assertThat(kit.processor().phase()).isEqualTo(StreamProcessorPhase.NOT_LEADER);
    assertThat(kit.followUps(command)).isEmpty();

    // and a processor started in the new term processes the command
    kit.leader().stop();
    kit.startLeader();
    assertThat(kit.followUps(command)).hasSize(1);
  }

  private double counter(String result) {
    return kit.leader()
        .registry()
        .get(StreamProcessorMetrics.RECORDS)
        .tag("result", result)
        .counter()
        .count();
  }

  private double gauge(String name) {
    return kit.leader().registry().get(name).gauge().value();
  }
}
