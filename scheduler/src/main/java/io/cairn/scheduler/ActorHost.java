package io.cairn.scheduler;

/**
 * What an {@link Actor} needs from the scheduler it was started on. Package-private: the actor and
 * its schedulers share this hand-shake, nobody else sees it.
 */
interface ActorHost {

  /** The scheduler's clock. */
  Clock clock();

  /**
   * The actor got one more unit of work (its start, a task, or its close). The host must make sure
   * {@link Actor#runBatch(int)} is called soon, by one thread at a time.
   */
  void signal(Actor actor);

  /** Arms {@code timer} for {@link ActorTimer#dueNanos()}; when due, the host fires it. */
  void scheduleTimer(ActorTimer timer);

  /** The actor was just bound to this host (before its start is signalled); the host tracks it. */
  void actorBound(Actor actor);

  /** Records one task run on an actor thread. */
  void recordTask(long durationNanos, boolean failed);

  /** The actor finished closing; the host forgets it. Called on the actor's thread. */
  void actorClosed(Actor actor);
}
