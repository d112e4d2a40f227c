package io.cairn.httpendpoints;

import java.time.Duration;
import java.util.Optional;

/**
 * Sees every request a server answers, once, right before the answer goes out: whoever got the
 * answer and then reads a meter the observer keeps finds the request counted. A request whose
 * connection failed before any answer is seen when its handling ends.
 *
 * <p>Called on the server's executor, from several threads at once.
 */
@FunctionalInterface
public interface RequestObserver {

  /** The result of a request answered below 400. */
  String OK = "ok";

  /** The result of a request whose handler failed unexpectedly (answered 500). */
  String INTERNAL = "internal";

  /**
   * @param operation the operation of the route that answered; for a 405, the operation of the
   *     path's routes when they share one; empty for a 404 or a 405 on a path of several operations
   * @param result {@link #OK}, {@code http-<status>} for an answer of 400 or more, or {@link
   *     #INTERNAL}
   * @param duration from the request's arrival at the handler to its answer
   */
  void observe(Optional<String> operation, String result, Duration duration);
}
