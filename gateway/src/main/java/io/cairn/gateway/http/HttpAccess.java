package io.cairn.gateway.http;

import io.cairn.auth.Operation;
import io.cairn.gateway.security.AccessControl;
import io.cairn.gateway.security.AccessControl.Check;
import io.cairn.gateway.security.AccessControl.Decision;
import io.cairn.httpendpoints.Exchange;
import io.cairn.httpendpoints.Problem;
import io.cairn.httpendpoints.Route;
import io.cairn.httpendpoints.RouteInterceptor;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Set;

/**
 * Access to the management endpoints: a route in {@code open} ({@code /metrics}, {@code /health},
 * {@code /ready}) is answered to everyone; every other route runs the {@link Operation} the table
 * gives it, or, when the table has none, an admin operation named by the route, so that a route
 * added without a row is closed rather than open. A caller without valid credentials gets 401 with
 * {@code WWW-Authenticate} naming the accepted schemes, one without the role 403, both as problem
 * details with {@link AccessControl}'s public message. An allowed admin operation is audited right
 * before its answer goes out.
 *
 * <p>Runs on the HTTP workers, where a check may block.
 */
final class HttpAccess implements RouteInterceptor {
  private final AccessControl access;
  private final Set<String> open;
  private final Map<String, Operation> operations;

  /**
   * @param open the operations of routes anyone may call
   * @param operations route operation → what it runs and the role that takes
   */
  HttpAccess(AccessControl access, Set<String> open, Map<String, Operation> operations) {
    this.access = access;
    this.open = Set.copyOf(open);
    this.operations = Map.copyOf(operations);
  }

  @Override
  public void intercept(Exchange exchange, Route route) throws IOException {
    refuseForeignOrigin(exchange);
    if (open.contains(route.operation())) {
      route.handler().handle(exchange);
      return;
    }
    Operation operation =
        operations.getOrDefault(route.operation(), Operation.admin(route.operation()));
    Check check = access.start(AccessControl.HTTP, operation, exchange.remoteAddress());
    Decision decision = check.check(exchange.requestHeader("Authorization"));
    if (decision instanceof AccessControl.Unauthenticated refused) {
      if (!access.challenge().isEmpty()) {
        exchange.header("WWW-Authenticate", access.challenge());
      }
      throw new Problem(401, refused.publicMessage());
    }
    if (decision instanceof AccessControl.Forbidden refused) {
      throw new Problem(403, refused.publicMessage());
    }
    // audited before the answer goes out, so that whoever got it finds the line
    exchange.beforeResponse(
        () -> check.completed(exchange.status() < 400, Integer.toString(exchange.status())));
    try {
      route.handler().handle(exchange);
    } catch (Problem problem) {
      check.completed(false, Integer.toString(problem.status()));
      throw problem;
    } catch (RuntimeException e) {
      check.completed(false, "500"); // the server answers it so
      throw e;
    } catch (IOException e) {
      check.completed(false, "no-answer"); // the connection failed
      throw e;
    }
    if (exchange.status() == 0) {
      check.completed(false, "500"); // the server answers a handler that did not
    }
  }

  /**
   * A browser sends {@code Origin} with every POST and DELETE. One that a page of another site
   * sends is refused before anything runs: that site could otherwise make the browser of an
   * operator who has the console open (or a gateway without authentication) take, delete or
   * restore. Callers that are not browsers (the CLI, curl, scripts) send no {@code Origin}.
   */
  private static void refuseForeignOrigin(Exchange exchange) {
    String method = exchange.method();
    String origin = exchange.requestHeader("Origin");
    if (origin == null || method.equals("GET") || method.equals("HEAD")) {
      return;
    }
    String host = exchange.requestHeader("Host");
    String authority;
    try {
      authority = URI.create(origin).getRawAuthority();
    } catch (IllegalArgumentException e) {
      authority = null;
    }
    if (host == null || authority == null || !authority.equalsIgnoreCase(host)) {
      throw new Problem(
          403,
          "Expected "
              + method
              + " requests from a browser to come from the gateway's own pages ("
              + host
              + "), but this one came from origin '"
              + ManagementHttpServer.shorten(origin)
              + "'; nothing was done");
    }
  }
}
