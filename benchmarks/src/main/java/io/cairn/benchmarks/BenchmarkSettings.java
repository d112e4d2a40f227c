package io.cairn.benchmarks;

import java.util.Map;

/** The {@code key=value} arguments of the plain main-class benchmarks. */
final class BenchmarkSettings {

  private BenchmarkSettings() {}

  /**
   * Overrides {@code settings} (the defaults, in order) with {@code args}, then prints them.
   *
   * @throws IllegalArgumentException naming the known keys for an argument that is not {@code
   *     key=value} of one of them
   */
  static void apply(Map<String, String> settings, String[] args) {
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (eq < 1 || !settings.containsKey(arg.substring(0, eq))) {
        throw new IllegalArgumentException(
            "Expected key=value with a key of " + settings.keySet() + ", but was '" + arg + "'");
      }
      settings.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    System.out.println("settings " + settings);
  }
}
