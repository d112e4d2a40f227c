package io.cairn.scheduler;

import java.util.concurrent.CompletableFuture;

/**
 * Runs {@link Actor}s: each actor's tasks run one at a time, in mailbox order, never on two threads
 * at once.
 */
public interface ActorScheduler extends AutoCloseable {

  /**
   * Binds {@code actor} to this scheduler and runs its {@link Actor#onStart()} before any of its
   * tasks. The future completes on the actor's thread after {@code onStart} ran; it fails with the
   * exception {@code onStart} threw (the actor is then closed), or with {@link
   * IllegalStateException} if the actor was already started or closed, or this scheduler is closed.
   */
  CompletableFuture<Void> start(Actor actor);

  /** The clock every actor of this scheduler sees through {@code Actor.clock()}. */
  Clock clock();

  /** Closes every actor (their {@code onClose} runs), then stops this scheduler's threads. */
  @Override
  void close();
}
