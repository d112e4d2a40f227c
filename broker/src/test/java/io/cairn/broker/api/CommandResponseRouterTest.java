package io.cairn.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.broker.api.CommandResponseRouter.PendingCommand;
import io.cairn.broker.api.limit.CommandLimitConfig;
import io.cairn.broker.api.limit.CommandLimiter;
import io.cairn.broker.api.limit.LimitAlgorithm;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

final class CommandResponseRouterTest {

  private static final int NODE = 4;
  private static final long BASE = 1L << 40;
  private static final Duration TIMEOUT = Duration.ofSeconds(1);
  private static final Record RESPONSE =
      new Record(
          RecordMetadata.builder().event(DepositIntent.DEPOSITED).position(12).build(),
          new DepositValue("alice", 5));

  private final SimClock clock = new SimClock(1_000);
  private final DeterministicScheduler scheduler = new DeterministicScheduler(clock);
  private final AtomicBoolean leads = new AtomicBoolean(true);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private CommandResponseRouter router;

  @BeforeEach
  void startRouter() {
    router =
        new CommandResponseRouter(
            NODE,
            BASE,
            2,
            TIMEOUT,
            clock,
            (partitionId, term) -> leads.get() && term == 3,
            new BrokerApiMetrics(registry, NODE));
    scheduler.start(router);
    scheduler.runUntilIdle();
  }

  @Test
  void shouldAnswerACommandWithItsResponseExactlyOnce() {
    // given
    PendingCommand command = router.register(1, 3).orElseThrow();
    assertThat(command.requestId()).isEqualTo(BASE);
    assertThat(router.requestStreamId()).isEqualTo(NODE);

    // when the stream processor answers, twice
    router.writerFor(1).sendResponse(NODE, command.requestId(), RESPONSE);
    router.writerFor(1).sendResponse(NODE, command.requestId(), RESPONSE);

    // then
    assertThat(command.future()).isCompletedWithValue(ApiResponse.ok(RESPONSE));
    assertThat(router.inFlight()).isZero();
    assertThat(registry.get(BrokerApiMetrics.COMMAND_DURATION).tag("result", "ok").timer().count())
        .isEqualTo(1);
  }

  @Test
  void shouldDropResponsesOfOtherStreamsOtherPartitionsAndUnknownRequests() {
    // given
    PendingCommand command = router.register(1, 3).orElseThrow();

    // when responses arrive that are not this command's
    router.writerFor(1).sendResponse(NODE + 1, command.requestId(), RESPONSE);
    router.writerFor(2).sendResponse(NODE, command.requestId(), RESPONSE);
    router.writerFor(1).sendResponse(NODE, command.requestId() + 1, RESPONSE);

    // then it still waits
    assertThat(command.future()).isNotDone();
    assertThat(router.inFlight()).isEqualTo(1);
  }

  @Test
  void shouldAnswerTimeoutOnceTheCommandTimeoutPassed() {
    // given
    PendingCommand command = router.register(1, 3).orElseThrow();

    // when / then
    scheduler.runFor(Duration.ofMillis(900));
    assertThat(command.future()).isNotDone();
    scheduler.runFor(Duration.ofMillis(200));
    ApiResponse<Record> answer = command.future().join();
    assertThat(answer.status()).isEqualTo(ResponseStatus.TIMEOUT);
    assertThat(((ApiResponse.Failure<Record>) answer).reason())
        .contains("Expected the response of partition 1 within 1000ms, but none came (node 4)")
        .contains("outcome is unknown");
  }

  @Test
  void shouldAnswerTimeoutAtOnceWhenTheLeadershipOfTheTermEnds() {
    // given
    PendingCommand command = router.register(1, 3).orElseThrow();
    PendingCommand otherTerm = router.register(1, 2).orElseThrow();

    // when the next sweep runs
    scheduler.runFor(CommandResponseRouter.sweepInterval(TIMEOUT));

    // then the command of an ended term is answered, the other waits until leadership ends
    assertThat(otherTerm.future().join().status()).isEqualTo(ResponseStatus.TIMEOUT);
    assertThat(((ApiResponse.Failure<Record>) otherTerm.future().join()).reason())
        .contains("it lost the leadership of term 2 first");
    assertThat(command.future()).isNotDone();
    leads.set(false);
    scheduler.runFor(CommandResponseRouter.sweepInterval(TIMEOUT));
    assertThat(command.future().join().status()).isEqualTo(ResponseStatus.TIMEOUT);
  }

  @Test
  void shouldRefuseMoreThanMaxInFlightCommands() {
    PendingCommand first = router.register(1, 3).orElseThrow();
    router.register(2, 3).orElseThrow();

    assertThat(router.register(1, 3)).isEmpty();
    router.complete(first, ApiResponse.ok(RESPONSE));
    assertThat(router.register(1, 3)).isPresent();
  }

  @Test
  void shouldSignalDrainedOnlyAfterTheLastAnswer() {
    // given
    assertThat(router.whenDrained()).isDone();
    PendingCommand first = router.register(1, 3).orElseThrow();
    PendingCommand second = router.register(1, 3).orElseThrow();

    // when
    CompletableFuture<Void> drained = router.whenDrained();
    router.writerFor(1).sendResponse(NODE, first.requestId(), RESPONSE);

    // then
    assertThat(drained).isNotDone();
    router.writerFor(1).sendResponse(NODE, second.requestId(), RESPONSE);
    assertThat(drained).isDone();
  }

  @Test
  void shouldRefuseNewCommandsOnceToldButDrainTheOthers() {
    PendingCommand waiting = router.register(1, 3).orElseThrow();

    router.refuseNewCommands();
    CompletableFuture<Void> drained = router.whenDrained();

    assertThat(router.register(1, 3)).isEmpty();
    assertThat(router.isRefusingNewCommands()).isTrue();
    assertThat(drained).isNotDone();
    router.writerFor(1).sendResponse(NODE, waiting.requestId(), RESPONSE);
    assertThat(drained).isDone();
  }

  @Test
  void shouldAnswerWaitingCommandsWhenClosed() {
    PendingCommand command = router.register(1, 3).orElseThrow();

    router.closeAsync();
    scheduler.runUntilIdle();

    assertThat(command.future().join().status()).isEqualTo(ResponseStatus.TIMEOUT);
    assertThat(router.inFlight()).isZero();
  }

  @Test
  void shouldReleaseTheCommandLimitOnEveryPathAndSampleOnlyWhatMeasuresLoad() {
    // given a partition limiter whose algorithm records what it is told
    List<String> samples = new ArrayList<>();
    CommandLimiter limiter =
        new CommandLimiter(
            1,
            CommandLimitConfig.defaults(),
            new LimitAlgorithm() {
              @Override
              public int limit() {
                return 100;
              }

              @Override
              public void onSample(long startNanos, long rttNanos, int inFlight, boolean dropped) {
                samples.add(rttNanos / 1_000_000 + "ms" + (dropped ? " dropped" : ""));
              }
            },
            clock);

    // when commands end in every way a command can end (at most 2 wait on this router)
    PendingCommand answered = register(limiter, 3);
    PendingCommand fullLog = register(limiter, 3);
    clock.advance(Duration.ofMillis(20));
    router.writerFor(1).sendResponse(NODE, answered.requestId(), RESPONSE);
    router.complete(fullLog, ApiResponse.failure(ResponseStatus.BACKPRESSURE, "log full"));
    PendingCommand notLeader = register(limiter, 3);
    PendingCommand oldTerm = register(limiter, 2);
    router.complete(notLeader, ApiResponse.failure(ResponseStatus.NOT_LEADER, "deposed"));
    scheduler.runFor(CommandResponseRouter.sweepInterval(TIMEOUT)); // term 2 ended
    PendingCommand timedOut = register(limiter, 3);
    scheduler.runFor(TIMEOUT.plusMillis(200));
    PendingCommand shutDown = register(limiter, 3);
    router.register(1, 3).orElseThrow(); // the broker-wide bound (2) is reached
    CommandLimiter.Permit refusedHere = limiter.tryAcquire().orElseThrow();
    assertThat(router.register(1, 3, refusedHere)).isEmpty();
    router.closeAsync();
    scheduler.runUntilIdle();

    // then every place came back; answers, full logs and timeouts told the algorithm
    assertThat(limiter.inFlight()).isZero();
    assertThat(samples).hasSize(3);
    assertThat(samples.get(0)).isEqualTo("20ms");
    assertThat(samples.get(1)).isEqualTo("20ms dropped");
    assertThat(samples.get(2)).endsWith("dropped"); // the timeout
    for (PendingCommand command :
        List.of(answered, fullLog, notLeader, oldTerm, timedOut, shutDown)) {
      assertThat(command.future()).isDone();
      assertThat(command.permit().isReleased()).isTrue();
    }
    assertThat(refusedHere.isReleased()).isTrue();
  }

  private PendingCommand register(CommandLimiter limiter, long term) {
    return router.register(1, term, limiter.tryAcquire().orElseThrow()).orElseThrow();
  }
}
