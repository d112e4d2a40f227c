package io.cairn.scheduler;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** One entry of an actor's mailbox: a task, maybe with a future, or a timer that is due. */
final class MailboxTask {

  private final Callable<?> callable;
  private final CompletableFuture<Object> future;
  private final ActorTimer timer;

  private MailboxTask(Callable<?> callable, CompletableFuture<Object> future, ActorTimer timer) {
    this.callable = callable;
    this.future = future;
    this.timer = timer;
  }

  static MailboxTask of(Callable<?> callable, CompletableFuture<Object> future) {
    return new MailboxTask(callable, future, null);
  }

  static MailboxTask ofTimer(ActorTimer timer) {
    return new MailboxTask(null, null, timer);
  }

  Callable<?> callable() {
    return callable;
  }

  /** The future to complete with the task's outcome, or null (plain executor tasks). */
  CompletableFuture<Object> future() {
    return future;
  }

  /** The due timer this entry stands for, or null. */
  ActorTimer timer() {
    return timer;
  }

  /** Fails the future of a task that will never run. */
  void abandon(Exception reason) {
    if (future != null) {
      future.completeExceptionally(reason);
    }
  }
}
