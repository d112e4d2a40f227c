package io.cairn.httpendpoints;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * The routing table of a server: its routes in the order they were declared. A request goes to the
 * first route whose path and method match. A path no route has is answered 404 listing the known
 * paths; a known path asked with another method 405 with an {@code Allow} header naming the methods
 * of every route on that path. Immutable.
 */
public final class Routes {
  private final List<Route> routes;

  private Routes(List<Route> routes) {
    this.routes = List.copyOf(routes);
    if (this.routes.isEmpty()) {
      throw new IllegalArgumentException("Expected at least one route, but there is none");
    }
  }

  public static Routes of(Route... routes) {
    return new Routes(List.of(routes));
  }

  public static Routes of(List<Route> routes) {
    return new Routes(routes);
  }

  public List<Route> routes() {
    return routes;
  }

  /** What the table says about one request. */
  sealed interface Resolution permits Found, Refused {}

  /** The route that answers, and its match of the path (for path parameters). */
  record Found(Route route, Matcher match) implements Resolution {}

  /**
   * No route answers: 404 or 405.
   *
   * @param operation the operation of the path's routes when they share one (a 405 is observed
   *     under it), else empty
   * @param allowed the methods of the path's routes, for the {@code Allow} header (empty on 404)
   */
  record Refused(Problem problem, Optional<String> operation, List<String> allowed)
      implements Resolution {}

  Resolution resolve(String method, String path) {
    Set<String> allowed = new LinkedHashSet<>();
    Set<String> operations = new LinkedHashSet<>();
    for (Route route : routes) {
      Matcher match = route.path().matcher(path);
      if (!match.matches()) {
        continue;
      }
      if (route.methods().contains(method)) {
        return new Found(route, match);
      }
      allowed.addAll(route.methods());
      operations.add(route.operation());
    }
    if (allowed.isEmpty()) {
      return new Refused(
          new Problem(
              404, "Expected one of " + String.join(", ", shownPaths()) + ", but was " + path),
          Optional.empty(),
          List.of());
    }
    return new Refused(
        new Problem(
            405,
            "Expected method "
                + String.join(" or ", allowed)
                + " on "
                + path
                + ", but was "
                + method),
        operations.size() == 1 ? Optional.of(operations.iterator().next()) : Optional.empty(),
        List.copyOf(allowed));
  }

  private List<String> shownPaths() {
    Set<String> shown = new LinkedHashSet<>();
    for (Route route : routes) {
      shown.add(route.shownAs());
    }
    return new ArrayList<>(shown);
  }
}
