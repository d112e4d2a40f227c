package io.cairn.qa.support;

import io.cairn.scheduler.Clock;

/**
 * Seeds of randomized tests: {@code -Dcairn.seed=N} fixes one; otherwise each run draws a new one
 * from the clock. Every seed is printed with the line that reruns it.
 */
public final class Seeds {

  private Seeds() {}

  public static long seed(final String test) {
    final Long fixed = Long.getLong("cairn.seed");
    final long seed = fixed != null ? fixed : Clock.system().millis();
    System.out.println("[" + test + "] seed " + seed + " (rerun with -Dcairn.seed=" + seed + ")");
    return seed;
  }
}
