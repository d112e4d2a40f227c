package io.cairn.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.transport.MessagingService.RequestHandler;
import io.cairn.transport.netty.FrameDescriptor;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link MessagingService} implementation must pass. A subclass creates started
 * members that know each other's addresses, gives the executor handlers run on, and says how to
 * wait for a future (real threads: a bounded wait; simulation: run the scheduler until done).
 */
public abstract class MessagingServiceTestKit {

  /** The maxFrameSizeBytes every member created by {@link #createMembers} must use. */
  protected static final int MAX_FRAME_SIZE_BYTES = 64 * 1024;

  /** A timeout no well-behaved request reaches, not even on a slow, loaded machine. */
  protected static final Duration LONG_TIMEOUT = Duration.ofSeconds(30);

  /** The timeout of requests that are meant to time out. */
  protected static final Duration SHORT_TIMEOUT = Duration.ofMillis(200);

  private static final ThreadLocal<Boolean> IN_HANDLER_EXECUTOR =
      ThreadLocal.withInitial(() -> false);

  private final List<MessagingService> created = new ArrayList<>();

  /**
   * Creates {@code count} started members with node ids {@code 0..count-1}, each knowing every
   * member's address, all with maxFrameSizeBytes = {@link #MAX_FRAME_SIZE_BYTES}.
   */
  protected abstract List<MessagingService> createMembers(int count);

  /** The executor the kit registers handlers with (it must not run tasks inline on I/O threads). */
  protected abstract Executor handlerExecutor();

  /**
   * Waits (bounded) for the future and returns its value, or throws the exception it failed with
   * (unwrapped, see {@link #valueOrCause}). Fails the test if it does not complete.
   */
  protected abstract <T> T await(CompletableFuture<T> future);

  /** Runs after the kit closed every member: release what {@link #createMembers} allocated. */
  protected void afterMembersClosed() {}

  /** The value of a completed future, or the exception it failed with, unwrapped. */
  protected static <T> T valueOrCause(CompletableFuture<T> done) {
    try {
      return done.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new AssertionError(
          "Expected a RuntimeException, but the future failed with " + cause, cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("Interrupted while reading a completed future", e);
    }
  }

  @AfterEach
  final void closeMembers() {
    try {
      created.forEach(MessagingService::close);
    } finally {
      created.clear();
      afterMembersClosed();
    }
  }

  private List<MessagingService> members(int count) {
    List<MessagingService> members = createMembers(count);
    created.addAll(members);
    assertThat(members).hasSize(count);
    for (int i = 0; i < count; i++) {
      assertThat(members.get(i).localNodeId()).isEqualTo(i);
    }
    return members;
  }

  /** The handler executor, marking the tasks it runs so handlers can check where they run. */
  private Executor executor() {
    Executor delegate = handlerExecutor();
    return task ->
        delegate.execute(
            () -> {
              IN_HANDLER_EXECUTOR.set(true);
              try {
                task.run();
              } finally {
                IN_HANDLER_EXECUTOR.set(false);
              }
            });
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Test
  void shouldReturnResponseOfRemoteHandler() {
    List<MessagingService> members = members(2);
    members
        .get(1)
        .registerRequestHandler(
            "echo",
            (sender, payload) ->
                CompletableFuture.completedFuture(bytes("from " + sender + ": " + text(payload))),
            executor());

    byte[] response = await(members.get(0).sendAndReceive(1, "echo", bytes("hello"), LONG_TIMEOUT));

    assertThat(text(response)).isEqualTo("from 0: hello");
  }

  @Test
  void shouldDeliverOneWayMessageWithSender() {
    List<MessagingService> members = members(3);
    CompletableFuture<String> received = new CompletableFuture<>();
    members
        .get(1)
        .registerMessageHandler(
            "note",
            (sender, payload) -> received.complete(sender + ":" + text(payload)),
            executor());

    await(members.get(2).send(1, "note", bytes("ping")));

    assertThat(await(received)).isEqualTo("2:ping");
  }

  @Test
  void shouldFailWithNoRemoteHandlerWhenTypeIsNotRegistered() {
    List<MessagingService> members = members(2);
    members.get(1).registerMessageHandler("one-way-only", (sender, payload) -> {}, executor());

    assertThatThrownBy(
            () -> await(members.get(0).sendAndReceive(1, "unknown", bytes("x"), LONG_TIMEOUT)))
        .isInstanceOf(MessagingException.NoRemoteHandler.class)
        .hasMessageContaining("unknown");
    assertThatThrownBy(
            () -> await(members.get(0).sendAndReceive(1, "one-way-only", bytes("x"), LONG_TIMEOUT)))
        .isInstanceOf(MessagingException.NoRemoteHandler.class);
  }

  @Test
  void shouldFailWithRemoteHandlerFailureWhenHandlerThrows() {
    List<MessagingService> members = members(2);
    members
        .get(1)
        .registerRequestHandler(
            "explode",
            (sender, payload) -> {
              throw new IllegalStateException("boom");
            },
            executor());

    assertThatThrownBy(
            () -> await(members.get(0).sendAndReceive(1, "explode", bytes("x"), LONG_TIMEOUT)))
        .isInstanceOf(MessagingException.RemoteHandlerFailure.class)
        .hasMessageContaining("boom");
  }

  @Test
  void shouldFailWithRemoteHandlerFailureWhenHandlerFutureFails() {
    List<MessagingService> members = members(2);
    members
        .get(1)
        .registerRequestHandler(
            "fail",
            (sender, payload) ->
                CompletableFuture.failedFuture(new IllegalArgumentException("bad input")),
            executor());

    assertThatThrownBy(
            () -> await(members.get(0).sendAndReceive(1, "fail", bytes("x"), LONG_TIMEOUT)))
        .isInstanceOf(MessagingException.RemoteHandlerFailure.class)
        .hasMessageContaining("bad input");
  }

  @Test
  void shouldFailWithTimeoutWhenNoResponseArrives() {
    List<MessagingService> members = members(2);
    CompletableFuture<byte[]> never = new CompletableFuture<>();
    members.get(1).registerRequestHandler("silent", (sender, payload) -> never, executor());

    assertThatThrownBy(
            () -> await(members.get(0).sendAndReceive(1, "silent", bytes("x"), SHORT_TIMEOUT)))
        .isInstanceOf(MessagingException.Timeout.class)
        .hasMessageContaining("silent");

    // A response after the timeout is ignored and the members keep working.
    never.complete(bytes("late"));
    members
        .get(1)
        .registerRequestHandler(
            "after", (sender, payload) -> CompletableFuture.completedFuture(payload), executor());
    assertThat(text(await(members.get(0).sendAndReceive(1, "after", bytes("ok"), LONG_TIMEOUT))))
        .isEqualTo("ok");
  }

  @Test
  void shouldRejectMessagesToUnknownMember() {
    List<MessagingService> members = members(2);

    assertThatThrownBy(
            () -> await(members.get(0).sendAndReceive(42, "echo", bytes("x"), LONG_TIMEOUT)))
        .isInstanceOf(MessagingException.Rejected.class)
        .hasMessageContaining("42");
    assertThatThrownBy(() -> await(members.get(0).send(42, "echo", bytes("x"))))
        .isInstanceOf(MessagingException.Rejected.class);
  }

  @Test
  void shouldRejectPayloadOverFrameLimitAndAcceptPayloadAtIt() {
    List<MessagingService> members = members(2);
    AtomicInteger handled = new AtomicInteger();
    members
        .get(1)
        .registerRequestHandler(
            "size",
            (sender, payload) -> {
              handled.incrementAndGet();
              return CompletableFuture.completedFuture(
                  ByteBuffer.allocate(Integer.BYTES).putInt(payload.length).array());
            },
            executor());
    int largestPayload = MAX_FRAME_SIZE_BYTES - FrameDescriptor.HEADER_LENGTH - "size".length();

    assertThatThrownBy(
            () ->
                await(
                    members
                        .get(0)
                        .sendAndReceive(1, "size", new byte[largestPayload + 1], LONG_TIMEOUT)))
        .isInstanceOf(MessagingException.Rejected.class)
        .hasMessageContaining("maxFrameSizeBytes");
    assertThatThrownBy(() -> await(members.get(0).send(1, "size", new byte[largestPayload + 1])))
        .isInstanceOf(MessagingException.Rejected.class);
    byte[] response =
        await(members.get(0).sendAndReceive(1, "size", new byte[largestPayload], LONG_TIMEOUT));

    assertThat(ByteBuffer.wrap(response).getInt()).isEqualTo(largestPayload);
    assertThat(handled).hasValue(1);
  }

  @Test
  void shouldFailWithRemoteHandlerFailureWhenResponseExceedsFrameLimit() {
    List<MessagingService> members = members(2);
    members
        .get(1)
        .registerRequestHandler(
            "huge",
            (sender, payload) -> CompletableFuture.completedFuture(new byte[MAX_FRAME_SIZE_BYTES]),
            executor());

    assertThatThrownBy(
            () -> await(members.get(0).sendAndReceive(1, "huge", bytes("x"), LONG_TIMEOUT)))
        .isInstanceOf(MessagingException.RemoteHandlerFailure.class)
        .hasMessageContaining("maxFrameSizeBytes");
  }

  @Test
  void shouldRunHandlersOnTheirExecutor() {
    List<MessagingService> members = members(2);
    CompletableFuture<Boolean> messageHandlerInExecutor = new CompletableFuture<>();
    members
        .get(1)
        .registerRequestHandler(
            "where",
            (sender, payload) ->
                CompletableFuture.completedFuture(
                    bytes(Boolean.toString(IN_HANDLER_EXECUTOR.get()))),
            executor());
    members
        .get(1)
        .registerMessageHandler(
            "where-message",
            (sender, payload) -> messageHandlerInExecutor.complete(IN_HANDLER_EXECUTOR.get()),
            executor());

    byte[] response = await(members.get(0).sendAndReceive(1, "where", bytes("x"), LONG_TIMEOUT));
    await(members.get(0).send(1, "where-message", bytes("x")));

    assertThat(text(response)).isEqualTo("true");
    assertThat(await(messageHandlerInExecutor)).isTrue();
  }

  @Test
  void shouldAnswerManyConcurrentRequestsCorrectly() {
    List<MessagingService> members = members(3);
    RequestHandler square =
        (sender, payload) -> {
          long value = ByteBuffer.wrap(payload).getLong();
          return CompletableFuture.completedFuture(
              ByteBuffer.allocate(12).putInt(sender).putLong(value * value).array());
        };
    for (MessagingService member : members) {
      member.registerRequestHandler("square", square, executor());
    }
    int requestsPerMember = 200;
    List<CompletableFuture<byte[]>> responses = new ArrayList<>();
    List<long[]> expected = new ArrayList<>();
    for (int i = 0; i < requestsPerMember; i++) {
      for (int from = 0; from < members.size(); from++) {
        int to = (from + 1 + i % 2) % members.size();
        long value = 1_000L * from + i;
        responses.add(
            members
                .get(from)
                .sendAndReceive(
                    to, "square", ByteBuffer.allocate(8).putLong(value).array(), LONG_TIMEOUT));
        expected.add(new long[] {from, value * value});
      }
    }

    for (int i = 0; i < responses.size(); i++) {
      ByteBuffer response = ByteBuffer.wrap(await(responses.get(i)));
      assertThat(response.getInt())
          .as("sender seen by request %d", i)
          .isEqualTo(expected.get(i)[0]);
      assertThat(response.getLong()).as("response to request %d", i).isEqualTo(expected.get(i)[1]);
    }
  }

  @Test
  void shouldFailWithNoRemoteHandlerAfterUnregister() {
    List<MessagingService> members = members(2);
    members
        .get(1)
        .registerRequestHandler(
            "echo", (sender, payload) -> CompletableFuture.completedFuture(payload), executor());
    assertThat(text(await(members.get(0).sendAndReceive(1, "echo", bytes("a"), LONG_TIMEOUT))))
        .isEqualTo("a");

    members.get(1).unregisterHandler("echo");

    assertThatThrownBy(
            () -> await(members.get(0).sendAndReceive(1, "echo", bytes("b"), LONG_TIMEOUT)))
        .isInstanceOf(MessagingException.NoRemoteHandler.class);
  }

  @Test
  void shouldRefuseSecondHandlerForSameType() {
    List<MessagingService> members = members(1);
    members
        .get(0)
        .registerRequestHandler(
            "dup", (sender, payload) -> CompletableFuture.completedFuture(payload), executor());

    assertThatThrownBy(
            () ->
                members
                    .get(0)
                    .registerRequestHandler(
                        "dup",
                        (sender, payload) -> CompletableFuture.completedFuture(payload),
                        executor()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("dup");
    assertThatThrownBy(
            () -> members.get(0).registerMessageHandler("dup", (sender, payload) -> {}, executor()))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void shouldFailPendingRequestsWithUnreachableWhenClosedAndRejectLaterSends() {
    List<MessagingService> members = members(2);
    CompletableFuture<Void> arrived = new CompletableFuture<>();
    members
        .get(1)
        .registerRequestHandler(
            "hold",
            (sender, payload) -> {
              arrived.complete(null);
              return new CompletableFuture<>();
            },
            executor());
    CompletableFuture<byte[]> pending =
        members.get(0).sendAndReceive(1, "hold", bytes("x"), LONG_TIMEOUT);
    await(arrived);

    members.get(0).close();

    assertThatThrownBy(() -> await(pending)).isInstanceOf(MessagingException.Unreachable.class);
    assertThatThrownBy(
            () -> await(members.get(0).sendAndReceive(1, "hold", bytes("x"), LONG_TIMEOUT)))
        .isInstanceOf(MessagingException.Rejected.class);
    assertThatThrownBy(() -> await(members.get(0).send(1, "hold", bytes("x"))))
        .isInstanceOf(MessagingException.Rejected.class);
  }
}
