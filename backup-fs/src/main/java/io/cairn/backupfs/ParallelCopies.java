package io.cairn.backupfs;

import java.io.InterruptedIOException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs the file copies of one save or restore on up to {@code parallelism} threads: the operation's
 * own thread, plus helpers submitted to the store's executor. Every thread takes the next file
 * until none is left or one copy failed.
 *
 * <p>It never waits for a helper that has not started: the calling thread copies too, and when the
 * files run out it closes the work to helpers that start later (they return at once) and waits only
 * for those that are copying. So an executor with fewer free threads (even none) slows the save
 * down but cannot deadlock it. A helper copies one file per task and then queues itself again, so
 * other operations waiting for the executor (a status, a {@code markFailed}) get a thread between
 * two files instead of after the whole save or restore.
 */
final class ParallelCopies {

  /** Copies the file with index {@code index}. */
  @FunctionalInterface
  interface Copy {
    void run(int index) throws Exception;
  }

  private final Executor executor;
  private final int count;
  private final Copy copy;
  private final AtomicInteger next = new AtomicInteger();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition helpersDone = lock.newCondition();
  private boolean closed;
  private int activeHelpers;

  private ParallelCopies(Executor executor, int count, Copy copy) {
    this.executor = executor;
    this.count = count;
    this.copy = copy;
  }

  /**
   * Runs {@code copy} for every index in {@code [0, count)}, at most {@code parallelism} at once,
   * and returns when all ran, or after the first failure once the running copies ended.
   *
   * @throws Exception the first copy's failure (a later one is added as suppressed)
   * @throws InterruptedIOException if the calling thread was interrupted while waiting for the
   *     helpers (they are still waited for; the interrupt flag is set again)
   */
  static void run(Executor executor, int parallelism, int count, Copy copy) throws Exception {
    var copies = new ParallelCopies(executor, count, copy);
    int helpers = Math.min(parallelism, count) - 1;
    for (int i = 0; i < helpers && copies.submitHelper(); i++) {
      // each helper keeps itself going
    }
    while (copies.copyNext()) {
      // the calling thread copies until no file is left
    }
    copies.closeAndAwaitHelpers();
    copies.throwFailure();
  }

  /** False if the executor refused: the calling thread copies what the helper would have. */
  private boolean submitHelper() {
    try {
      executor.execute(this::helper);
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  /** One helper task: copies one file, then queues itself again while files are left. */
  private void helper() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      activeHelpers++;
    } finally {
      lock.unlock();
    }
    boolean more;
    try {
      more = copyNext();
    } finally {
      lock.lock();
      try {
        activeHelpers--;
        helpersDone.signalAll();
      } finally {
        lock.unlock();
      }
    }
    if (more) {
      submitHelper();
    }
  }

  /** Copies the next file, if any is left and nothing failed; true if more may be left. */
  private boolean copyNext() {
    int index;
    if (failure.get() != null || (index = next.getAndIncrement()) >= count) {
      return false;
    }
    try {
      copy.run(index);
    } catch (Exception e) {
      fail(e);
      return false;
    } catch (Error e) {
      fail(e);
      throw e;
    }
    return next.get() < count;
  }

  private void fail(Throwable e) {
    if (!failure.compareAndSet(null, e) && failure.get() != e) {
      failure.get().addSuppressed(e);
    }
  }

  private void closeAndAwaitHelpers() throws InterruptedIOException {
    boolean interrupted = false;
    lock.lock();
    try {
      closed = true;
      while (activeHelpers > 0) {
        try {
          helpersDone.await();
        } catch (InterruptedException e) {
          // Keep waiting: the caller removes the temp files, which helpers may still write.
          interrupted = true;
          fail(
              new InterruptedIOException(
                  "Expected the file copies to finish, but the operation " + "was interrupted"));
        }
      }
    } finally {
      lock.unlock();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void throwFailure() throws Exception {
    Throwable e = failure.get();
    if (e == null) {
      return;
    }
    if (e instanceof Exception exception) {
      throw exception;
    }
    throw (Error) e;
  }
}
