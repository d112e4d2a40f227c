package io.cairn.httpendpoints;

import java.io.IOException;

/**
 * Runs in place of every matched route's handler, to check a request before it is handled (who
 * calls, whether they may) and to see how it ended: it calls {@code
 * route.handler().handle(exchange)} to go on, or answers itself (throws a {@link Problem}, after
 * setting headers such as {@code WWW-Authenticate}). What a route requires is the interceptor's to
 * know, by the route's {@link Route#operation()}; this module knows nothing of credentials.
 *
 * <p>Not called for requests the routing table answers itself (404, 405). Called on the server's
 * executor, from several threads at once.
 */
@FunctionalInterface
public interface RouteInterceptor {

  /**
   * Handles one request of {@code route}.
   *
   * @throws Problem to answer with it instead of the handler
   * @throws IOException when the connection fails
   */
  void intercept(Exchange exchange, Route route) throws IOException;
}
