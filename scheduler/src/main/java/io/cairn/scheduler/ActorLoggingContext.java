package io.cairn.scheduler;

import java.util.Map;
import java.util.TreeMap;
import org.slf4j.MDC;

/**
 * One actor's logging context while it runs: {@link #enter()} puts the entries into the calling
 * thread's MDC and remembers what was there, {@link #exit()} restores it (removing keys that were
 * absent). Allocation-free per turn. Not thread-safe and not re-entrant: the host runs an actor on
 * one thread at a time, and enter/exit pair up within one turn on that thread.
 */
final class ActorLoggingContext {

  private final Map<String, String> entries;
  private final String[] keys;
  private final String[] values;

  /** What the MDC held under keys before the current turn; null outside a turn. */
  private final String[] previous;

  /**
   * @throws IllegalArgumentException if {@code entries} is null or has a blank key or null value
   */
  ActorLoggingContext(Map<String, String> entries, String actorName) {
    if (entries == null) {
      throw new IllegalArgumentException(
          "Expected a logging context (empty for none), but was null (actor " + actorName + ")");
    }
    // sorted, so that entries go into the MDC in the same order on every run
    TreeMap<String, String> sorted = new TreeMap<>();
    entries.forEach(
        (key, value) -> {
          if (key == null || key.isBlank() || value == null) {
            throw new IllegalArgumentException(
                "Expected logging context entries with a non-blank key"
                    + " and a value, but got "
                    + key
                    + "="
                    + value
                    + " (actor "
                    + actorName
                    + ")");
          }
          sorted.put(key, value);
        });
    this.entries = Map.copyOf(sorted);
    this.keys = sorted.keySet().toArray(String[]::new);
    this.values = sorted.values().toArray(String[]::new);
    this.previous = new String[keys.length];
  }

  Map<String, String> entries() {
    return entries;
  }

  /** Puts the entries into the MDC; a key that holds the same value already is left as it is. */
  void enter() {
    for (int i = 0; i < keys.length; i++) {
      String before = MDC.get(keys[i]);
      previous[i] = before;
      if (!values[i].equals(before)) {
        MDC.put(keys[i], values[i]);
      }
    }
  }

  /** Restores what {@link #enter()} found under each key: the old value, or no entry. */
  void exit() {
    for (int i = keys.length - 1; i >= 0; i--) {
      String before = previous[i];
      previous[i] = null;
      if (before == null) {
        MDC.remove(keys[i]);
      } else {
        MDC.put(keys[i], before); // also undoes a change the turn left behind
      }
    }
  }
}
