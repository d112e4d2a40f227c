package io.cairn.client;

/**
 * The seed of the random waits between retries of a client built without {@link
 * CairnClient.Builder#retryJitterSeed}: read from the clock, so that clients refused together do
 * not retry in step. The one place the client reads a clock of its own; give a seed for repeatable
 * runs.
 */
final class JitterSeeds {

  private JitterSeeds() {}

  /** A seed that differs from one call to the next. */
  static long fresh() {
    return System.nanoTime();
  }
}
