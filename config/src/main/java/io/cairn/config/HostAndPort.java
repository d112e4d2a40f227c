package io.cairn.config;

import java.util.Objects;

/**
 * A network address as written in configuration: {@code host:port}, an IPv6 host in brackets.
 *
 * @param host a host name or IP address, without brackets
 * @param port in [1, 65535]
 */
public record HostAndPort(String host, int port) {

  private static final int PORT_MAX = 65_535;

  public HostAndPort {
    Objects.requireNonNull(host, "host");
    if (host.isEmpty() || port < 1 || port > PORT_MAX) {
      throw new IllegalArgumentException(
          "Expected a host and a port in [1, 65535], but was '" + host + "' and " + port);
    }
  }

  /**
   * Parses {@code host:port} (the port after the last colon; {@code [::1]:26502} for IPv6).
   *
   * @return the address, or {@code null} when the text is not one
   */
  static HostAndPort parse(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      return null;
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      return null;
    }
    if (host.isEmpty() || port < 1 || port > PORT_MAX) {
      return null;
    }
    return new HostAndPort(host, port);
  }

  @Override
  public String toString() {
    return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
  }
}
