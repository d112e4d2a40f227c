package io.cairn.qa.support;

import io.cairn.scheduler.Clock;

/** Prints how long each phase of a long test took, to find where its time goes. */
public final class Phases {

  private final String test;
  private final Clock clock = Clock.system();
  private final long startMs = clock.millis();
  private long lastMs = startMs;

  public Phases(String test) {
    this.test = test;
  }

  /** Prints {@code phase} with the time since the previous mark and since the start. */
  public void mark(String phase) {
    long now = clock.millis();
    System.out.println(
        "["
            + test
            + "] "
            + phase
            + ": "
            + (now - lastMs)
            + " ms (total "
            + (now - startMs)
            + " ms)");
    lastMs = now;
  }
}
