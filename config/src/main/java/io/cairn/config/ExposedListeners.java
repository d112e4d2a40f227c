package io.cairn.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A process's listeners that accept plaintext, unauthenticated connections from beyond this
 * machine. Nothing Cairn serves is protected yet (no TLS, no authentication), so a listener bound
 * to anything but a loopback address lets whoever reaches the port delete backups or pause
 * exporting. Such a configuration is refused unless its {@code allowInsecure} key says the operator
 * accepts it (a private network, a proxy in front); then every start warns.
 */
public final class ExposedListeners {

  private final String allowInsecureKey;

  /** Listener key → bind address, for the listeners not on a loopback address. */
  private final Map<String, String> exposed;

  private ExposedListeners(String allowInsecureKey, Map<String, String> exposed) {
    this.allowInsecureKey = allowInsecureKey;
    this.exposed = exposed;
  }

  /**
   * @param allowInsecureKey the key that accepts exposed listeners, for messages
   * @param bindAddresses each listener's host key and its bind address, in the order to report
   */
  public static ExposedListeners of(String allowInsecureKey, Map<String, String> bindAddresses) {
    Map<String, String> exposed = new LinkedHashMap<>();
    bindAddresses.forEach(
        (key, host) -> {
          if (!isLoopback(host)) {
            exposed.put(key, host);
          }
        });
    return new ExposedListeners(allowInsecureKey, exposed);
  }

  /**
   * Whether {@code host} names only this machine: {@code localhost} or a loopback address. A name
   * that does not resolve counts as exposed (the bind fails anyway, with its own message).
   */
  public static boolean isLoopback(String host) {
    if (host.equalsIgnoreCase("localhost")) {
      return true;
    }
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  public boolean any() {
    return !exposed.isEmpty();
  }

  /** The refusal when a listener is exposed and {@code allowInsecure} is false. */
  public Optional<String> refusal(boolean allowInsecure) {
    if (allowInsecure || exposed.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "Expected "
            + describe()
            + " to be a loopback address (127.0.0.1, ::1, localhost), since its connections are"
            + " neither encrypted nor authenticated, but "
            + (exposed.size() == 1 ? "it is not" : "they are not")
            + ". Bind a loopback address, or set "
            + allowInsecureKey
            + ": true to accept plaintext, unauthenticated listeners on the network");
  }

  /** The warning every start logs when exposed listeners are allowed. */
  public String warning() {
    return "Serving plaintext, unauthenticated connections beyond this machine on "
        + describe()
        + " ("
        + allowInsecureKey
        + ": true): whoever reaches these ports can run every operation, backups and their"
        + " deletion included";
  }

  private String describe() {
    return exposed.entrySet().stream()
        .map(e -> e.getKey() + " " + e.getValue())
        .collect(Collectors.joining(", "));
  }
}
