package io.cairn.streamprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.cairn.db.CairnDb;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.RecordType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ProcessingResultBuilder#failPartition}: a processor or an interceptor halts the partition
 * explicitly.
 *
 * <p>The setup: the test ledger, plus a processor for {@code CREDIT APPLY} that deposits the credit
 * (event applied, response and side effect added) and then halts the partition; with an amount of
 * 13 it also throws after halting. An interceptor halts on credits to accounts whose id starts with
 * {@code intercept}, and a second interceptor records every command it sees.
 */
final class StreamProcessorFailPartitionTest {

  private static final long THROW_AFTER_HALT = 13;

  @TempDir Path directory;
  private final List<String> sideEffects = new ArrayList<>();
  private final List<Long> creditsProcessed = new ArrayList<>();
  private final List<Long> seenBySecondInterceptor = new ArrayList<>();
  private final List<PartitionHealth> told = new ArrayList<>();
  private StreamProcessorTestKit kit;

  @BeforeEach
  void startLeader() {
    kit =
        StreamProcessorTestKit.builder()
            .directory(directory)
            .families(TestLedger.FAMILIES)
            .processors(this::register)
            .build();
    kit.startLeader();
    kit.processor().addHealthListener(told::add);
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
    kit.writeCommand(DepositIntent.DEPOSIT, new DepositValue("a", 10));
    kit.runUntilIdle();
  }

  @AfterEach
  void close() {
    kit.close();
  }

  @Test
  void shouldFailThePartitionWithTheProcessorsReasonAndRollBackItsCommand() {
    // given
    int recordsBefore = kit.committedRecords().size();
    long processedBefore = kit.processor().lastProcessedPosition();
    var digestBefore = kit.leader().stateDigest();

    // when
    long credit = kit.writeCommand(CreditIntent.APPLY, new CreditValue(7, "a", 5, 2, 1));
    long creditRequest = kit.lastRequestId();
    long later = kit.writeCommand(AccountIntent.CREATE, new AccountValue("later", 0));
    kit.runUntilIdle();

    // then the partition failed with exactly the processor's reason, once
    PartitionHealth health = kit.processor().health();
    assertThat(health.status()).isEqualTo(HealthStatus.FAILED);
    assertThat(health.reason()).isEqualTo("halted the credit of transfer 7");
    assertThat(told).containsExactly(health);
    assertThat(kit.processor().phase()).isEqualTo(StreamProcessorPhase.FAILED);
    assertThat(kit.leader().registry().get(StreamProcessorMetrics.HEALTH).gauge().value())
        .isEqualTo(1.0);
    assertThat(creditsProcessed).containsExactly(credit);

    // and the command's transaction was rolled back: the applied deposit is gone, the command is
    // not marked processed, nothing was written, answered or run
    assertThat(TestLedger.balances(kit.db())).containsOnly(entry("a", 10L));
    assertThat(kit.leader().stateDigest()).isEqualTo(digestBefore);
    assertThat(kit.processor().lastProcessedPosition()).isEqualTo(processedBefore);
    assertThat(kit.followUps(credit)).isEmpty();
    assertThat(kit.responseTo(creditRequest)).isEmpty();
    assertThat(sideEffects).containsExactly("deposited a 10");

    // and nothing after it was processed
    assertThat(kit.followUps(later)).isEmpty();
    assertThat(kit.committedRecords()).hasSize(recordsBefore + 2); // the two commands only
  }

  @Test
  void shouldHaltInsteadOfRejectingWhenTheProcessorThrowsAfterFailingThePartition() {
    // when
    long credit =
        kit.writeCommand(CreditIntent.APPLY, new CreditValue(8, "a", THROW_AFTER_HALT, 2, 1));
    kit.runUntilIdle();

    // then the halt wins over the exception: no PROCESSING_ERROR rejection
    assertThat(kit.processor().health().status()).isEqualTo(HealthStatus.FAILED);
    assertThat(kit.processor().health().reason()).isEqualTo("halted the credit of transfer 8");
    assertThat(kit.followUps(credit)).isEmpty();
    assertThat(kit.committedRecords(RecordType.REJECTION)).isEmpty();
    assertThat(TestLedger.balances(kit.db())).containsEntry("a", 10L);
  }

  @Test
  void shouldLetAnInterceptorHaltThePartitionBeforeAnyOtherHandlerRuns() {
    // given
    int recordsBefore = kit.committedRecords().size();
    seenBySecondInterceptor.clear();

    // when
    long credit = kit.writeCommand(CreditIntent.APPLY, new CreditValue(9, "intercepted", 5, 2, 1));
    kit.writeCommand(AccountIntent.CREATE, new AccountValue("later", 0));
    kit.runUntilIdle();

    // then
    assertThat(kit.processor().health().status()).isEqualTo(HealthStatus.FAILED);
    assertThat(kit.processor().health().reason())
        .isEqualTo("interceptor halted at position " + credit);
    assertThat(told).hasSize(1);
    assertThat(seenBySecondInterceptor).isEmpty(); // neither the next interceptor ...
    assertThat(creditsProcessed).isEmpty(); // ... nor the processor ran
    assertThat(kit.committedRecords()).hasSize(recordsBefore + 2);
    assertThat(TestLedger.balances(kit.db())).containsOnlyKeys("a");
  }

  @Test
  void shouldHaltAgainAtTheSameCommandAfterARestartInsteadOfSkippingIt() {
    // given a partition halted at a credit
    long credit = kit.writeCommand(CreditIntent.APPLY, new CreditValue(7, "a", 5, 2, 1));
    kit.runUntilIdle();
    assertThat(kit.processor().health().status()).isEqualTo(HealthStatus.FAILED);
    creditsProcessed.clear();

    // when the member restarts as leader
    StreamProcessor restarted = kit.leader().restart(StreamProcessorMode.LEADER);

    // then the same command is processed again and halts again
    assertThat(creditsProcessed).containsExactly(credit);
    assertThat(restarted.health().status()).isEqualTo(HealthStatus.FAILED);
    assertThat(restarted.health().reason()).isEqualTo("halted the credit of transfer 7");
    assertThat(kit.followUps(credit)).isEmpty();
    assertThat(TestLedger.balances(kit.db())).containsEntry("a", 10L);
  }

  private void register(CairnDb db, RecordProcessors.Builder builder) {
    TestLedger.register(db, builder, sideEffects);
    builder
        .interceptor(
            (context, result) -> {
              if (context.value() instanceof CreditValue credit
                  && credit.toAccountId().startsWith("intercept")) {
                result.failPartition("interceptor halted at position " + context.position());
              }
              return CommandInterceptor.Decision.CONTINUE;
            })
        .interceptor(
            (context, result) -> {
              seenBySecondInterceptor.add(context.position());
              return CommandInterceptor.Decision.CONTINUE;
            })
        .processor(
            CreditIntent.APPLY,
            (context, result) -> {
              creditsProcessed.add(context.position());
              CreditValue credit = (CreditValue) context.value();
              result.appendEventAndRespond(
                  context.position(),
                  DepositIntent.DEPOSITED,
                  new DepositValue(credit.toAccountId(), credit.amount()));
              result.appendSideEffect(() -> sideEffects.add("credited " + credit.toAccountId()));
              result.failPartition(
                  "halted the credit of transfer " + credit.transferKey(),
                  new IllegalStateException("the cause"));
              if (credit.amount() == THROW_AFTER_HALT) {
                throw new IllegalStateException("thrown after the halt");
              }
            });
  }
}
