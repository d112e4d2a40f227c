package io.cairn.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Re-sending of unacknowledged credits on a leader: retry interval, backoff, leader start. */
class CreditRetryTest {

  @TempDir Path directory;
  private LedgerKit ledger;
  private String alice;
  private String carol;

  @BeforeEach
  void setUp() {
    // retry interval 500 ms, doubling up to 4 s, checks every 50 ms
    ledger = new LedgerKit(directory, 3);
    ledger.startLeader();
    alice = ledger.localId("alice");
    carol = ledger.idOn(2, "carol");
    ledger.open(100, alice);
  }

  @AfterEach
  void tearDown() {
    ledger.close();
  }

  @Test
  void shouldResendWithTheCheckpointIdStampedFirst() {
    // given a credit sent with checkpoint id 3
    ledger.checkpointId(3);
    ledger.transfer(alice, carol, 10);
    ledger.runUntilIdle();
    assertThat(ledger.sender().sent()).hasSize(1);

    // when the partition took checkpoint 8 since and the retry interval passed
    ledger.checkpointId(8);
    ledger.run(Duration.ofMillis(600));

    // then
    assertThat(ledger.sender().sent())
        .hasSize(2)
        .allSatisfy(
            s -> {
              assertThat(s.checkpointId()).isEqualTo(3);
              assertThat(s.command().metadata().intent()).isEqualTo(CreditIntent.APPLY);
            });
    assertThat(ledger.sender().sent().get(1).command())
        .isEqualTo(ledger.sender().sent().get(0).command());
  }

  @Test
  void shouldBackOffBetweenResendsUpToTheMaximum() {
    // given
    ledger.transfer(alice, carol, 10);
    ledger.runUntilIdle();

    // when
    List<Long> sendTimes = new ArrayList<>();
    int seen = 0;
    for (int step = 0; step < 1_400; step++) {
      ledger.run(Duration.ofMillis(10));
      if (ledger.sender().sent().size() > seen) {
        seen = ledger.sender().sent().size();
        sendTimes.add(ledger.kit().clock().millis());
      }
    }

    // then: waits of 500, 1000, 2000, 4000, 4000 ms (+ up to one 50 ms check)
    List<Long> waits = new ArrayList<>();
    for (int i = 1; i < sendTimes.size(); i++) {
      waits.add(sendTimes.get(i) - sendTimes.get(i - 1));
    }
    assertThat(waits).hasSizeGreaterThanOrEqualTo(4);
    long[] expected = {500, 1000, 2000, 4000, 4000};
    for (int i = 0; i < Math.min(waits.size(), expected.length); i++) {
      assertThat(waits.get(i)).as("wait %d", i).isBetween(expected[i] - 50, expected[i] + 60);
    }
  }

  @Test
  void shouldStopResendingOnceAcknowledged() {
    // given
    long transfer = ledger.transfer(alice, carol, 10);
    ledger.runUntilIdle();
    long key = LedgerKeys.of(1, transfer);

    // when
    ledger.writeCredit(CreditIntent.ACK, new CreditValue(key, carol, 10, 1, 2), -1);
    ledger.runUntilIdle();
    ledger.run(Duration.ofSeconds(10));

    // then
    assertThat(ledger.sender().sent()).hasSize(1);
    assertThat(ledger.state().pendingCredits()).isEmpty();
  }

  @Test
  void shouldResendEveryPendingCreditWhenANewLeaderStarts() {
    // given two pending credits, sent once each
    ledger.checkpointId(2);
    ledger.transfer(alice, carol, 10);
    ledger.transfer(alice, ledger.idOn(3, "dave"), 20);
    ledger.runUntilIdle();
    ledger.checkpointId(5);
    assertThat(ledger.sender().sent()).hasSize(2);
    List<RecordingInterPartitionSender.Sent> first = List.copyOf(ledger.sender().sent());
    ledger.sender().clear();

    // when a new leader rebuilds the state from the log and starts processing
    ledger.failOver();
    ledger.run(Duration.ofMillis(60));

    // then it sends both at once (well before the retry interval), with their original ids
    assertThat(ledger.sender().sent()).containsExactlyElementsOf(first);
  }

  @Test
  void shouldNotSendACreditWhoseDebitIsNotCommitted() {
    // given a debit written but not committed, unknown to the tracking
    ledger.kit().logStream().holdCommits();
    long transfer = ledger.transfer(alice, carol, 10);
    ledger.kit().logStream().commitUpTo(transfer);
    ledger.runUntilIdle();

    // when several checks pass
    ledger.run(Duration.ofSeconds(2));

    // then
    assertThat(ledger.state().pendingCredits()).hasSize(1);
    assertThat(ledger.sender().sent()).isEmpty();

    // when it commits
    ledger.kit().logStream().releaseCommits();
    ledger.run(Duration.ofMillis(60));

    // then
    assertThat(ledger.sender().sent())
        .isNotEmpty()
        .allSatisfy(
            s -> assertThat(s.command().metadata().key()).isEqualTo(LedgerKeys.of(1, transfer)));
  }

  @Test
  void shouldStopCheckingWhenTheProcessorCloses() {
    // given
    ledger.transfer(alice, carol, 10);
    ledger.runUntilIdle();

    // when
    ledger.kit().leader().stop();
    ledger.run(Duration.ofSeconds(5));

    // then
    assertThat(ledger.sender().sent()).hasSize(1);
    assertThat(ledger.retries().isCancelled()).isTrue();
  }
}
