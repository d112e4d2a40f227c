package io.cairn.gateway;

import io.cairn.auth.AuthSettings;
import io.cairn.config.ExposedListeners;
import io.cairn.config.ExposedListeners.Listener;
import io.cairn.config.ExposedListeners.Safeguard;
import io.cairn.tls.TlsFiles;
import io.cairn.transport.MemberAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Immutable, validated settings of a {@link Gateway}. Build with {@link #builder()}; {@link
 * Builder#build()} checks every key and lists every violation in one message, each naming the key,
 * the bad value and the allowed range.
 *
 * <table>
 *   <caption>Keys</caption>
 *   <tr><th>key</th><th>default</th><th>allowed</th></tr>
 *   <tr><td>nodeId</td><td>{@value #DEFAULT_NODE_ID}</td><td>&gt;= 0, not a broker's id</td></tr>
 *   <tr><td>brokers</td><td>—</td><td>nodeId → host:port of each broker's transport, at least
 *       one</td></tr>
 *   <tr><td>transportHost / transportPort</td><td>127.0.0.1 / 0</td><td>the gateway's own
 *       transport endpoint (0 = ephemeral; the gateway only sends requests)</td></tr>
 *   <tr><td>grpcHost / grpcPort</td><td>127.0.0.1 / {@value #DEFAULT_GRPC_PORT}</td><td>port
 *       0..65535, 0 = ephemeral</td></tr>
 *   <tr><td>httpHost / httpPort</td><td>127.0.0.1 / {@value #DEFAULT_HTTP_PORT}</td><td>port
 *       0..65535, 0 = ephemeral</td></tr>
 *   <tr><td>allowInsecure</td><td>false</td><td>a host above that is not a loopback address is
 *       refused unless this is true, or unless its listener is protected: gRPC and HTTP with TLS
 *       and authentication on, the transport with TLS on</td></tr>
 *   <tr><td>tls</td><td>none</td><td>the gateway's certificate, key and the cluster's CA: gRPC and
 *       HTTP serve TLS, connections to brokers are mutual TLS</td></tr>
 *   <tr><td>auth</td><td>off</td><td>{@link AuthSettings} (keys under {@value
 *       #AUTH_KEY_PREFIX}): credentials on every gRPC call and management request but health and
 *       metrics</td></tr>
 *   <tr><td>requestTimeout</td><td>15 s</td><td>100 ms .. 10 min; the longest a request waits,
 *       also when the client's deadline is later</td></tr>
 *   <tr><td>topologyRefreshInterval</td><td>1 s</td><td>10 ms .. 1 min</td></tr>
 *   <tr><td>retryBackoffMin / retryBackoffMax</td><td>50 ms / 1 s</td><td>1 ms .. 1 min, min
 *       &lt;= max</td></tr>
 *   <tr><td>maxRetries</td><td>{@value #DEFAULT_MAX_RETRIES}</td><td>0 .. 100 retries after the
 *       first attempt</td></tr>
 *   <tr><td>maxMessageSizeBytes</td><td>64 KiB</td><td>1 KiB .. 16 MiB, inbound gRPC
 *       messages</td></tr>
 *   <tr><td>httpMaxBodyBytes</td><td>16 KiB</td><td>256 B .. 1 MiB, management HTTP request
 *       bodies</td></tr>
 *   <tr><td>maxPendingRequests</td><td>{@value #DEFAULT_MAX_PENDING_REQUESTS}</td><td>1 ..
 *       1000000, queued work before RESOURCE_EXHAUSTED</td></tr>
 * </table>
 */
public final class GatewayConfig {
  public static final int DEFAULT_NODE_ID = 1000;
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_GRPC_PORT = 26500;
  public static final int DEFAULT_HTTP_PORT = 9600;
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(15);
  public static final Duration DEFAULT_TOPOLOGY_REFRESH_INTERVAL = Duration.ofSeconds(1);
  public static final Duration DEFAULT_RETRY_BACKOFF_MIN = Duration.ofMillis(50);
  public static final Duration DEFAULT_RETRY_BACKOFF_MAX = Duration.ofSeconds(1);
  public static final int DEFAULT_MAX_RETRIES = 10;
  public static final int DEFAULT_MAX_MESSAGE_SIZE_BYTES = 64 * 1024;
  public static final int DEFAULT_HTTP_MAX_BODY_BYTES = 16 * 1024;
  public static final int DEFAULT_MAX_PENDING_REQUESTS = 10_000;

  /** What the gateway's file puts before {@link AuthSettings}' keys. */
  public static final String AUTH_KEY_PREFIX = "gateway.";

  private static final String ALLOW_INSECURE_KEY = "gateway.security.allowInsecure";
  private static final Safeguard TLS = Safeguard.encryption("gateway.security.tls.enabled");
  private static final Safeguard AUTHENTICATION =
      Safeguard.authentication(AUTH_KEY_PREFIX + AuthSettings.KEY_ENABLED);
  private static final Safeguard TRANSPORT_AUTHENTICATION =
      Safeguard.authentication("gateway.security.tls.enabled");

  private final int nodeId;
  private final Map<Integer, MemberAddress> brokers;
  private final String transportHost;
  private final int transportPort;
  private final String grpcHost;
  private final int grpcPort;
  private final String httpHost;
  private final boolean allowInsecure;
  private final Optional<TlsFiles> tls;
  private final AuthSettings auth;
  private final int httpPort;
  private final Duration requestTimeout;
  private final Duration topologyRefreshInterval;
  private final Duration retryBackoffMin;
  private final Duration retryBackoffMax;
  private final int maxRetries;
  private final int maxMessageSizeBytes;
  private final int httpMaxBodyBytes;
  private final int maxPendingRequests;

  private GatewayConfig(Builder b) {
    this.nodeId = b.nodeId;
    this.brokers = Collections.unmodifiableMap(new TreeMap<>(b.brokers));
    this.transportHost = b.transportHost;
    this.transportPort = b.transportPort;
    this.grpcHost = b.grpcHost;
    this.grpcPort = b.grpcPort;
    this.httpHost = b.httpHost;
    this.allowInsecure = b.allowInsecure;
    this.tls = b.tls;
    this.auth = b.auth;
    this.httpPort = b.httpPort;
    this.requestTimeout = b.requestTimeout;
    this.topologyRefreshInterval = b.topologyRefreshInterval;
    this.retryBackoffMin = b.retryBackoffMin;
    this.retryBackoffMax = b.retryBackoffMax;
    this.maxRetries = b.maxRetries;
    this.maxMessageSizeBytes = b.maxMessageSizeBytes;
    this.httpMaxBodyBytes = b.httpMaxBodyBytes;
    this.maxPendingRequests = b.maxPendingRequests;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder preset with this configuration. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.nodeId = nodeId;
    b.brokers.putAll(brokers);
    b.transportHost = transportHost;
    b.transportPort = transportPort;
    b.grpcHost = grpcHost;
    b.grpcPort = grpcPort;
    b.httpHost = httpHost;
    b.allowInsecure = allowInsecure;
    b.tls = tls;
    b.auth = auth;
    b.httpPort = httpPort;
    b.requestTimeout = requestTimeout;
    b.topologyRefreshInterval = topologyRefreshInterval;
    b.retryBackoffMin = retryBackoffMin;
    b.retryBackoffMax = retryBackoffMax;
    b.maxRetries = maxRetries;
    b.maxMessageSizeBytes = maxMessageSizeBytes;
    b.httpMaxBodyBytes = httpMaxBodyBytes;
    b.maxPendingRequests = maxPendingRequests;
    return b;
  }

  /** The gateway's node id on the transport; distinct from every broker's. */
  public int nodeId() {
    return nodeId;
  }

  /** Broker node id → transport address, sorted by node id. */
  public Map<Integer, MemberAddress> brokers() {
    return brokers;
  }

  public String transportHost() {
    return transportHost;
  }

  public int transportPort() {
    return transportPort;
  }

  public String grpcHost() {
    return grpcHost;
  }

  public int grpcPort() {
    return grpcPort;
  }

  public String httpHost() {
    return httpHost;
  }

  public boolean allowInsecure() {
    return allowInsecure;
  }

  /** The TLS files, when TLS is on. */
  public Optional<TlsFiles> tls() {
    return tls;
  }

  /** Who may call: credentials and roles, or off (every caller the anonymous admin). */
  public AuthSettings auth() {
    return auth;
  }

  /**
   * The listeners on a non-loopback address that are not protected: refused unless {@link
   * #allowInsecure()}. gRPC and HTTP are protected with TLS and authentication on; the transport
   * with TLS on (mutual TLS: it admits only members with a certificate of the cluster's CA).
   */
  public ExposedListeners exposedListeners() {
    return exposedListeners(transportHost, grpcHost, httpHost, tls.isPresent(), auth.enabled());
  }

  private static ExposedListeners exposedListeners(
      String transportHost,
      String grpcHost,
      String httpHost,
      boolean tlsEnabled,
      boolean authEnabled) {
    List<Safeguard> clientListeners = new ArrayList<>();
    if (!tlsEnabled) {
      clientListeners.add(TLS);
    }
    if (!authEnabled) {
      clientListeners.add(AUTHENTICATION);
    }
    return ExposedListeners.of(
        ALLOW_INSECURE_KEY,
        List.of(
            // mutual TLS: only members with a certificate of the cluster's CA get in
            new Listener(
                "gateway.transport.host",
                transportHost,
                tlsEnabled ? List.of() : List.of(TLS, TRANSPORT_AUTHENTICATION)),
            new Listener("gateway.grpc.host", grpcHost, clientListeners),
            new Listener("gateway.http.host", httpHost, clientListeners)));
  }

  public int httpPort() {
    return httpPort;
  }

  public Duration requestTimeout() {
    return requestTimeout;
  }

  public Duration topologyRefreshInterval() {
    return topologyRefreshInterval;
  }

  public Duration retryBackoffMin() {
    return retryBackoffMin;
  }

  public Duration retryBackoffMax() {
    return retryBackoffMax;
  }

  public int maxRetries() {
    return maxRetries;
  }

  public int maxMessageSizeBytes() {
    return maxMessageSizeBytes;
  }

  public int httpMaxBodyBytes() {
    return httpMaxBodyBytes;
  }

  public int maxPendingRequests() {
    return maxPendingRequests;
  }

  @Override
  public String toString() {
    return "GatewayConfig{nodeId="
        + nodeId
        + ", brokers="
        + brokers
        + ", transport="
        + transportHost
        + ":"
        + transportPort
        + ", grpc="
        + grpcHost
        + ":"
        + grpcPort
        + ", http="
        + httpHost
        + ":"
        + httpPort
        + ", requestTimeout="
        + requestTimeout
        + ", topologyRefreshInterval="
        + topologyRefreshInterval
        + ", retryBackoff="
        + retryBackoffMin
        + ".."
        + retryBackoffMax
        + ", maxRetries="
        + maxRetries
        + ", maxMessageSizeBytes="
        + maxMessageSizeBytes
        + ", httpMaxBodyBytes="
        + httpMaxBodyBytes
        + ", maxPendingRequests="
        + maxPendingRequests
        + ", tls="
        + (tls.isPresent() ? "on" : "off")
        + ", auth="
        + (auth.enabled() ? "on" : "off")
        + "}";
  }

  /** Builds a {@link GatewayConfig}; every setter has a default except {@link #broker}. */
  public static final class Builder {
    private int nodeId = DEFAULT_NODE_ID;
    private final Map<Integer, MemberAddress> brokers = new TreeMap<>();
    private String transportHost = DEFAULT_HOST;
    private int transportPort = 0;
    private String grpcHost = DEFAULT_HOST;
    private int grpcPort = DEFAULT_GRPC_PORT;
    private String httpHost = DEFAULT_HOST;
    private boolean allowInsecure;
    private Optional<TlsFiles> tls = Optional.empty();
    private AuthSettings auth = AuthSettings.builder().keyPrefix(AUTH_KEY_PREFIX).build();
    private int httpPort = DEFAULT_HTTP_PORT;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private Duration topologyRefreshInterval = DEFAULT_TOPOLOGY_REFRESH_INTERVAL;
    private Duration retryBackoffMin = DEFAULT_RETRY_BACKOFF_MIN;
    private Duration retryBackoffMax = DEFAULT_RETRY_BACKOFF_MAX;
    private int maxRetries = DEFAULT_MAX_RETRIES;
    private int maxMessageSizeBytes = DEFAULT_MAX_MESSAGE_SIZE_BYTES;
    private int httpMaxBodyBytes = DEFAULT_HTTP_MAX_BODY_BYTES;
    private int maxPendingRequests = DEFAULT_MAX_PENDING_REQUESTS;

    private Builder() {}

    public Builder nodeId(int nodeId) {
      this.nodeId = nodeId;
      return this;
    }

    /** Adds (or replaces) a broker's transport address. */
    public Builder broker(int nodeId, MemberAddress address) {
      brokers.put(nodeId, Objects.requireNonNull(address, "address"));
      return this;
    }

    /** Replaces every broker address. */
    public Builder brokers(Map<Integer, MemberAddress> addresses) {
      brokers.clear();
      addresses.forEach(this::broker);
      return this;
    }

    public Builder transportHost(String host) {
      this.transportHost = host;
      return this;
    }

    public Builder transportPort(int port) {
      this.transportPort = port;
      return this;
    }

    public Builder grpcHost(String host) {
      this.grpcHost = host;
      return this;
    }

    public Builder grpcPort(int port) {
      this.grpcPort = port;
      return this;
    }

    public Builder httpHost(String host) {
      this.httpHost = host;
      return this;
    }

    public Builder httpPort(int port) {
      this.httpPort = port;
      return this;
    }

    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = timeout;
      return this;
    }

    public Builder topologyRefreshInterval(Duration interval) {
      this.topologyRefreshInterval = interval;
      return this;
    }

    public Builder retryBackoffMin(Duration backoff) {
      this.retryBackoffMin = backoff;
      return this;
    }

    public Builder retryBackoffMax(Duration backoff) {
      this.retryBackoffMax = backoff;
      return this;
    }

    public Builder maxRetries(int retries) {
      this.maxRetries = retries;
      return this;
    }

    public Builder maxMessageSizeBytes(int bytes) {
      this.maxMessageSizeBytes = bytes;
      return this;
    }

    public Builder httpMaxBodyBytes(int bytes) {
      this.httpMaxBodyBytes = bytes;
      return this;
    }

    public Builder maxPendingRequests(int requests) {
      this.maxPendingRequests = requests;
      return this;
    }

    /**
     * @throws IllegalArgumentException listing every violated rule, each as "Expected &lt;key&gt;
     *     &lt;rule&gt;, but was &lt;value&gt; (gateway config)"
     */
    public GatewayConfig build() {
      List<String> violations = new ArrayList<>();
      if (nodeId < 0) {
        violations.add(violation("nodeId >= 0", nodeId));
      }
      if (brokers.isEmpty()) {
        violations.add(violation("brokers to list at least one broker", "none"));
      }
      brokers.forEach(
          (id, address) -> {
            if (id < 0) {
              violations.add(violation("broker node ids >= 0", id));
            }
            if (address.port() < 1) {
              violations.add(violation("broker " + id + " port in [1, 65535]", address.port()));
            }
          });
      if (brokers.containsKey(nodeId)) {
        violations.add(violation("nodeId distinct from every broker's node id", nodeId));
      }
      host("transportHost", transportHost, violations);
      host("grpcHost", grpcHost, violations);
      host("httpHost", httpHost, violations);
      port("transportPort", transportPort, violations);
      port("grpcPort", grpcPort, violations);
      port("httpPort", httpPort, violations);
      duration(
          "requestTimeout",
          requestTimeout,
          Duration.ofMillis(100),
          Duration.ofMinutes(10),
          violations);
      duration(
          "topologyRefreshInterval",
          topologyRefreshInterval,
          Duration.ofMillis(10),
          Duration.ofMinutes(1),
          violations);
      duration(
          "retryBackoffMin",
          retryBackoffMin,
          Duration.ofMillis(1),
          Duration.ofMinutes(1),
          violations);
      duration(
          "retryBackoffMax",
          retryBackoffMax,
          Duration.ofMillis(1),
          Duration.ofMinutes(1),
          violations);
      if (retryBackoffMin != null
          && retryBackoffMax != null
          && retryBackoffMin.compareTo(retryBackoffMax) > 0) {
        violations.add(
            violation("retryBackoffMin <= retryBackoffMax " + retryBackoffMax, retryBackoffMin));
      }
      range("maxRetries", maxRetries, 0, 100, violations);
      range("maxMessageSizeBytes", maxMessageSizeBytes, 1024, 16 * 1024 * 1024, violations);
      range("httpMaxBodyBytes", httpMaxBodyBytes, 256, 1024 * 1024, violations);
      range("maxPendingRequests", maxPendingRequests, 1, 1_000_000, violations);
      if (violations.isEmpty()) {
        exposedListeners(transportHost, grpcHost, httpHost, tls.isPresent(), auth.enabled())
            .refusal(allowInsecure)
            .ifPresent(violations::add);
      }
      if (!violations.isEmpty()) {
        throw new IllegalArgumentException(String.join("; ", violations));
      }
      return new GatewayConfig(this);
    }

    /** Accepts listeners on non-loopback addresses, unprotected as they are. */
    public Builder allowInsecure(boolean allow) {
      allowInsecure = allow;
      return this;
    }

    /** TLS on every listener and mutual TLS to the brokers with these files; empty: plaintext. */
    public Builder tls(Optional<TlsFiles> files) {
      tls = java.util.Objects.requireNonNull(files, "tls");
      return this;
    }

    /**
     * Who may call; default off ({@link AuthSettings} with key prefix {@value #AUTH_KEY_PREFIX},
     * not enabled).
     */
    public Builder auth(AuthSettings settings) {
      auth = Objects.requireNonNull(settings, "auth");
      return this;
    }

    private static void host(String key, String host, List<String> out) {
      if (host == null || host.isBlank()) {
        out.add(violation(key + " to be a non-blank host name or IP literal", "'" + host + "'"));
      }
    }

    private static void port(String key, int port, List<String> out) {
      range(key, port, 0, 65_535, out);
    }

    private static void range(String key, int value, int min, int max, List<String> out) {
      if (value < min || value > max) {
        out.add(violation(key + " in [" + min + ", " + max + "]", value));
      }
    }

    private static void duration(
        String key, Duration value, Duration min, Duration max, List<String> out) {
      if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
        out.add(violation(key + " in [" + min + ", " + max + "]", value));
      }
    }

    private static String violation(String rule, Object actual) {
      return "Expected " + rule + ", but was " + actual + " (gateway config)";
    }
  }
}
