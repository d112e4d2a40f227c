package io.cairn.transport.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.cairn.transport.MessagingException;
import io.cairn.transport.MessagingService;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Faults and determinism of the simulated network. */
class SimNetworkTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(1);

  private final DeterministicScheduler scheduler = new DeterministicScheduler(new SimClock(0));
  private final SimNetwork network = new SimNetwork(scheduler, 42L);

  @AfterEach
  void closeScheduler() {
    scheduler.close();
  }

  @Test
  void shouldProduceSameDeliveriesAndOutcomesForSameSeed() {
    List<String> first = runFaultyScenario(1234L);
    List<String> second = runFaultyScenario(1234L);

    assertThat(first).hasSizeGreaterThan(100);
    assertThat(second).isEqualTo(first);
  }

  @Test
  void shouldProduceDifferentDeliveriesForDifferentSeeds() {
    assertThat(runFaultyScenario(1L)).isNotEqualTo(runFaultyScenario(2L));
  }

  @Test
  void shouldReorderFramesThroughRandomDelays() {
    network.delay(Duration.ofMillis(1), Duration.ofMillis(50));
    SimMessagingService sender = network.endpoint(0);
    SimMessagingService receiver = network.endpoint(1);
    List<Integer> received = new ArrayList<>();
    receiver.registerMessageHandler(
        "seq",
        (from, payload) -> received.add(ByteBuffer.wrap(payload).getInt()),
        scheduler.executor());

    for (int i = 0; i < 100; i++) {
      sender.send(1, "seq", ByteBuffer.allocate(4).putInt(i).array());
    }
    scheduler.runFor(Duration.ofSeconds(1));

    List<Integer> sent = IntStream.range(0, 100).boxed().toList();
    assertThat(received).containsExactlyInAnyOrderElementsOf(sent);
    assertThat(received).isNotEqualTo(sent);
  }

  @Test
  void shouldTimeOutAcrossPartitionAndDeliverAfterHeal() {
    List<SimMessagingService> members = echoMembers(3);
    AtomicInteger notes = new AtomicInteger();
    members
        .get(1)
        .registerMessageHandler(
            "note", (from, payload) -> notes.incrementAndGet(), scheduler.executor());
    members.get(0).send(1, "note", bytes("in flight"));

    network.partition(0, 1);

    assertThat(network.isConnected(0, 1)).isFalse();
    assertThat(network.isConnected(1, 0)).isFalse();
    assertThat(network.isConnected(0, 2)).isTrue();
    assertThatThrownBy(() -> run(members.get(0).sendAndReceive(1, "echo", bytes("a"), TIMEOUT)))
        .isInstanceOf(MessagingException.Timeout.class);
    assertThatThrownBy(() -> run(members.get(1).sendAndReceive(0, "echo", bytes("a"), TIMEOUT)))
        .isInstanceOf(MessagingException.Timeout.class);
    assertThat(text(run(members.get(0).sendAndReceive(2, "echo", bytes("b"), TIMEOUT))))
        .isEqualTo("b");
    run(members.get(0).send(1, "note", bytes("cut")));
    scheduler.runFor(Duration.ofSeconds(1));
    assertThat(notes).as("messages sent before or during the partition").hasValue(0);

    network.heal();

    assertThat(text(run(members.get(0).sendAndReceive(1, "echo", bytes("c"), TIMEOUT))))
        .isEqualTo("c");
    members.get(0).send(1, "note", bytes("healed"));
    scheduler.runFor(Duration.ofSeconds(1));
    assertThat(notes).hasValue(1);
  }

  @Test
  void shouldCutEveryLinkOfIsolatedNodeUntilHeal() {
    List<SimMessagingService> members = echoMembers(3);

    network.isolate(2);

    assertThatThrownBy(() -> run(members.get(0).sendAndReceive(2, "echo", bytes("a"), TIMEOUT)))
        .isInstanceOf(MessagingException.Timeout.class);
    assertThatThrownBy(() -> run(members.get(2).sendAndReceive(1, "echo", bytes("a"), TIMEOUT)))
        .isInstanceOf(MessagingException.Timeout.class);
    assertThat(text(run(members.get(0).sendAndReceive(1, "echo", bytes("b"), TIMEOUT))))
        .isEqualTo("b");
    assertThat(text(run(members.get(2).sendAndReceive(2, "echo", bytes("self"), TIMEOUT))))
        .isEqualTo("self");

    network.heal();

    assertThat(text(run(members.get(0).sendAndReceive(2, "echo", bytes("c"), TIMEOUT))))
        .isEqualTo("c");
  }

  @Test
  void shouldLoseFramesToCrashedNodeAndServeAgainAfterRestart() {
    List<SimMessagingService> members = echoMembers(3);
    CompletableFuture<byte[]> hold = new CompletableFuture<>();
    AtomicInteger held = new AtomicInteger();
    members
        .get(2)
        .registerRequestHandler(
            "hold",
            (from, payload) -> {
              held.incrementAndGet();
              return hold;
            },
            scheduler.executor());
    CompletableFuture<byte[]> pendingOfCrashed =
        members.get(1).sendAndReceive(2, "hold", bytes("x"), Duration.ofMinutes(1));
    CompletableFuture<byte[]> holdOnCrashed = new CompletableFuture<>();
    members
        .get(1)
        .registerRequestHandler(
            "hold",
            (from, payload) -> {
              held.incrementAndGet();
              return holdOnCrashed;
            },
            scheduler.executor());
    CompletableFuture<byte[]> toCrashed =
        members.get(0).sendAndReceive(1, "hold", bytes("x"), TIMEOUT);
    scheduler.runFor(Duration.ofMillis(10));
    assertThat(held).hasValue(2);

    network.crash(1);

    assertThat(pendingOfCrashed).isCompletedExceptionally();
    assertThatThrownBy(() -> run(pendingOfCrashed))
        .isInstanceOf(MessagingException.Unreachable.class);
    hold.complete(bytes("answer to a crashed node"));
    holdOnCrashed.complete(bytes("answer of a crashed node"));
    assertThatThrownBy(() -> run(toCrashed)).isInstanceOf(MessagingException.Timeout.class);
    assertThatThrownBy(() -> run(members.get(1).sendAndReceive(0, "echo", bytes("a"), TIMEOUT)))
        .isInstanceOf(MessagingException.Rejected.class);
    CompletableFuture<byte[]> lostInFlight =
        members.get(0).sendAndReceive(1, "echo", bytes("lost"), TIMEOUT);

    SimMessagingService restarted = network.restart(1);

    assertThat(network.endpoint(1)).isSameAs(restarted);
    assertThat(members.get(1).isOpen()).isFalse();
    assertThatThrownBy(() -> run(lostInFlight)).isInstanceOf(MessagingException.Timeout.class);
    assertThatThrownBy(() -> run(members.get(0).sendAndReceive(1, "echo", bytes("b"), TIMEOUT)))
        .isInstanceOf(MessagingException.NoRemoteHandler.class);
    restarted.registerRequestHandler(
        "echo",
        (from, payload) -> CompletableFuture.completedFuture(payload),
        scheduler.executor());
    assertThat(text(run(members.get(0).sendAndReceive(1, "echo", bytes("c"), TIMEOUT))))
        .isEqualTo("c");
  }

  @Test
  void shouldDeliverDuplicatesButCompleteRequestOnce() {
    network.duplicateProbability(1.0);
    SimMessagingService sender = network.endpoint(0);
    SimMessagingService receiver = network.endpoint(1);
    AtomicInteger requestsHandled = new AtomicInteger();
    AtomicInteger messagesHandled = new AtomicInteger();
    receiver.registerRequestHandler(
        "count",
        (from, payload) ->
            CompletableFuture.completedFuture(bytes("call " + requestsHandled.incrementAndGet())),
        scheduler.executor());
    receiver.registerMessageHandler(
        "note", (from, payload) -> messagesHandled.incrementAndGet(), scheduler.executor());

    CompletableFuture<byte[]> response = sender.sendAndReceive(1, "count", bytes("x"), TIMEOUT);
    sender.send(1, "note", bytes("y"));
    scheduler.runFor(Duration.ofSeconds(1));

    assertThat(text(response.join())).isEqualTo("call 1");
    assertThat(requestsHandled).hasValue(2);
    assertThat(messagesHandled).hasValue(2);
    assertThat(network.duplicatedCount()).isEqualTo(network.sentCount());
    assertThat(sender.pendingRequestCount()).isZero();
  }

  @Test
  void shouldDropEverythingWithDropProbabilityOne() {
    network.dropProbability(1.0);
    List<SimMessagingService> members = echoMembers(2);

    assertThatThrownBy(() -> run(members.get(0).sendAndReceive(1, "echo", bytes("a"), TIMEOUT)))
        .isInstanceOf(MessagingException.Timeout.class);
    assertThat(network.deliveredCount()).isZero();
    assertThat(network.droppedCount()).isEqualTo(1);
  }

  @Test
  void shouldTimeOutOnSimulatedClockExactly() {
    SimMessagingService sender = network.endpoint(0);
    network
        .endpoint(1)
        .registerRequestHandler(
            "silent", (from, payload) -> new CompletableFuture<>(), scheduler.executor());
    AtomicLong failedAtMillis = new AtomicLong(-1);
    long startMillis = scheduler.clock().millis();

    CompletableFuture<byte[]> response =
        sender.sendAndReceive(1, "silent", bytes("x"), Duration.ofSeconds(5));
    response.whenComplete((value, failure) -> failedAtMillis.set(scheduler.clock().millis()));
    scheduler.runFor(Duration.ofSeconds(4));
    assertThat(response).isNotDone();
    scheduler.runFor(Duration.ofSeconds(2));

    assertThatThrownBy(response::join).hasCauseInstanceOf(MessagingException.Timeout.class);
    assertThat(failedAtMillis).hasValue(startMillis + 5_000);
  }

  @Test
  void shouldCopyPayloadsLikeAWire() {
    List<SimMessagingService> members = echoMembers(2);
    byte[] payload = bytes("original");

    CompletableFuture<byte[]> response = members.get(0).sendAndReceive(1, "echo", payload, TIMEOUT);
    payload[0] = 'X';

    assertThat(text(run(response))).isEqualTo("original");
  }

  @Test
  void shouldAnswerOrTimeOutEveryRequestUnderRandomFaults() {
    for (long seed = 0; seed < 20; seed++) {
      DeterministicScheduler runScheduler = new DeterministicScheduler(new SimClock(0));
      Random random = new Random(seed);
      SimNetwork faulty =
          new SimNetwork(runScheduler, seed)
              .delay(Duration.ofMillis(1), Duration.ofMillis(30))
              .dropProbability(random.nextDouble() * 0.5)
              .duplicateProbability(random.nextDouble() * 0.5);
      List<SimMessagingService> members = new ArrayList<>();
      for (int nodeId = 0; nodeId < 3; nodeId++) {
        SimMessagingService member = faulty.endpoint(nodeId);
        int self = nodeId;
        member.registerRequestHandler(
            "who",
            (from, payload) ->
                CompletableFuture.completedFuture(bytes(self + "<-" + from + ":" + text(payload))),
            runScheduler.executor());
        members.add(member);
      }
      List<CompletableFuture<byte[]>> responses = new ArrayList<>();
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        int from = random.nextInt(3);
        int to = random.nextInt(3);
        responses.add(members.get(from).sendAndReceive(to, "who", bytes("r" + i), TIMEOUT));
        expected.add(to + "<-" + from + ":r" + i);
        if (random.nextInt(4) == 0) {
          runScheduler.runFor(Duration.ofMillis(random.nextInt(20)));
        }
      }
      runScheduler.runFor(TIMEOUT.plusSeconds(1));

      for (int i = 0; i < responses.size(); i++) {
        CompletableFuture<byte[]> response = responses.get(i);
        assertThat(response).as("seed %d, request %d completed", seed, i).isDone();
        if (response.isCompletedExceptionally()) {
          assertThatThrownBy(response::join)
              .as("seed %d, request %d", seed, i)
              .hasCauseInstanceOf(MessagingException.Timeout.class);
        } else {
          assertThat(text(response.join()))
              .as("seed %d, request %d", seed, i)
              .isEqualTo(expected.get(i));
        }
      }
      runScheduler.close();
    }
  }

  /** Three members exchanging requests and messages with drops, duplicates and jitter. */
  private static List<String> runFaultyScenario(long seed) {
    DeterministicScheduler runScheduler = new DeterministicScheduler(new SimClock(0));
    SimNetwork faulty =
        new SimNetwork(runScheduler, seed)
            .delay(Duration.ofMillis(1), Duration.ofMillis(20))
            .dropProbability(0.2)
            .duplicateProbability(0.2);
    List<String> trace = new ArrayList<>();
    faulty.onDelivery(delivery -> trace.add(delivery.toString()));
    List<MessagingService> members = new ArrayList<>();
    for (int nodeId = 0; nodeId < 3; nodeId++) {
      SimMessagingService member = faulty.endpoint(nodeId);
      member.registerRequestHandler(
          "echo",
          (from, payload) -> CompletableFuture.completedFuture(payload),
          runScheduler.executor());
      member.registerMessageHandler(
          "note",
          (from, payload) ->
              trace.add("note " + from + "->" + member.localNodeId() + " " + text(payload)),
          runScheduler.executor());
      members.add(member);
    }
    for (int i = 0; i < 60; i++) {
      int from = i % 3;
      int to = (i / 3) % 3;
      String label = "r" + i;
      members
          .get(from)
          .sendAndReceive(to, "echo", bytes(label), TIMEOUT)
          .whenComplete(
              (value, failure) ->
                  trace.add(
                      label
                          + " at "
                          + runScheduler.clock().nanos()
                          + ": "
                          + (failure == null ? text(value) : failure.getClass().getSimpleName())));
      members.get(to).send(from, "note", bytes("n" + i));
      runScheduler.runFor(Duration.ofMillis(3));
    }
    runScheduler.runFor(Duration.ofSeconds(2));
    trace.add(faulty.toString());
    runScheduler.close();
    return trace;
  }

  private List<SimMessagingService> echoMembers(int count) {
    List<SimMessagingService> members = new ArrayList<>();
    for (int nodeId = 0; nodeId < count; nodeId++) {
      SimMessagingService member = network.endpoint(nodeId);
      member.registerRequestHandler(
          "echo",
          (from, payload) -> CompletableFuture.completedFuture(payload),
          scheduler.executor());
      members.add(member);
    }
    return members;
  }

  private <T> T run(CompletableFuture<T> future) {
    return SimTesting.runUntilDone(scheduler, future, 100_000, "seed " + network.seed());
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
