package io.cairn.transport;

import java.util.Objects;

/**
 * Where a member listens: a host name or IP literal and a TCP port.
 *
 * @param host host name or IP literal, never blank
 * @param port TCP port in [0, 65535]; 0 only for binding to an ephemeral port
 */
public record MemberAddress(String host, int port) {

  public MemberAddress {
    Objects.requireNonNull(host, "host");
    if (host.isBlank()) {
      throw new IllegalArgumentException("Expected a non-blank host, but was '" + host + "'");
    }
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException(
          "Expected a port in [0, 65535], but was " + port + " (host " + host + ")");
    }
  }

  /**
   * Parses {@code host:port}; an IPv6 literal is written in brackets ({@code [::1]:26502}).
   *
   * @throws IllegalArgumentException if the text is not of that form
   */
  public static MemberAddress parse(String text) {
    Objects.requireNonNull(text, "text");
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new IllegalArgumentException("Expected host:port, but was '" + text + "'");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Expected a numeric port in host:port, but was '" + text + "'", e);
    }
    return new MemberAddress(host, port);
  }

  @Override
  public String toString() {
    return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
  }
}
