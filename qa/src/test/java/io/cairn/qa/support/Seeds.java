package io.cairn.qa.support;

import io.cairn.scheduler.Clock;

/**
 * Seeds of randomized tests: {@code -Dcairn.seed=N} fixes one; otherwise each run draws a new one
 * from the clock. Every seed is printed with the line that reruns it.
 */
public final class Seeds {

  private Seeds() {}

  public static long seed(String test) {
    Long fixed = Long.getLong("cairn.seed");
    long seed = fixed != null ? fixed : Clock.system().millis();
    System.out.println("[" + test + "] seed " + seed + " (rerun with -Dcairn.seed=" + seed + ")");
    return seed;
  }
}
