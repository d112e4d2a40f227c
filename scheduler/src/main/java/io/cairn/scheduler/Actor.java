package io.cairn.scheduler;

import io.cairn.scheduler.ActorLifecycle.Phase;
import io.cairn.scheduler.ActorLifecycle.State;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-threaded unit of work with a mailbox. Subclass it; every method marked "actor thread"
 * runs there, one at a time, so an actor's own fields need no locks.
 *
 * <p>Life cycle: {@code NEW → STARTED → CLOSING → CLOSED}.
 *
 * <ul>
 *   <li>{@code NEW}: tasks may be submitted; they wait. {@link ActorScheduler#start(Actor)} moves
 *       the actor to {@code STARTED}; {@link #onStart()} then runs before any task.
 *   <li>{@code STARTED}: tasks run in mailbox order; timers fire into the actor thread.
 *   <li>{@link #closeAsync()} moves it to {@code CLOSING}: no new tasks are taken, pending timers
 *       are cancelled, tasks already accepted still run, then {@link #onClose()} runs and the actor
 *       is {@code CLOSED}. Closing a {@code NEW} actor closes it at once: queued tasks fail, {@code
 *       onStart}/{@code onClose} never run.
 * </ul>
 *
 * <p>Inside, those phases are split into finer states, changed in one place: {@link ActorLifecycle}
 * has them and their table. The armed timers are {@link ActorTimers}', the guard around each task
 * (failures, interrupts, task metrics) is {@link ActorBoundary}.
 *
 * <p>Failures: a task that throws is logged at WARN with the actor's name, its future (if any)
 * completes exceptionally with that exception, and the actor goes on. A fixed-rate timer whose task
 * throws keeps firing. If {@code onStart} throws, the start future fails, tasks queued so far fail
 * with {@link IllegalStateException}, and the actor closes ({@code onClose} still runs, to release
 * what {@code onStart} acquired). An interrupt that a task, {@code onStart}, {@code onClose} or a
 * future's dependent leaves on the thread is cleared (with a WARN) before anything else runs there.
 *
 * <p>Mailbox: unbounded unless a capacity is given. Unbounded is the default because the mailbox
 * also carries replies and timer firings between actors: blocking a full sender would deadlock two
 * actors waiting on each other, and dropping would lose replies. Bounds belong at the edges
 * (transport, the stream processor's backpressure), which can reject work as a value; they watch
 * {@link #queueDepth()}. With a capacity, {@link #submit}/{@link #call} beyond it fail their future
 * with {@link RejectedExecutionException}; timer firings are never refused.
 *
 * <p>Logging context: an actor may be given a fixed map of SLF4J MDC entries (usually {@link
 * LoggingContext#partition(int, int)}). Whenever a scheduler runs the actor on a thread — a turn of
 * tasks, {@code onStart}, {@code onClose}, a timer firing — those entries are in the MDC, so every
 * line logged meanwhile says where it comes from; this includes what runs inline there (a task's
 * future's dependents, code of other modules the actor calls). Afterwards each of those keys is
 * restored to what the thread had before (removed if it had none); other keys are not touched, and
 * what the actor's code puts into the MDC itself is its own to undo. Work the actor hands to other
 * threads (executors, other actors) does not carry the context. Without a context the MDC is left
 * alone.
 */
public abstract class Actor {

  private static final Logger LOG = LoggerFactory.getLogger(Actor.class);

  private final String name;
  private final Object lock = new Object();
  private final Mailbox mailbox;
  private final ActorTimers timers = new ActorTimers(this);
  private final CompletableFuture<Void> startFuture = new CompletableFuture<>();
  private final CompletableFuture<Void> closeFuture = new CompletableFuture<>();
  private final Executor executor = this::execute;
  private final ActorLoggingContext loggingContext;
  private final ActorBoundary boundary;

  /** Set by {@link ThreadPoolActorScheduler} while the actor is queued or running on a worker. */
  final AtomicBoolean dispatched = new AtomicBoolean();

  // Moves under lock, read anywhere.
  private final ActorLifecycle lifecycle;
  private volatile ActorHost host;

  /**
   * An actor with an unbounded mailbox.
   *
   * @param name shown in logs and thread dumps; not used as a metric tag
   */
  protected Actor(String name) {
    this(name, Integer.MAX_VALUE, Map.of());
  }

  /**
   * An actor with an unbounded mailbox that runs with {@code loggingContext} in the MDC (see the
   * class doc).
   *
   * @param name shown in logs and thread dumps; not used as a metric tag
   * @param loggingContext MDC entries, copied; keys non-blank, values non-null (see {@link
   *     LoggingContext} for the well-known keys)
   */
  protected Actor(String name, Map<String, String> loggingContext) {
    this(name, Integer.MAX_VALUE, loggingContext);
  }

  /**
   * An actor whose mailbox holds at most {@code mailboxCapacity} tasks.
   *
   * @param name shown in logs and thread dumps; not used as a metric tag
   * @param mailboxCapacity at least 1
   */
  protected Actor(String name, int mailboxCapacity) {
    this(name, mailboxCapacity, Map.of());
  }

  /**
   * An actor whose mailbox holds at most {@code mailboxCapacity} tasks and that runs with {@code
   * loggingContext} in the MDC (see the class doc).
   *
   * @param name shown in logs and thread dumps; not used as a metric tag
   * @param mailboxCapacity at least 1
   * @param loggingContext MDC entries, copied; keys non-blank, values non-null (see {@link
   *     LoggingContext} for the well-known keys)
   */
  protected Actor(String name, int mailboxCapacity, Map<String, String> loggingContext) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          "Expected a non-blank actor name, but was '" + name + "' (Actor)");
    }
    if (mailboxCapacity < 1) {
      throw new IllegalArgumentException(
          "Expected mailboxCapacity >= 1, but was " + mailboxCapacity + " (actor " + name + ")");
    }
    this.name = name;
    this.mailbox = new Mailbox(mailboxCapacity);
    this.loggingContext = new ActorLoggingContext(loggingContext, name);
    this.lifecycle = new ActorLifecycle(name, lock);
    this.boundary = new ActorBoundary(name);
  }

  /** The actor's name. */
  public final String name() {
    return name;
  }

  /** The MDC entries this actor runs with (see the class doc); empty if none. */
  public final Map<String, String> loggingContext() {
    return loggingContext.entries();
  }

  /** Actor thread, once, before any task. A throw closes the actor (see the class doc). */
  protected void onStart() {}

  /** Actor thread, once, after the last task; also runs when {@link #onStart()} threw. */
  protected void onClose() {}

  /**
   * Runs {@code task} on the actor thread. The future completes there, normally or with what the
   * task threw; it fails with {@link IllegalStateException} if the actor is closing or closed.
   */
  public final CompletableFuture<Void> submit(Runnable task) {
    return call(
        () -> {
          task.run();
          return null;
        });
  }

  /**
   * Runs {@code task} on the actor thread; the future completes there with its result or with what
   * it threw. It fails with {@link IllegalStateException} if the actor is closing or closed.
   */
  @SuppressWarnings("unchecked")
  public final <T> CompletableFuture<T> call(Callable<T> task) {
    CompletableFuture<T> future = new CompletableFuture<>();
    try {
      enqueue(MailboxTask.of(task, (CompletableFuture<Object>) future));
    } catch (ClosedException e) {
      future.completeExceptionally(new IllegalStateException(e.getMessage()));
    } catch (RejectedExecutionException e) {
      future.completeExceptionally(e);
    }
    return future;
  }

  /**
   * Runs {@code task} on the actor thread once {@code delay} has passed on the scheduler's clock.
   * Returns an already-cancelled handle if the actor is closing or closed.
   *
   * @throws IllegalArgumentException if {@code delay} is negative
   * @throws IllegalStateException if the actor was not started yet
   */
  public final Cancellable schedule(Duration delay, Runnable task) {
    return addTimer(timers.delayNanos(delay, "delay"), 0, task);
  }

  /**
   * Runs {@code task} on the actor thread after {@code initialDelay}, then every {@code period}
   * (measured from the previous due time, so the rate does not drift). A run that comes later than
   * a whole period skips the missed periods instead of running them back to back. The next run is
   * armed after the task ran, so runs never pile up in the mailbox; a task that throws keeps its
   * timer. Returns an already-cancelled handle if the actor is closing or closed.
   *
   * @throws IllegalArgumentException if {@code initialDelay} is negative or {@code period} not
   *     positive
   * @throws IllegalStateException if the actor was not started yet
   */
  public final Cancellable scheduleAtFixedRate(
      Duration initialDelay, Duration period, Runnable task) {
    long periodNanos = timers.periodNanos(period);
    return addTimer(timers.delayNanos(initialDelay, "initialDelay"), periodNanos, task);
  }

  /**
   * An executor that puts Runnables into this actor's mailbox. {@code execute} throws {@link
   * RejectedExecutionException} when the actor is closing or closed, or its mailbox full. A
   * Runnable that throws is logged at WARN like any task.
   */
  public final Executor executor() {
    return executor;
  }

  /**
   * The clock of the scheduler this actor was started on.
   *
   * @throws IllegalStateException if the actor was not started yet
   */
  protected final Clock clock() {
    ActorHost h = host;
    if (h == null) {
      throw new IllegalStateException(
          "Expected a started actor, but " + name + " was not started yet");
    }
    return h.clock();
  }

  /**
   * Stops taking tasks, cancels pending timers, lets the accepted tasks run, runs {@link
   * #onClose()} and completes the future on the actor thread (exceptionally if {@code onClose}
   * threw). Idempotent: every call returns the same future.
   */
  public final CompletableFuture<Void> closeAsync() {
    List<MailboxTask> abandoned = null;
    ActorHost signalHost = null;
    synchronized (lock) {
      switch (lifecycle.state()) {
        case NEW -> {
          lifecycle.transition(State.CLOSED, "closed before it was started");
          abandoned = mailbox.drain();
        }
        case STARTING -> {
          lifecycle.transition(State.STARTING_THEN_CLOSING, "closed before onStart ran");
          signalHost = host;
        }
        case STARTED -> {
          lifecycle.transition(State.CLOSING, "closed");
          signalHost = host;
        }
        default -> {
          return closeFuture;
        }
      }
    }
    timers.cancelAll();
    if (abandoned != null) {
      for (MailboxTask task : abandoned) {
        task.abandon(
            new IllegalStateException(
                "Expected a started actor, but " + name + " was closed before it started"));
      }
      startFuture.completeExceptionally(
          new IllegalStateException(
              "Expected actor " + name + " to start, but it was closed first"));
      closeFuture.complete(null);
    } else {
      signalHost.signal(this);
    }
    return closeFuture;
  }

  /** True once {@link #closeAsync()} was called: the actor takes no more tasks. */
  public final boolean isClosed() {
    return !lifecycle.state().takesTasks();
  }

  /** Tasks waiting in the mailbox (including due timers), for metrics and backpressure. */
  public final int queueDepth() {
    return mailbox.depth();
  }

  @Override
  public String toString() {
    return getClass().getSimpleName()
        + "{name="
        + name
        + ", state="
        + lifecycle.phase()
        + ", queueDepth="
        + mailbox.depth()
        + "}";
  }

  // ---- scheduler side (package-private) ----

  /**
   * Binds the actor to {@code newHost} and signals its start plus every task queued while NEW.
   * Returns the start future.
   */
  CompletableFuture<Void> bind(ActorHost newHost) {
    int units;
    synchronized (lock) {
      if (lifecycle.state() != State.NEW || host != null) {
        return CompletableFuture.failedFuture(
            new IllegalStateException(
                "Expected a new actor, but " + name + " is " + lifecycle.phase() + " (start)"));
      }
      host = newHost;
      lifecycle.transition(State.STARTING, "started");
      units = 1 + mailbox.depth();
      newHost.actorBound(this);
    }
    for (int i = 0; i < units; i++) {
      newHost.signal(this);
    }
    return startFuture;
  }

  /** True if {@link #runBatch(int)} has something to do. */
  boolean hasWork() {
    State s = lifecycle.state();
    return s.startDue() || !mailbox.isEmpty() || s.closeDue();
  }

  /**
   * Runs at most {@code maxUnits} units of work (start, one task each, close) on the calling
   * thread, which the host guarantees is the only one running this actor, with the logging context
   * in the MDC. Returns units done. One of the two entry points of a host into the actor's work
   * (with {@link #runTimer}); they must not nest.
   */
  int runBatch(int maxUnits) {
    loggingContext.enter();
    try {
      return runUnits(maxUnits);
    } finally {
      loggingContext.exit();
    }
  }

  /**
   * Fires a due timer on the calling thread with the logging context in the MDC, for hosts that
   * fire timers directly instead of through the mailbox (the deterministic scheduler).
   */
  void runTimer(ActorTimer timer) {
    loggingContext.enter();
    try {
      fireTimer(timer);
    } finally {
      loggingContext.exit();
    }
  }

  private int runUnits(int maxUnits) {
    int done = 0;
    if (lifecycle.state().startDue()) {
      runOnStart();
      done++;
    }
    while (done < maxUnits) {
      MailboxTask task = mailbox.poll();
      if (task == null) {
        break;
      }
      if (task.timer() != null) {
        fireTimer(task.timer());
      } else if (lifecycle.state() == State.ABANDONING) {
        task.abandon(
            new IllegalStateException(
                "Expected actor " + name + " to start, but its onStart failed"));
      } else {
        boundary.invoke(host, task.callable(), task.future());
      }
      done++;
    }
    if (done < maxUnits && lifecycle.state().closeDue() && mailbox.isEmpty()) {
      finishClose();
      done++;
    }
    return done;
  }

  /** Fires a due timer; on the actor thread, inside a turn. */
  private void fireTimer(ActorTimer timer) {
    if (timer.isCancelled() || lifecycle.phase() != Phase.STARTED) {
      return;
    }
    boundary.invoke(
        host,
        () -> {
          timer.task().run();
          return null;
        },
        null);
    if (timer.isPeriodic() && !timer.isCancelled() && lifecycle.phase() == Phase.STARTED) {
      timer.advance(host.clock().nanos());
      host.scheduleTimer(timer);
    } else {
      timers.forget(timer);
    }
  }

  /** Puts a due timer into the mailbox (from a timer thread); dropped if the actor is closing. */
  void enqueueDueTimer(ActorTimer timer) {
    ActorHost h;
    synchronized (lock) {
      if (lifecycle.phase() != Phase.STARTED || timer.isCancelled()) {
        return;
      }
      mailbox.add(MailboxTask.ofTimer(timer));
      h = host;
    }
    h.signal(this);
  }

  void forgetTimer(ActorTimer timer) {
    timers.forget(timer);
  }

  // ---- internals ----

  private void execute(Runnable runnable) {
    try {
      enqueue(
          MailboxTask.of(
              () -> {
                runnable.run();
                return null;
              },
              null));
    } catch (ClosedException e) {
      throw new RejectedExecutionException(e.getMessage());
    }
  }

  private void enqueue(MailboxTask task) throws ClosedException {
    ActorHost h;
    synchronized (lock) {
      if (!lifecycle.state().takesTasks()) {
        throw new ClosedException(
            "Expected an open actor, but "
                + name
                + " is "
                + lifecycle.phase()
                + " and takes no tasks");
      }
      if (mailbox.isFull()) {
        throw new RejectedExecutionException(
            "Expected at most "
                + mailbox.capacity()
                + " queued tasks, but the mailbox of actor "
                + name
                + " is full");
      }
      mailbox.add(task);
      h = host;
    }
    if (h != null) {
      h.signal(this);
    }
  }

  private Cancellable addTimer(long delayNanos, long periodNanos, Runnable task) {
    ActorTimer timer;
    ActorHost h;
    synchronized (lock) {
      h = host;
      if (!lifecycle.state().takesTasks()) {
        return timers.dead(task, periodNanos);
      }
      if (h == null) {
        throw new IllegalStateException(
            "Expected a started actor, but "
                + name
                + " was not started yet (schedule timers in onStart or later)");
      }
      timer = timers.add(task, h.clock().nanos(), delayNanos, periodNanos);
    }
    h.scheduleTimer(timer);
    return timer;
  }

  /** The first unit of work of a bound actor, so {@code onClose} always runs after it. */
  private void runOnStart() {
    synchronized (lock) {
      lifecycle.transition(
          lifecycle.state() == State.STARTING ? State.STARTED : State.CLOSING, "onStart runs");
    }
    try {
      onStart();
      boundary.clearInterrupt("onStart");
      startFuture.complete(null);
    } catch (Throwable e) { // NOPMD - actor boundary
      boundary.clearInterrupt("onStart");
      LOG.warn("Actor {} failed to start; closing it", name, e);
      // the start future's dependents run first, as the actor still looks started to them; what
      // they queue fails with the rest
      startFuture.completeExceptionally(e);
      abandon();
    }
    boundary.clearInterrupt("A dependent of the start future");
  }

  /** onStart threw: the queued tasks fail, then onClose runs (it releases what onStart took). */
  private void abandon() {
    ActorHost signalHost = null;
    synchronized (lock) {
      if (lifecycle.state() == State.STARTED) {
        signalHost = host;
      }
      lifecycle.transition(State.ABANDONING, "onStart threw");
    }
    if (signalHost != null) { // not closing yet: as closeAsync does
      timers.cancelAll();
      signalHost.signal(this);
    }
  }

  private void finishClose() {
    lifecycle.transition(State.FINISHING, "the mailbox is empty");
    Throwable failure = null;
    try {
      onClose();
    } catch (Throwable e) { // NOPMD - actor boundary
      LOG.warn("Actor {} failed in onClose", name, e);
      failure = e;
    }
    boundary.clearInterrupt("onClose");
    lifecycle.transition(State.CLOSED, failure == null ? "onClose returned" : "onClose threw");
    host.actorClosed(this);
    if (failure == null) {
      closeFuture.complete(null);
    } else {
      closeFuture.completeExceptionally(failure);
    }
    boundary.clearInterrupt("A dependent of the close future");
  }

  /** Internal signal that the actor is closing or closed; mapped to the caller's exception type. */
  private static final class ClosedException extends Exception {
    private static final long serialVersionUID = 1L;

    ClosedException(String message) {
      super(message, null, false, false);
    }
  }
}
