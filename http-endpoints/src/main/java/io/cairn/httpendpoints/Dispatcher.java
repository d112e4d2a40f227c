package io.cairn.httpendpoints;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.cairn.httpendpoints.Routes.Found;
import io.cairn.httpendpoints.Routes.Refused;
import io.cairn.httpendpoints.Routes.Resolution;
import io.cairn.scheduler.Clock;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * Answers one request after another: routes it, runs its handler, turns a {@link Problem} or an
 * unexpected exception into a problem answer, logs it and has it observed once.
 */
final class Dispatcher implements HttpHandler {
  private final Routes routes;
  private final int maxBodyBytes;
  private final String owner;
  private final Logger log;
  private final Clock clock;
  private final RequestObserver observer;
  private final RouteInterceptor interceptor;

  /**
   * @param clock times requests for the observer; null without one
   * @param observer null for none
   * @param interceptor runs in place of each route's handler; null for none
   */
  Dispatcher(
      Routes routes,
      int maxBodyBytes,
      String owner,
      Logger log,
      Clock clock,
      RequestObserver observer,
      RouteInterceptor interceptor) {
    this.routes = routes;
    this.maxBodyBytes = maxBodyBytes;
    this.owner = owner;
    this.log = log;
    this.clock = clock;
    this.observer = observer;
    this.interceptor = interceptor;
  }

  @Override
  public void handle(HttpExchange raw) throws IOException {
    Exchange exchange = new Exchange(raw, maxBodyBytes);
    Observation observation = new Observation(exchange);
    exchange.beforeResponse(observation::record);
    try {
      Resolution resolution = routes.resolve(exchange.method(), exchange.path());
      if (resolution instanceof Refused refused) {
        observation.operation = refused.operation();
        if (!refused.allowed().isEmpty()) {
          exchange.header("Allow", String.join(", ", refused.allowed()));
        }
        throw refused.problem();
      }
      Found found = (Found) resolution;
      observation.operation = Optional.of(found.route().operation());
      exchange.matched(found.match());
      if (interceptor == null) {
        found.route().handler().handle(exchange);
      } else {
        interceptor.intercept(exchange, found.route());
      }
      if (exchange.status() == 0) {
        throw new IllegalStateException(
            "Expected the handler of " + found.route().operation() + " to answer, but it did not");
      }
    } catch (Problem problem) {
      if (problem.status() >= 500) {
        log.warn("{} {}: {}", exchange.method(), exchange.path(), problem.getMessage());
      } else {
        log.debug("{} {}: {}", exchange.method(), exchange.path(), problem.getMessage());
      }
      if (exchange.status() == 0) {
        exchange.sendProblem(problem);
      }
    } catch (RuntimeException e) {
      observation.internal = true;
      log.warn("{} {} failed", exchange.method(), exchange.path(), e);
      if (exchange.status() == 0) {
        exchange.sendProblem(
            new Problem(
                500,
                "Expected "
                    + exchange.method()
                    + " "
                    + exchange.path()
                    + " to complete, but the "
                    + owner
                    + " failed: "
                    + e));
      }
    } finally {
      observation.record(); // when no answer went out (the connection failed first)
      raw.close(); // a no-op after an answer; else the connection is closed, not left hanging
    }
  }

  /** What the observer sees of one request, seen once. */
  private final class Observation {
    private final Exchange exchange;
    private final long startNanos;
    private Optional<String> operation = Optional.empty();
    private boolean internal;
    private boolean recorded;

    Observation(Exchange exchange) {
      this.exchange = exchange;
      this.startNanos = observer == null ? 0 : clock.nanos();
    }

    void record() {
      if (recorded || observer == null) {
        return;
      }
      recorded = true;
      observer.observe(operation, result(), Duration.ofNanos(clock.nanos() - startNanos));
    }

    private String result() {
      if (internal) {
        return RequestObserver.INTERNAL;
      }
      return exchange.status() >= 400 ? "http-" + exchange.status() : RequestObserver.OK;
    }
  }
}
