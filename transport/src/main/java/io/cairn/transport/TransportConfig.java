package io.cairn.transport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Immutable, validated settings of a member's messaging service. Build with {@link #builder(int)};
 * {@link Builder#build()} checks every key and lists every violation in one {@link
 * IllegalArgumentException}.
 *
 * <table>
 *   <caption>Keys</caption>
 *   <tr><th>key</th><th>default</th><th>allowed</th></tr>
 *   <tr><td>localNodeId</td><td>(required)</td><td>&ge; 0</td></tr>
 *   <tr><td>bindHost</td><td>127.0.0.1</td><td>non-blank</td></tr>
 *   <tr><td>bindPort</td><td>26502</td><td>[0, 65535]; 0 picks an ephemeral port</td></tr>
 *   <tr><td>members</td><td>empty</td><td>node id (&ge; 0) &rarr; host:port (port &gt; 0)</td></tr>
 *   <tr><td>maxFrameSizeBytes</td><td>4 MiB</td><td>[1 KiB, 256 MiB]</td></tr>
 *   <tr><td>connectTimeout</td><td>5 s</td><td>[1 ms, 5 min]</td></tr>
 *   <tr><td>reconnectBackoffMin</td><td>100 ms</td><td>[1 ms, reconnectBackoffMax]</td></tr>
 *   <tr><td>reconnectBackoffMax</td><td>10 s</td><td>[reconnectBackoffMin, 10 min]</td></tr>
 *   <tr><td>ioThreadCount</td><td>2</td><td>[1, 64]</td></tr>
 *   <tr><td>shutdownTimeout</td><td>5 s</td><td>[0, 5 min]</td></tr>
 * </table>
 */
public final class TransportConfig {

  public static final String DEFAULT_BIND_HOST = "127.0.0.1";
  public static final int DEFAULT_BIND_PORT = 26502;
  public static final int DEFAULT_MAX_FRAME_SIZE_BYTES = 4 * 1024 * 1024;
  public static final int MIN_MAX_FRAME_SIZE_BYTES = 1024;
  public static final int MAX_MAX_FRAME_SIZE_BYTES = 256 * 1024 * 1024;
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_RECONNECT_BACKOFF_MIN = Duration.ofMillis(100);
  public static final Duration DEFAULT_RECONNECT_BACKOFF_MAX = Duration.ofSeconds(10);
  public static final int DEFAULT_IO_THREAD_COUNT = 2;
  public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);

  private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration MAX_RECONNECT_BACKOFF = Duration.ofMinutes(10);
  private static final Duration MAX_SHUTDOWN_TIMEOUT = Duration.ofMinutes(5);
  private static final int MAX_IO_THREAD_COUNT = 64;

  private final int localNodeId;
  private final String bindHost;
  private final int bindPort;
  private final Map<Integer, MemberAddress> members;
  private final int maxFrameSizeBytes;
  private final Duration connectTimeout;
  private final Duration reconnectBackoffMin;
  private final Duration reconnectBackoffMax;
  private final int ioThreadCount;
  private final Duration shutdownTimeout;

  private TransportConfig(Builder builder) {
    localNodeId = builder.localNodeId;
    bindHost = builder.bindHost;
    bindPort = builder.bindPort;
    members = Map.copyOf(builder.members);
    maxFrameSizeBytes = builder.maxFrameSizeBytes;
    connectTimeout = builder.connectTimeout;
    reconnectBackoffMin = builder.reconnectBackoffMin;
    reconnectBackoffMax = builder.reconnectBackoffMax;
    ioThreadCount = builder.ioThreadCount;
    shutdownTimeout = builder.shutdownTimeout;
  }

  /** A builder with every default set, for the member {@code localNodeId}. */
  public static Builder builder(int localNodeId) {
    return new Builder(localNodeId);
  }

  /** A builder holding this config's values. */
  public Builder toBuilder() {
    Builder builder =
        new Builder(localNodeId)
            .bindHost(bindHost)
            .bindPort(bindPort)
            .maxFrameSizeBytes(maxFrameSizeBytes)
            .connectTimeout(connectTimeout)
            .reconnectBackoffMin(reconnectBackoffMin)
            .reconnectBackoffMax(reconnectBackoffMax)
            .ioThreadCount(ioThreadCount)
            .shutdownTimeout(shutdownTimeout);
    builder.members.putAll(members);
    return builder;
  }

  public int localNodeId() {
    return localNodeId;
  }

  public String bindHost() {
    return bindHost;
  }

  public int bindPort() {
    return bindPort;
  }

  /** The known members' addresses by node id; may contain the local member. Unmodifiable. */
  public Map<Integer, MemberAddress> members() {
    return members;
  }

  /** Largest frame, header included, that is sent or accepted. */
  public int maxFrameSizeBytes() {
    return maxFrameSizeBytes;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  /** Wait after the first failed connection attempt; doubled after each further failure. */
  public Duration reconnectBackoffMin() {
    return reconnectBackoffMin;
  }

  /** Upper bound of the wait between connection attempts. */
  public Duration reconnectBackoffMax() {
    return reconnectBackoffMax;
  }

  /** Netty event loop threads (accepting, reading, writing; never handlers). */
  public int ioThreadCount() {
    return ioThreadCount;
  }

  /** How long {@code close()} waits for the event loops to stop. */
  public Duration shutdownTimeout() {
    return shutdownTimeout;
  }

  @Override
  public String toString() {
    return "TransportConfig{localNodeId="
        + localNodeId
        + ", bind="
        + bindHost
        + ":"
        + bindPort
        + ", members="
        + new TreeMap<>(members)
        + ", maxFrameSizeBytes="
        + maxFrameSizeBytes
        + ", connectTimeout="
        + connectTimeout
        + ", reconnectBackoff=["
        + reconnectBackoffMin
        + ", "
        + reconnectBackoffMax
        + "], ioThreadCount="
        + ioThreadCount
        + ", shutdownTimeout="
        + shutdownTimeout
        + '}';
  }

  /** Mutable builder; {@link #build()} validates. */
  public static final class Builder {
    private final int localNodeId;
    private String bindHost = DEFAULT_BIND_HOST;
    private int bindPort = DEFAULT_BIND_PORT;
    private final Map<Integer, MemberAddress> members = new TreeMap<>();
    private int maxFrameSizeBytes = DEFAULT_MAX_FRAME_SIZE_BYTES;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Duration reconnectBackoffMin = DEFAULT_RECONNECT_BACKOFF_MIN;
    private Duration reconnectBackoffMax = DEFAULT_RECONNECT_BACKOFF_MAX;
    private int ioThreadCount = DEFAULT_IO_THREAD_COUNT;
    private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;

    private Builder(int localNodeId) {
      this.localNodeId = localNodeId;
    }

    public Builder bindHost(String bindHost) {
      this.bindHost = bindHost;
      return this;
    }

    public Builder bindPort(int bindPort) {
      this.bindPort = bindPort;
      return this;
    }

    /** Adds or replaces the address of one member. */
    public Builder member(int nodeId, MemberAddress address) {
      members.put(nodeId, Objects.requireNonNull(address, "address"));
      return this;
    }

    /** Replaces every member address. */
    public Builder members(Map<Integer, MemberAddress> addresses) {
      members.clear();
      addresses.forEach(this::member);
      return this;
    }

    public Builder maxFrameSizeBytes(int maxFrameSizeBytes) {
      this.maxFrameSizeBytes = maxFrameSizeBytes;
      return this;
    }

    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = connectTimeout;
      return this;
    }

    public Builder reconnectBackoffMin(Duration reconnectBackoffMin) {
      this.reconnectBackoffMin = reconnectBackoffMin;
      return this;
    }

    public Builder reconnectBackoffMax(Duration reconnectBackoffMax) {
      this.reconnectBackoffMax = reconnectBackoffMax;
      return this;
    }

    public Builder ioThreadCount(int ioThreadCount) {
      this.ioThreadCount = ioThreadCount;
      return this;
    }

    public Builder shutdownTimeout(Duration shutdownTimeout) {
      this.shutdownTimeout = shutdownTimeout;
      return this;
    }

    /**
     * Validates every key and returns the config.
     *
     * @throws IllegalArgumentException listing every violation
     */
    public TransportConfig build() {
      List<String> violations = new ArrayList<>();
      String context = " (transport config of node " + localNodeId + ")";
      if (localNodeId < 0) {
        violations.add("Expected localNodeId >= 0, but was " + localNodeId + context);
      }
      if (bindHost == null || bindHost.isBlank()) {
        violations.add("Expected bindHost to be non-blank, but was '" + bindHost + "'" + context);
      }
      if (bindPort < 0 || bindPort > 65_535) {
        violations.add("Expected bindPort in [0, 65535], but was " + bindPort + context);
      }
      members.forEach(
          (nodeId, address) -> {
            if (nodeId == null || nodeId < 0) {
              violations.add("Expected members keys >= 0, but was " + nodeId + context);
            } else if (address.port() == 0) {
              violations.add(
                  "Expected members."
                      + nodeId
                      + " to have a port in [1, 65535], but was "
                      + address
                      + context);
            }
          });
      if (maxFrameSizeBytes < MIN_MAX_FRAME_SIZE_BYTES
          || maxFrameSizeBytes > MAX_MAX_FRAME_SIZE_BYTES) {
        violations.add(
            "Expected maxFrameSizeBytes in ["
                + MIN_MAX_FRAME_SIZE_BYTES
                + ", "
                + MAX_MAX_FRAME_SIZE_BYTES
                + "], but was "
                + maxFrameSizeBytes
                + context);
      }
      Duration oneMilli = Duration.ofMillis(1);
      checkDuration(
          violations, "connectTimeout", connectTimeout, oneMilli, MAX_CONNECT_TIMEOUT, context);
      checkDuration(
          violations,
          "reconnectBackoffMin",
          reconnectBackoffMin,
          oneMilli,
          MAX_RECONNECT_BACKOFF,
          context);
      checkDuration(
          violations,
          "reconnectBackoffMax",
          reconnectBackoffMax,
          oneMilli,
          MAX_RECONNECT_BACKOFF,
          context);
      if (reconnectBackoffMin != null
          && reconnectBackoffMax != null
          && reconnectBackoffMin.compareTo(reconnectBackoffMax) > 0) {
        violations.add(
            "Expected reconnectBackoffMin <= reconnectBackoffMax, but was "
                + reconnectBackoffMin
                + " > "
                + reconnectBackoffMax
                + context);
      }
      if (ioThreadCount < 1 || ioThreadCount > MAX_IO_THREAD_COUNT) {
        violations.add(
            "Expected ioThreadCount in [1, "
                + MAX_IO_THREAD_COUNT
                + "], but was "
                + ioThreadCount
                + context);
      }
      checkDuration(
          violations,
          "shutdownTimeout",
          shutdownTimeout,
          Duration.ZERO,
          MAX_SHUTDOWN_TIMEOUT,
          context);
      if (!violations.isEmpty()) {
        throw new IllegalArgumentException(String.join("; ", violations));
      }
      return new TransportConfig(this);
    }

    private static void checkDuration(
        List<String> violations,
        String key,
        Duration value,
        Duration min,
        Duration max,
        String context) {
      if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
        violations.add(
            "Expected " + key + " in [" + min + ", " + max + "], but was " + value + context);
      }
    }
  }
}
