package io.cairn.httpendpoints;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One row of the routing table: the methods it answers, the paths it answers (an exact path or a
 * pattern), the operation name its requests are observed under, and its handler.
 *
 * @param methods HTTP methods, upper case, at least one
 * @param shownAs the path as the 404 answer lists it ({@code /actuator/backups/{id}})
 * @param path the whole path must match it; named groups are {@link Exchange#pathParameter path
 *     parameters}
 * @param operation the name the {@link RequestObserver} sees ({@code http-list-backups})
 * @param handler answers the route's requests
 */
public record Route(
    List<String> methods, String shownAs, Pattern path, String operation, Handler handler) {

  public Route {
    methods = List.copyOf(methods);
    if (methods.isEmpty()) {
      throw new IllegalArgumentException("Expected at least one method, but there is none");
    }
    for (String method : methods) {
      if (!method.equals(method.toUpperCase(Locale.ROOT)) || method.isBlank()) {
        throw new IllegalArgumentException(
            "Expected HTTP methods in upper case, but was '" + method + "'");
      }
    }
    Objects.requireNonNull(shownAs, "shownAs");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(handler, "handler");
  }

  /** A route of one method on exactly {@code path}. */
  public static Route exact(String method, String path, String operation, Handler handler) {
    return exact(List.of(method), path, operation, handler);
  }

  /** A route of several methods on exactly {@code path}. */
  public static Route exact(List<String> methods, String path, String operation, Handler handler) {
    return new Route(methods, path, Pattern.compile(Pattern.quote(path)), operation, handler);
  }

  /**
   * A route of one method on every path matching {@code regex} whole.
   *
   * @param shownAs how the 404 answer lists it
   */
  public static Route pattern(
      String method, String regex, String shownAs, String operation, Handler handler) {
    return pattern(List.of(method), regex, shownAs, operation, handler);
  }

  /** A route of several methods on every path matching {@code regex} whole. */
  public static Route pattern(
      List<String> methods, String regex, String shownAs, String operation, Handler handler) {
    return new Route(methods, shownAs, Pattern.compile(regex), operation, handler);
  }
}
