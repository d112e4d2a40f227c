package io.cairn.httpendpoints;

import java.io.IOException;

/** Answers one request of a route. */
@FunctionalInterface
public interface Handler {

  /**
   * Sends one answer on {@code exchange}, or throws a {@link Problem} for the server to send. Any
   * other {@code RuntimeException} is answered 500 and logged at WARN.
   *
   * @throws IOException when the connection fails; the server closes it
   */
  void handle(Exchange exchange) throws IOException;
}
