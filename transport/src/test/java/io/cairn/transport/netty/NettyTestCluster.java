package io.cairn.transport.netty;

import io.cairn.scheduler.Clock;
import io.cairn.transport.TransportConfig;
import io.cairn.transport.TransportTls;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Builds netty members on loopback ephemeral ports for tests. */
final class NettyTestCluster {

  private NettyTestCluster() {}

  static NettyMessagingService newService(int nodeId, int maxFrameSizeBytes) {
    return newService(config(nodeId, maxFrameSizeBytes, 0), new SimpleMeterRegistry());
  }

  static NettyMessagingService newService(TransportConfig config, MeterRegistry registry) {
    return new NettyMessagingService(config, Clock.system(), registry);
  }

  /** A member speaking mutual TLS with {@code tls}. */
  static NettyMessagingService newService(
      TransportConfig config, MeterRegistry registry, TransportTls tls) {
    return new NettyMessagingService(config, Clock.system(), registry, Optional.of(tls));
  }

  static TransportConfig config(int nodeId, int maxFrameSizeBytes, int port) {
    return TransportConfig.builder(nodeId)
        .bindHost("127.0.0.1")
        .bindPort(port)
        .maxFrameSizeBytes(maxFrameSizeBytes)
        .connectTimeout(Duration.ofSeconds(10))
        .reconnectBackoffMin(Duration.ofMillis(20))
        .reconnectBackoffMax(Duration.ofMillis(200))
        .ioThreadCount(1)
        .shutdownTimeout(Duration.ofSeconds(10))
        .build();
  }

  /** Gives every started member every member's bound address (its own included). */
  static void introduce(List<NettyMessagingService> services) {
    for (NettyMessagingService service : services) {
      for (NettyMessagingService other : services) {
        service.setMemberAddress(other.localNodeId(), other.localAddress());
      }
    }
  }
}
