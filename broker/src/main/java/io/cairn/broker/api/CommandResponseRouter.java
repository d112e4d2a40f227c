package io.cairn.broker.api;

import io.cairn.broker.api.limit.CommandLimiter;
import io.cairn.protocol.Record;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.scheduler.Actor;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.LoggingContext;
import io.cairn.streamprocessor.CommandResponseWriter;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pairs the client commands a broker writes to its partitions' logs with the responses their
 * leaders' stream processors produce (one {@link #writerFor writer} per partition), and answers
 * each command exactly once: with the response, with {@code TIMEOUT} after {@code commandTimeout},
 * or with {@code TIMEOUT} at once when the partition lost the leadership in which the command was
 * written (its outcome is then unknown: the command may still be committed and processed by the
 * next leader, which answers nobody).
 *
 * <p><b>Request ids.</b> Commands carry {@code requestStreamId = nodeId} and a request id from a
 * counter that starts at {@code requestIdBase} (the broker passes its start time in milliseconds
 * shifted left by 20 bits), so a response produced by another node's leader, or by this node for a
 * command written before a restart, never matches a command waiting now: responses with another
 * stream id, an unknown request id or another partition are dropped.
 *
 * <p><b>Bounds.</b> At most {@code maxInFlight} commands wait on the whole broker; {@link
 * #register} returns empty beyond that (the caller answers {@code BACKPRESSURE}). It is a memory
 * bound; the partitions' {@link CommandLimiter}s are what keeps latency in check.
 *
 * <p><b>Command limits.</b> Each command carries the {@link CommandLimiter.Permit} it was admitted
 * with, released when the command is answered, whichever way: a response → {@code answered} (its
 * round trip is a sample); a timeout or a full log ({@code BACKPRESSURE} from the writer) → {@code
 * dropped}; the leadership lost, shutdown, any other refusal → {@code ignored}.
 *
 * <p>Thread-safety: {@link #register}, {@link #cancel} and the writers may be called from any
 * thread; timeouts and leadership checks run on this actor every sweep interval.
 */
public final class CommandResponseRouter extends Actor {

  private static final Logger LOG = LoggerFactory.getLogger(CommandResponseRouter.class);
  private static final Duration SWEEP_INTERVAL_MIN = Duration.ofMillis(10);
  private static final Duration SWEEP_INTERVAL_MAX = Duration.ofMillis(100);

  private final int nodeId;
  private final int maxInFlight;
  private final Duration timeout;
  private final Clock clock;
  private final LeadershipCheck leadership;
  private final BrokerApiMetrics metrics;
  private final ConcurrentHashMap<Long, PendingCommand> pending = new ConcurrentHashMap<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong nextRequestId;
  private final AtomicReference<CompletableFuture<Void>> drained = new AtomicReference<>();
  private volatile boolean refusing;

  /**
   * @param nodeId this broker; the request stream id of its commands
   * @param requestIdBase the first request id (see the class comment)
   * @param maxInFlight the most commands waiting for a response
   * @param timeout how long a command waits for its response
   * @param clock the broker's clock (deadlines)
   * @param leadership tells whether a partition still leads in the term a command was written in
   */
  public CommandResponseRouter(
      int nodeId,
      long requestIdBase,
      int maxInFlight,
      Duration timeout,
      Clock clock,
      LeadershipCheck leadership,
      BrokerApiMetrics metrics) {
    super("command-responses-" + nodeId, LoggingContext.node(nodeId));
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("Expected maxInFlight >= 1, but was " + maxInFlight);
    }
    this.nodeId = nodeId;
    this.maxInFlight = maxInFlight;
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.leadership = Objects.requireNonNull(leadership, "leadership");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.nextRequestId = new AtomicLong(Math.max(0, requestIdBase));
    metrics.inFlight(inFlight::get);
  }

  /** Whether partition {@code partitionId} still leads in {@code term} on this broker. */
  @FunctionalInterface
  public interface LeadershipCheck {
    boolean stillLeads(int partitionId, long term);
  }

  @Override
  protected void onStart() {
    Duration interval = sweepInterval(timeout);
    scheduleAtFixedRate(interval, interval, this::sweep);
  }

  static Duration sweepInterval(Duration timeout) {
    Duration tenth = timeout.dividedBy(10);
    if (tenth.compareTo(SWEEP_INTERVAL_MIN) < 0) {
      return SWEEP_INTERVAL_MIN;
    }
    return tenth.compareTo(SWEEP_INTERVAL_MAX) > 0 ? SWEEP_INTERVAL_MAX : tenth;
  }

  /** The response writer of {@code partitionId}'s stream processors. */
  public CommandResponseWriter writerFor(int partitionId) {
    return (requestStreamId, requestId, response) ->
        onResponse(partitionId, requestStreamId, requestId, response);
  }

  /** The request stream id this broker's commands carry. */
  public int requestStreamId() {
    return nodeId;
  }

  /**
   * From now on {@link #register} refuses every command (the broker shuts down); commands
   * registered before are still answered. Call it before {@link #whenDrained()}: a command either
   * counts for the drain or is refused.
   */
  public void refuseNewCommands() {
    refusing = true;
  }

  /** Whether {@link #refuseNewCommands()} was called. */
  public boolean isRefusingNewCommands() {
    return refusing;
  }

  /**
   * Reserves a slot for a command about to be written to {@code partitionId} while it leads in
   * {@code term}.
   *
   * @return empty when {@code maxInFlight} commands wait already, or after {@link
   *     #refuseNewCommands()}
   */
  public Optional<PendingCommand> register(int partitionId, long term) {
    return register(partitionId, term, CommandLimiter.Permit.UNLIMITED);
  }

  /**
   * {@link #register(int, long)} for a command admitted with {@code permit}, which is released when
   * the command is answered (or at once when it is refused here).
   */
  public Optional<PendingCommand> register(
      int partitionId, long term, CommandLimiter.Permit permit) {
    if (inFlight.incrementAndGet() > maxInFlight || refusing) {
      inFlight.decrementAndGet();
      permit.ignored();
      signalIfDrained();
      return Optional.empty();
    }
    long requestId = nextRequestId.getAndIncrement();
    PendingCommand command =
        new PendingCommand(
            requestId,
            partitionId,
            term,
            clock.millis() + timeout.toMillis(),
            clock.nanos(),
            permit,
            new CompletableFuture<>());
    pending.put(requestId, command);
    return Optional.of(command);
  }

  /**
   * Answers {@code command} with {@code response} unless it was answered already. Its permit is
   * released as answered for {@code OK}, as dropped for {@code BACKPRESSURE} (the log was full),
   * else as ignored.
   */
  public void complete(PendingCommand command, ApiResponse<Record> response) {
    Release release =
        switch (response.status()) {
          case OK -> Release.ANSWERED;
          case BACKPRESSURE -> Release.DROPPED;
          default -> Release.IGNORED;
        };
    complete(command, response, release);
  }

  private void complete(PendingCommand command, ApiResponse<Record> response, Release release) {
    if (pending.remove(command.requestId(), command)) {
      inFlight.decrementAndGet();
      switch (release) {
        case ANSWERED -> command.permit().answered();
        case DROPPED -> command.permit().dropped();
        case IGNORED -> command.permit().ignored();
      }
      metrics.commandDuration(
          response.status(), Duration.ofNanos(Math.max(0, clock.nanos() - command.startNanos())));
      command.future().complete(response);
      signalIfDrained();
    }
  }

  /** Commands waiting for a response now. */
  public int inFlight() {
    return inFlight.get();
  }

  /**
   * Completes once no command waits (at once when none does). Commands registered later delay it.
   */
  public CompletableFuture<Void> whenDrained() {
    CompletableFuture<Void> waiter = new CompletableFuture<>();
    CompletableFuture<Void> current = drained.updateAndGet(f -> f == null ? waiter : f);
    signalIfDrained();
    return current;
  }

  /**
   * Waits up to {@code timeout} for the commands in flight (at shutdown, after {@link
   * #refuseNewCommands()}); logs what it waited for and what was left unanswered.
   */
  public void awaitDrained(Duration timeout) {
    int waiting = inFlight();
    if (waiting == 0) {
      return;
    }
    LOG.info("Node {} waits up to {} for {} in-flight commands", nodeId, timeout, waiting);
    try {
      whenDrained().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      LOG.warn(
          "Node {} shuts down with {} commands unanswered after {}; their clients get TIMEOUT",
          nodeId,
          inFlight(),
          timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      LOG.warn("Waiting for in-flight commands failed on node {}", nodeId, e);
    }
  }

  private void signalIfDrained() {
    if (inFlight.get() == 0) {
      CompletableFuture<Void> waiter = drained.getAndSet(null);
      if (waiter != null) {
        waiter.complete(null);
      }
    }
  }

  private void onResponse(int partitionId, int requestStreamId, long requestId, Record response) {
    if (requestStreamId != nodeId) {
      LOG.debug(
          "Dropped the response to request {} of stream {} on partition {}: another node's",
          requestId,
          requestStreamId,
          partitionId);
      return;
    }
    PendingCommand command = pending.get(requestId);
    if (command == null || command.partitionId() != partitionId) {
      LOG.debug(
          "Dropped the response to request {} on partition {}: nobody waits for it",
          requestId,
          partitionId);
      return;
    }
    complete(command, ApiResponse.ok(response), Release.ANSWERED);
  }

  private void sweep() {
    long now = clock.millis();
    for (PendingCommand command : pending.values()) {
      if (now >= command.deadlineMillis()) {
        complete(
            command,
            ApiResponse.failure(
                ResponseStatus.TIMEOUT,
                "Expected the response of partition "
                    + command.partitionId()
                    + " within "
                    + timeout.toMillis()
                    + "ms, but none came (node "
                    + nodeId
                    + "); the command's outcome is unknown: it may still be processed"),
            Release.DROPPED);
      } else if (!leadership.stillLeads(command.partitionId(), command.term())) {
        complete(
            command,
            ApiResponse.failure(
                ResponseStatus.TIMEOUT,
                "Expected partition "
                    + command.partitionId()
                    + " to answer on node "
                    + nodeId
                    + ", but it lost the leadership of term "
                    + command.term()
                    + " first; the command's outcome is unknown: the next leader may still"
                    + " process it"),
            Release.IGNORED);
      }
    }
  }

  @Override
  protected void onClose() {
    for (PendingCommand command : pending.values()) {
      complete(
          command,
          ApiResponse.failure(
              ResponseStatus.TIMEOUT,
              "Expected a response from partition "
                  + command.partitionId()
                  + ", but node "
                  + nodeId
                  + " shut down first; the command's outcome is unknown"),
          Release.IGNORED);
    }
  }

  /**
   * A command written (or about to be) and not answered yet.
   *
   * @param requestId the request id it carries
   * @param partitionId where it was written
   * @param term the leadership term it was written in
   * @param deadlineMillis when it times out (the broker clock's millis)
   * @param startNanos when it arrived (the broker clock's nanos)
   * @param permit its place in the partition's command limit, released with the answer
   * @param future completed with the answer, exactly once
   */
  public record PendingCommand(
      long requestId,
      int partitionId,
      long term,
      long deadlineMillis,
      long startNanos,
      CommandLimiter.Permit permit,
      CompletableFuture<ApiResponse<Record>> future) {}

  /** How a command's permit is released. */
  private enum Release {
    ANSWERED,
    DROPPED,
    IGNORED
  }
}
