package io.cairn.scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.IntSupplier;

/**
 * Everything on the calling thread, simulated time. Tasks run in order of (due time, submission
 * sequence); running a task first advances the {@link SimClock} to its due time. Also schedules
 * plain tasks that belong to no actor (the simulated network uses this to deliver messages).
 *
 * <p>Each unit of actor work is its own entry: every task put into a mailbox, every start and
 * close, every timer. So the global order is exactly (due time, the moment the entry was made), the
 * same in every run with the same inputs. Time moves only inside {@link #runNext()} and {@link
 * #runFor(Duration)}; nothing here reads a real clock and there are no threads.
 *
 * <p>A plain task that throws is not caught: the exception leaves {@code runNext}/{@code runFor}/
 * {@code runUntilIdle}, so a simulation fails loudly (the task is already removed; the scheduler
 * can go on). Actor tasks follow the {@link Actor} rules (logged, future failed, actor goes on).
 *
 * <p>Livelock guard: more than {@value #SAME_INSTANT_RUNS_MAX} entries in a row at the same
 * instant, within one run call, throw {@link IllegalStateException}, so a task that keeps
 * re-submitting itself cannot hang a test.
 *
 * <p>Use it from one thread. The run methods must not be called from inside a task.
 */
public final class DeterministicScheduler implements ActorScheduler {

  static final int SAME_INSTANT_RUNS_MAX = 10_000_000;
  private static final long NANOS_PER_MILLI = 1_000_000L;
  private static final Comparator<Entry> ORDER =
      Comparator.comparingLong((Entry e) -> e.dueNanos).thenComparingLong(e -> e.sequence);

  private final SimClock clock;
  private final PriorityQueue<Entry> queue = new PriorityQueue<>(ORDER);
  private final Set<Actor> actors = new LinkedHashSet<>();
  private final Host host = new Host();
  private final Executor executor = this::execute;
  private final int sameInstantRunsMax;
  private long nextSequence;
  private boolean running;
  private boolean closed;
  private long lastRunNanos = Long.MIN_VALUE;
  private long sameInstantRuns;

  public DeterministicScheduler(SimClock clock) {
    this(clock, SAME_INSTANT_RUNS_MAX);
  }

  /** With a lower livelock limit, for tests of the guard itself. */
  DeterministicScheduler(SimClock clock, int sameInstantRunsMax) {
    this.clock = clock;
    this.sameInstantRunsMax = sameInstantRunsMax;
  }

  @Override
  public SimClock clock() {
    return clock;
  }

  /**
   * Binds the actor; its {@code onStart} runs with the next run call (the future completes then).
   */
  @Override
  public synchronized CompletableFuture<Void> start(Actor actor) {
    if (closed) {
      return CompletableFuture.failedFuture(
          new IllegalStateException(
              "Expected an open scheduler, but it is closed (start " + actor.name() + ")"));
    }
    return actor.bind(host);
  }

  /**
   * Schedules a plain task, not bound to an actor, {@code delay} from now.
   *
   * @throws IllegalArgumentException if {@code delay} is negative
   * @throws RejectedExecutionException if this scheduler is closed
   */
  public Cancellable schedule(Duration delay, Runnable task) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException(
          "Expected delay >= 0, but was " + delay + " (DeterministicScheduler.schedule)");
    }
    return addPlain(saturatedAdd(clock.nanos(), saturatedNanos(delay)), task);
  }

  /** Plain tasks due now; {@code execute} throws {@link RejectedExecutionException} once closed. */
  public Executor executor() {
    return executor;
  }

  /** Runs the earliest task (advancing time to its due time); false when there is none. */
  public boolean runNext() {
    requireNotInTask();
    Entry entry = pollDue(Long.MAX_VALUE);
    if (entry == null) {
      return false;
    }
    run(entry);
    return true;
  }

  /**
   * Runs every task due at or before now, including ones they add that are due now; never moves
   * time. Returns the number of units of work done.
   */
  public int runUntilIdle() {
    requireNotInTask();
    long now = clock.nanos();
    int count = 0;
    Entry entry;
    while ((entry = pollDue(now)) != null) {
      count += run(entry);
    }
    return count;
  }

  /**
   * Runs tasks in order until the clock reaches now + {@code d}, including tasks due exactly then;
   * the clock ends at now + {@code d}.
   *
   * @throws IllegalArgumentException if {@code d} is negative
   */
  public void runFor(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException(
          "Expected a duration >= 0, but was " + d + " (DeterministicScheduler.runFor)");
    }
    requireNotInTask();
    long target = saturatedAdd(clock.nanos(), saturatedNanos(d));
    Entry entry;
    while ((entry = pollDue(target)) != null) {
      run(entry);
    }
    clock.advanceToNanos(target);
  }

  /** True if any task (actor or plain, cancelled ones excluded) waits, whenever it is due. */
  public synchronized boolean hasPendingTasks() {
    return peekLive() != null;
  }

  /**
   * The first whole millisecond at or after the next task's due time; {@link Long#MAX_VALUE} when
   * there is none.
   */
  public synchronized long nextDueMillis() {
    Entry head = peekLive();
    return head == null ? Long.MAX_VALUE : -Math.floorDiv(-head.dueNanos, NANOS_PER_MILLI);
  }

  /**
   * Closes every actor and runs until idle so their tasks and {@code onClose} run, then drops
   * whatever is still scheduled. Later starts and plain tasks are refused. From inside a task it
   * only closes the actors; their closing then runs with the next run call.
   */
  @Override
  public void close() {
    List<Actor> open;
    synchronized (this) {
      if (closed) {
        return;
      }
      open = new ArrayList<>(actors);
    }
    for (Actor actor : open) {
      actor.closeAsync();
    }
    if (running) {
      return;
    }
    runUntilIdle();
    synchronized (this) {
      closed = true;
      queue.clear();
    }
  }

  @Override
  public synchronized String toString() {
    return "DeterministicScheduler{clock="
        + clock
        + ", pending="
        + queue.size()
        + ", actors="
        + actors.size()
        + "}";
  }

  // ---- internals ----

  private void execute(Runnable task) {
    addPlain(clock.nanos(), task);
  }

  private synchronized Entry addPlain(long dueNanos, Runnable task) {
    if (closed) {
      throw new RejectedExecutionException(
          "Expected an open scheduler, but it is closed (plain task)");
    }
    return add(
        dueNanos,
        () -> {
          task.run();
          return 1;
        },
        null);
  }

  private synchronized Entry add(long dueNanos, IntSupplier action, ActorTimer timer) {
    Entry entry = new Entry(dueNanos, nextSequence++, action, timer);
    queue.add(entry);
    return entry;
  }

  private synchronized Entry peekLive() {
    Entry head = queue.peek();
    while (head != null && head.isCancelled()) {
      queue.poll();
      head = queue.peek();
    }
    return head;
  }

  private synchronized Entry pollDue(long limitNanos) {
    Entry head = peekLive();
    if (head == null || head.dueNanos > limitNanos) {
      return null;
    }
    return queue.poll();
  }

  /** Entry check of every run call; also restarts the livelock count, which is per call. */
  private void requireNotInTask() {
    if (running) {
      throw new IllegalStateException(
          "Expected run calls from outside of tasks, but one was made inside a running task");
    }
    lastRunNanos = Long.MIN_VALUE;
    sameInstantRuns = 0;
  }

  private int run(Entry entry) {
    clock.advanceToNanos(entry.dueNanos);
    long now = clock.nanos();
    if (now == lastRunNanos) {
      if (++sameInstantRuns > sameInstantRunsMax) {
        throw new IllegalStateException(
            "Expected at most "
                + sameInstantRunsMax
                + " tasks at one instant, but tasks keep coming at "
                + clock
                + " (livelock?)");
      }
    } else {
      lastRunNanos = now;
      sameInstantRuns = 1;
    }
    running = true;
    try {
      return entry.action.getAsInt();
    } finally {
      running = false;
    }
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  private static long saturatedAdd(long a, long b) {
    return b > Long.MAX_VALUE - a ? Long.MAX_VALUE : a + b;
  }

  private static final class Entry implements Cancellable {
    private final long dueNanos;
    private final long sequence;
    private final IntSupplier action;
    private final ActorTimer timer;
    private volatile boolean cancelled;

    Entry(long dueNanos, long sequence, IntSupplier action, ActorTimer timer) {
      this.dueNanos = dueNanos;
      this.sequence = sequence;
      this.action = action;
      this.timer = timer;
    }

    @Override
    public void cancel() {
      cancelled = true;
    }

    @Override
    public boolean isCancelled() {
      return cancelled || (timer != null && timer.isCancelled());
    }
  }

  private final class Host implements ActorHost {
    @Override
    public Clock clock() {
      return clock;
    }

    @Override
    public void signal(Actor actor) {
      synchronized (DeterministicScheduler.this) {
        if (!closed) {
          add(clock.nanos(), () -> actor.runBatch(1), null);
        }
      }
    }

    @Override
    public void scheduleTimer(ActorTimer timer) {
      synchronized (DeterministicScheduler.this) {
        if (!closed) {
          add(
              timer.dueNanos(),
              () -> {
                timer.actor().runTimer(timer);
                return 1;
              },
              timer);
        }
      }
    }

    @Override
    public void actorBound(Actor actor) {
      synchronized (DeterministicScheduler.this) {
        actors.add(actor);
      }
    }

    @Override
    public void recordTask(long durationNanos, boolean failed) {
      // No metrics in simulations: durations in simulated time are always 0.
    }

    @Override
    public void actorClosed(Actor actor) {
      synchronized (DeterministicScheduler.this) {
        actors.remove(actor);
      }
    }
  }
}
