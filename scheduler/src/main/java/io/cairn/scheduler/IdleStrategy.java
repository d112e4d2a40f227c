package io.cairn.scheduler;

/**
 * What a worker thread does when it found no work, in the manner of Agrona's idle strategies: the
 * duty cycle reports how much work it did, and the strategy decides how to wait.
 *
 * <p>Instances keep state and belong to one thread.
 */
public interface IdleStrategy {

  /**
   * Idles if {@code workCount} is 0, otherwise resets.
   *
   * @param workCount the amount of work done in the last duty cycle
   */
  default void idle(int workCount) {
    if (workCount > 0) {
      reset();
    } else {
      idle();
    }
  }

  /**
   * Waits a little; successive calls may wait longer. Returns early when the thread is unparked.
   */
  void idle();

  /** Forgets the back-off after work was found. */
  void reset();
}
