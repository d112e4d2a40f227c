package io.cairn.scheduler;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs actors on real threads: a small fixed pool of workers named {@code cairn-actor-<scheduler
 * name>-<n>} and one timer thread {@code cairn-actor-<name>-timer}.
 *
 * <p>How actors share the workers: an actor that gets work while idle is put, once, on a shared run
 * queue (its {@code dispatched} flag guards this, so it is never queued or running twice and so
 * never runs on two threads at once). A worker takes the next actor, runs up to {@link
 * ActorSchedulerConfig#tasksPerTurn()} of its tasks, releases it and puts it back at the end of the
 * queue if it still has work, so other actors progress. Idle workers back off with a {@link
 * BackoffIdleStrategy} and are unparked when an actor is queued.
 *
 * <p>Timers: see {@link TimerThread} (one thread reading the injected clock). Metrics: see {@link
 * SchedulerMetrics}.
 */
public final class ThreadPoolActorScheduler implements ActorScheduler {

  private static final Logger LOG = LoggerFactory.getLogger(ThreadPoolActorScheduler.class);
  private static final int IDLE_SPINS = 20;
  private static final int IDLE_YIELDS = 10;
  private static final long IDLE_MIN_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(10);

  private final String name;
  private final ActorSchedulerConfig config;
  private final Clock clock;
  private final Queue<Actor> runQueue = new ConcurrentLinkedQueue<>();
  private final Set<Actor> actors = ConcurrentHashMap.newKeySet();
  private final Worker[] workers;
  private final TimerThread timerThread;
  private final SchedulerMetrics metrics;
  private final Host host = new Host();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile boolean running = true;

  /**
   * A scheduler with {@link ActorSchedulerConfig#defaults()} and {@code threadCount} workers.
   *
   * @param name part of the thread names; not a metric tag
   */
  public ThreadPoolActorScheduler(
      String name, int threadCount, Clock clock, MeterRegistry registry) {
    this(name, ActorSchedulerConfig.defaults().withThreadCount(threadCount), clock, registry);
  }

  /**
   * Starts the worker and timer threads at once.
   *
   * @param name part of the thread names; not a metric tag
   */
  public ThreadPoolActorScheduler(
      String name, ActorSchedulerConfig config, Clock clock, MeterRegistry registry) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          "Expected a non-blank scheduler name, but was '" + name + "' (ThreadPoolActorScheduler)");
    }
    this.name = name;
    this.config = config;
    this.clock = clock;
    this.timerThread =
        new TimerThread(
            "cairn-actor-" + name + "-timer", clock, TimerThread.defaultMaxParkNanos(clock));
    this.metrics =
        new SchedulerMetrics(
            registry,
            this,
            ThreadPoolActorScheduler::queueDepth,
            s -> s.actors.size(),
            s -> s.timerThread.pending());
    this.workers = new Worker[config.threadCount()];
    for (int i = 0; i < workers.length; i++) {
      workers[i] = new Worker("cairn-actor-" + name + "-" + i);
    }
    timerThread.start();
    for (Worker worker : workers) {
      worker.thread.start();
    }
  }

  @Override
  public CompletableFuture<Void> start(Actor actor) {
    if (closed.get()) {
      return CompletableFuture.failedFuture(
          new IllegalStateException(
              "Expected an open scheduler, but "
                  + name
                  + " is closed (start "
                  + actor.name()
                  + ")"));
    }
    CompletableFuture<Void> started = actor.bind(host);
    if (closed.get()) {
      actor.closeAsync(); // close() ran meanwhile and may not have seen this actor
    }
    return started;
  }

  @Override
  public Clock clock() {
    return clock;
  }

  /**
   * Closes every actor and waits up to {@link ActorSchedulerConfig#closeTimeout()} for them (not
   * when called from one of this scheduler's workers, which would wait for itself), then stops and
   * joins the threads. Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    long timeoutMillis = config.closeTimeout().toMillis();
    List<CompletableFuture<Void>> closing = new ArrayList<>();
    for (Actor actor : actors) {
      closing.add(actor.closeAsync().exceptionally(e -> null));
    }
    boolean onWorker = isWorkerThread();
    if (!onWorker) {
      try {
        CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new))
            .get(timeoutMillis, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (TimeoutException e) {
        LOG.warn(
            "Expected actors of scheduler {} to close within {}, but {} are still open; "
                + "stopping its threads anyway",
            name,
            config.closeTimeout(),
            actors.size());
      } catch (ExecutionException e) {
        throw new IllegalStateException("Unreachable: close failures are mapped to null", e);
      }
    }
    running = false;
    for (Worker worker : workers) {
      LockSupport.unpark(worker.thread);
    }
    try {
      timerThread.stop(timeoutMillis);
      for (Worker worker : workers) {
        if (worker.thread != Thread.currentThread()) {
          worker.thread.join(timeoutMillis);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    metrics.close();
  }

  /** Tasks waiting in the mailboxes of all live actors. */
  public int queueDepth() {
    int total = 0;
    for (Actor actor : actors) {
      total += actor.queueDepth();
    }
    return total;
  }

  @Override
  public String toString() {
    return "ThreadPoolActorScheduler{name=" + name + ", " + config + ", clock=" + clock + "}";
  }

  private boolean isWorkerThread() {
    Thread current = Thread.currentThread();
    for (Worker worker : workers) {
      if (worker.thread == current) {
        return true;
      }
    }
    return false;
  }

  private void dispatch(Actor actor) {
    runQueue.offer(actor);
    for (Worker worker : workers) {
      if (worker.parked.compareAndSet(true, false)) {
        LockSupport.unpark(worker.thread);
        return;
      }
    }
  }

  private final class Host implements ActorHost {
    @Override
    public Clock clock() {
      return clock;
    }

    @Override
    public void signal(Actor actor) {
      if (actor.dispatched.compareAndSet(false, true)) {
        dispatch(actor);
      }
    }

    @Override
    public void scheduleTimer(ActorTimer timer) {
      timerThread.add(timer);
    }

    @Override
    public void actorBound(Actor actor) {
      actors.add(actor);
    }

    @Override
    public void recordTask(long durationNanos, boolean failed) {
      metrics.recordTask(durationNanos, failed);
    }

    @Override
    public void actorClosed(Actor actor) {
      actors.remove(actor);
    }
  }

  private final class Worker {
    private final Thread thread;

    /** True while the worker is about to idle; a producer flips it back and unparks. */
    private final AtomicBoolean parked = new AtomicBoolean();

    private final IdleStrategy idleStrategy =
        new BackoffIdleStrategy(
            IDLE_SPINS, IDLE_YIELDS, IDLE_MIN_PARK_NANOS, config.maxIdleParkDuration().toNanos());

    Worker(String threadName) {
      this.thread = new Thread(this::run, threadName);
      this.thread.setDaemon(true);
    }

    private void run() {
      while (running) {
        Actor actor = runQueue.poll();
        if (actor != null) {
          idleStrategy.reset();
          runTurn(actor);
          continue;
        }
        // Announce, then look again: a producer that queued meanwhile sees the flag and unparks.
        parked.set(true);
        if (runQueue.isEmpty() && running) {
          idleStrategy.idle();
        }
        parked.set(false);
      }
    }

    private void runTurn(Actor actor) {
      try {
        actor.runBatch(config.tasksPerTurn());
      } catch (RuntimeException | Error e) { // NOPMD - keep the worker alive; tasks catch their own
        LOG.error("Actor {} failed outside of a task on scheduler {}", actor.name(), name, e);
      } finally {
        actor.dispatched.set(false);
      }
      if (actor.hasWork() && actor.dispatched.compareAndSet(false, true)) {
        dispatch(actor);
      }
    }
  }
}
