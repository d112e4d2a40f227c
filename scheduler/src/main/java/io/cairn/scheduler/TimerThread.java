package io.cairn.scheduler;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one timer thread of a {@link ThreadPoolActorScheduler}: a priority queue of armed timers
 * ordered by (due time, arming order); when one is due it goes into its actor's mailbox.
 *
 * <p>Why not a {@code ScheduledThreadPoolExecutor}: it measures delays with the JVM's clock, while
 * actors see the injected {@link Clock}. This thread compares due times with that same clock, so a
 * timer fires when {@code clock.nanos()} reaches it, whatever the clock is. It waits on a condition
 * that is signalled when an earlier timer arrives, and never longer than {@code maxParkNanos} so
 * that a clock which jumps (not the system clock) is noticed.
 */
final class TimerThread {

  private static final Comparator<Entry> ORDER =
      Comparator.comparingLong(Entry::dueNanos).thenComparingLong(Entry::sequence);

  private final Clock clock;
  private final long maxParkNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final PriorityQueue<Entry> queue = new PriorityQueue<>(ORDER);
  private final Thread thread;
  private long nextSequence;
  private volatile boolean running = true;

  TimerThread(String threadName, Clock clock, long maxParkNanos) {
    this.clock = clock;
    this.maxParkNanos = maxParkNanos;
    this.thread = new Thread(this::run, threadName);
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Arms {@code timer} for its current due time. */
  void add(ActorTimer timer) {
    lock.lock();
    try {
      Entry entry = new Entry(timer.dueNanos(), nextSequence++, timer);
      queue.add(entry);
      if (queue.peek() == entry) {
        changed.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Armed timers, including cancelled ones not yet purged. */
  int pending() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  /** Stops the thread and waits up to {@code timeoutMillis} for it to end. */
  void stop(long timeoutMillis) throws InterruptedException {
    running = false;
    lock.lock();
    try {
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    if (Thread.currentThread() != thread) {
      thread.join(timeoutMillis);
    }
  }

  boolean isAlive() {
    return thread.isAlive();
  }

  private void run() {
    while (running) {
      ActorTimer due;
      try {
        due = awaitDue();
      } catch (InterruptedException e) {
        // Only the owner interrupts this thread, to stop it.
        Thread.currentThread().interrupt();
        return;
      }
      if (due != null) {
        due.actor().enqueueDueTimer(due);
      }
    }
  }

  /** Returns a due timer, or null after waiting a while (the caller loops). */
  private ActorTimer awaitDue() throws InterruptedException {
    lock.lock();
    try {
      Entry head = queue.peek();
      while (head != null && head.timer().isCancelled()) {
        queue.poll();
        head = queue.peek();
      }
      if (head == null) {
        changed.awaitNanos(maxParkNanos);
        return null;
      }
      long waitNanos = head.dueNanos() - clock.nanos();
      if (waitNanos <= 0) {
        queue.poll();
        return head.timer();
      }
      changed.awaitNanos(Math.min(waitNanos, maxParkNanos));
      return null;
    } finally {
      lock.unlock();
    }
  }

  static long defaultMaxParkNanos(Clock clock) {
    // The system clock moves by itself: wait exactly until the head is due. Any other clock may
    // jump, so look again every 10 ms.
    return clock == Clock.system()
        ? TimeUnit.SECONDS.toNanos(1)
        : TimeUnit.MILLISECONDS.toNanos(10);
  }

  private record Entry(long dueNanos, long sequence, ActorTimer timer) {}
}
