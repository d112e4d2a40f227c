package io.cairn.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A process's listeners that are reachable from beyond this machine without the safeguards that
 * make that safe: encryption (TLS) and authentication (credentials on every call). A listener bound
 * to anything but a loopback address and missing one of them lets whoever reaches the port read or
 * run what it serves: delete backups, pause exporting, or read the credentials of others. Such a
 * configuration is refused unless its {@code allowInsecure} key says the operator accepts it (a
 * private network, a proxy in front); then every start warns. A listener with every safeguard on is
 * not exposed, wherever it is bound.
 */
public final class ExposedListeners {

  private final String allowInsecureKey;

  /** The listeners not on a loopback address that miss a safeguard, in the order to report. */
  private final List<Listener> exposed;

  /**
   * Something that protects a listener's connections.
   *
   * @param quality what the connections are with it on: {@code encrypted}, {@code authenticated}
   * @param key the key that turns it on, named in the refusal; {@code null} when no key does yet
   */
  public record Safeguard(String quality, String key) {
    public Safeguard {
      Objects.requireNonNull(quality, "quality");
    }

    /** Encryption, turned on by {@code key} (or by nothing yet: {@code null}). */
    public static Safeguard encryption(String key) {
      return new Safeguard(ENCRYPTED, key);
    }

    /** Authentication, turned on by {@code key} (or by nothing yet: {@code null}). */
    public static Safeguard authentication(String key) {
      return new Safeguard(AUTHENTICATED, key);
    }
  }

  /**
   * One listener.
   *
   * @param hostKey the key of its bind address, for messages
   * @param host its bind address
   * @param missing the safeguards it lacks; empty when its connections are protected
   */
  public record Listener(String hostKey, String host, List<Safeguard> missing) {
    public Listener {
      Objects.requireNonNull(hostKey, "hostKey");
      Objects.requireNonNull(host, "host");
      missing = List.copyOf(missing);
    }
  }

  private static final String ENCRYPTED = "encrypted";
  private static final String AUTHENTICATED = "authenticated";

  private ExposedListeners(String allowInsecureKey, List<Listener> exposed) {
    this.allowInsecureKey = allowInsecureKey;
    this.exposed = exposed;
  }

  /**
   * Listeners of which none is encrypted or authenticated.
   *
   * @param allowInsecureKey the key that accepts exposed listeners, for messages
   * @param bindAddresses each listener's host key and its bind address, in the order to report
   */
  public static ExposedListeners of(String allowInsecureKey, Map<String, String> bindAddresses) {
    List<Safeguard> none = List.of(Safeguard.encryption(null), Safeguard.authentication(null));
    List<Listener> listeners = new ArrayList<>();
    bindAddresses.forEach((key, host) -> listeners.add(new Listener(key, host, none)));
    return of(allowInsecureKey, listeners);
  }

  /**
   * Listeners, each with the safeguards it lacks.
   *
   * @param allowInsecureKey the key that accepts exposed listeners, for messages
   * @param listeners in the order to report
   */
  public static ExposedListeners of(String allowInsecureKey, List<Listener> listeners) {
    List<Listener> exposed = new ArrayList<>();
    for (Listener listener : listeners) {
      if (!listener.missing().isEmpty() && !isLoopback(listener.host())) {
        exposed.add(listener);
      }
    }
    return new ExposedListeners(allowInsecureKey, List.copyOf(exposed));
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

  /**
   * The refusal when a listener is exposed and {@code allowInsecure} is false: one sentence for the
   * listeners that lack the same safeguards, naming the keys that turn them on.
   */
  public Optional<String> refusal(boolean allowInsecure) {
    if (allowInsecure || exposed.isEmpty()) {
      return Optional.empty();
    }
    List<String> sentences = new ArrayList<>();
    byMissing()
        .forEach(
            (missing, listeners) -> {
              List<String> keys =
                  missing.stream().map(Safeguard::key).filter(Objects::nonNull).distinct().toList();
              sentences.add(
                  "Expected "
                      + describe(listeners)
                      + " to be a loopback address (127.0.0.1, ::1, localhost), since its"
                      + " connections are "
                      + lacking(missing)
                      + ", but "
                      + (listeners.size() == 1 ? "it is not" : "they are not")
                      + ". "
                      + (keys.isEmpty()
                          ? "Bind a loopback address"
                          : "Set "
                              + keys.stream()
                                  .map(k -> k + ": true")
                                  .collect(Collectors.joining(" and "))
                              + ", bind a loopback address")
                      + ", or set "
                      + allowInsecureKey
                      + ": true to accept "
                      + adjectives(missing)
                      + " listeners on the network");
            });
    return Optional.of(String.join("; ", sentences));
  }

  /** The warning every start logs when exposed listeners are allowed. */
  public String warning() {
    List<String> sentences = new ArrayList<>();
    byMissing()
        .forEach(
            (missing, listeners) ->
                sentences.add(
                    "Serving "
                        + adjectives(missing)
                        + " connections beyond this machine on "
                        + describe(listeners)
                        + " ("
                        + allowInsecureKey
                        + ": true): "
                        + (missing.stream().anyMatch(s -> s.quality().equals(AUTHENTICATED))
                            ? "whoever reaches these ports can run every operation, backups and"
                                + " their deletion included"
                            : "whoever sees this traffic can read the credentials and data it"
                                + " carries")));
    return String.join("; ", sentences);
  }

  /** The exposed listeners grouped by what they lack, in the order of their first listener. */
  private Map<List<Safeguard>, List<Listener>> byMissing() {
    Map<List<Safeguard>, List<Listener>> groups = new LinkedHashMap<>();
    for (Listener listener : exposed) {
      groups.computeIfAbsent(listener.missing(), ignored -> new ArrayList<>()).add(listener);
    }
    return groups;
  }

  /** "neither encrypted nor authenticated", "not authenticated". */
  private static String lacking(List<Safeguard> missing) {
    List<String> qualities = missing.stream().map(Safeguard::quality).distinct().toList();
    if (qualities.size() == 1) {
      return "not " + qualities.get(0);
    }
    return "neither "
        + String.join(", ", qualities.subList(0, qualities.size() - 1))
        + " nor "
        + qualities.get(qualities.size() - 1);
  }

  /** "plaintext, unauthenticated", "plaintext", "unauthenticated". */
  private static String adjectives(List<Safeguard> missing) {
    return missing.stream()
        .map(Safeguard::quality)
        .distinct()
        .map(
            quality ->
                switch (quality) {
                  case ENCRYPTED -> "plaintext";
                  case AUTHENTICATED -> "unauthenticated";
                  default -> "not " + quality;
                })
        .collect(Collectors.joining(", "));
  }

  private static String describe(List<Listener> listeners) {
    return listeners.stream()
        .map(listener -> listener.hostKey() + " " + listener.host())
        .collect(Collectors.joining(", "));
  }
}
