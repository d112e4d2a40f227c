package io.cairn.transport.netty;

import io.cairn.scheduler.Clock;
import io.cairn.transport.TransportConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;

/** Builds netty members on loopback ephemeral ports for tests. */
final class NettyTestCluster {

  private NettyTestCluster() {}

  static NettyMessagingService newService(int nodeId, int maxFrameSizeBytes) {
    return newService(config(nodeId, maxFrameSizeBytes, 0), new SimpleMeterRegistry());
  }

  static NettyMessagingService newService(TransportConfig config, MeterRegistry registry) {
    return new NettyMessagingService(config, Clock.system(), registry);
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
