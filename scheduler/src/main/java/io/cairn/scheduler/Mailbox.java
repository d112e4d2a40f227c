package io.cairn.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An actor's queue of tasks and due timers, and its depth. Added to under the actor's lock (which
 * also checks {@link #isFull()} and the actor's state), polled by the thread running the actor.
 */
final class Mailbox {

  private final Queue<MailboxTask> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger depth = new AtomicInteger();
  private final int capacity;

  /**
   * @param capacity how many tasks {@link #isFull()} allows; at least 1
   */
  Mailbox(int capacity) {
    this.capacity = capacity;
  }

  int capacity() {
    return capacity;
  }

  /** Entries waiting (tasks and due timers). */
  int depth() {
    return depth.get();
  }

  boolean isEmpty() {
    return queue.isEmpty();
  }

  /** Whether a task beyond the capacity would be refused (due timers never are). */
  boolean isFull() {
    return depth.get() >= capacity;
  }

  void add(MailboxTask task) {
    queue.add(task);
    depth.incrementAndGet();
  }

  /** The next entry, or null. */
  MailboxTask poll() {
    MailboxTask task = queue.poll();
    if (task != null) {
      depth.decrementAndGet();
    }
    return task;
  }

  /** Removes and returns every entry. */
  List<MailboxTask> drain() {
    List<MailboxTask> drained = new ArrayList<>();
    MailboxTask task;
    while ((task = poll()) != null) {
      drained.add(task);
    }
    return drained;
  }
}
