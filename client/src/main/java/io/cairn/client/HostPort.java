package io.cairn.client;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code host:port} address: a host name, an IPv4 literal or a bracketed IPv6 literal ({@code
 * [::1]:26500}), and a port in [1, 65535].
 *
 * @param host the host, without brackets
 * @param port the port
 */
public record HostPort(String host, int port) {
  static final String RULE =
      "host:port (a host name, an IPv4 address or a bracketed IPv6 address) with a port in"
          + " [1, 65535]";
  private static final Pattern FORM =
      Pattern.compile("(?:\\[([0-9A-Fa-f:.%a-zA-Z]+)]|([A-Za-z0-9._-]+)):([0-9]{1,5})");

  /**
   * Parses {@code text}.
   *
   * @param field how the value is called in messages, e.g. {@code "gateway"}
   * @throws CairnClientException INVALID_ARGUMENT naming the rule and the value
   */
  public static HostPort parse(String field, String text) {
    if (text == null) {
      throw CairnClientException.invalid("Expected " + field + " " + RULE + ", but it is missing");
    }
    Matcher matcher = FORM.matcher(text.trim());
    if (matcher.matches()) {
      int port = Integer.parseInt(matcher.group(3));
      if (port >= 1 && port <= 65_535) {
        String host = matcher.group(1) != null ? matcher.group(1) : matcher.group(2);
        return new HostPort(host, port);
      }
    }
    throw CairnClientException.invalid(
        "Expected " + field + " " + RULE + ", but was " + Arguments.quote(text));
  }

  @Override
  public String toString() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}
