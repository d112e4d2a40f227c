package io.cairn.qa;

import io.cairn.client.CairnClient;
import io.cairn.gateway.Gateway;
import io.cairn.gateway.GatewayConfig;
import io.cairn.scheduler.Clock;
import io.cairn.transport.MemberAddress;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The embedded cluster's gateway with what talks to it: a gRPC channel (for raw stubs; TLS when
 * security is on) and a {@link CairnClient}. The gateway polls the topology every 100 ms and
 * retries routing up to 10 times with 20–500 ms backoff, so it follows leader changes within about
 * a second.
 */
final class GatewayNode implements AutoCloseable {

  private final Gateway gateway;
  private final ManagedChannel channel;
  private final CairnClient client;

  private GatewayNode(Gateway gateway, ManagedChannel channel, CairnClient client) {
    this.gateway = gateway;
    this.channel = channel;
    this.client = client;
  }

  /**
   * Starts a gateway on ephemeral loopback ports.
   *
   * @param brokers where the gateway reaches each broker (the network's proxies)
   * @param requestTimeout the gateway's request timeout
   * @param callTimeout the deadline of the client's calls
   * @param security TLS and authentication, when on: the client trusts the CA and presents the
   *     admin key
   */
  static GatewayNode start(
      Map<Integer, MemberAddress> brokers,
      Duration requestTimeout,
      Duration callTimeout,
      Optional<SecuritySpec> security) {
    GatewayConfig.Builder config =
        GatewayConfig.builder()
            .nodeId(EmbeddedCluster.GATEWAY_NODE_ID)
            .brokers(brokers)
            .grpcPort(0)
            .httpPort(0)
            .requestTimeout(requestTimeout)
            .topologyRefreshInterval(Duration.ofMillis(100))
            .retryBackoffMin(Duration.ofMillis(20))
            .retryBackoffMax(Duration.ofMillis(500))
            .maxRetries(10);
    security.ifPresent(s -> config.tls(Optional.of(s.gatewayTls())).auth(s.gatewayAuth()));
    Gateway gateway =
        new Gateway(
            config.build(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), Clock.system());
    try {
      gateway.start();
    } catch (RuntimeException e) {
      gateway.close();
      throw e;
    }
    InetSocketAddress grpc = gateway.grpcAddress();
    ManagedChannel channel =
        Grpc.newChannelBuilderForAddress(
                grpc.getHostString(), grpc.getPort(), channelCredentials(security))
            .build();
    CairnClient.Builder client =
        CairnClient.builder()
            .gateway(grpc.getHostString() + ":" + grpc.getPort())
            .requestTimeout(callTimeout);
    security.ifPresent(s -> client.trustedCaFile(s.caFile()).apiKey(s.adminApiKey()));
    return new GatewayNode(gateway, channel, client.build());
  }

  /** Plaintext, or TLS trusting the cluster's CA (raw stubs present no credentials). */
  private static ChannelCredentials channelCredentials(Optional<SecuritySpec> security) {
    if (security.isEmpty()) {
      return InsecureChannelCredentials.create();
    }
    try {
      return TlsChannelCredentials.newBuilder()
          .trustManager(security.get().caFile().toFile())
          .build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Gateway gateway() {
    return gateway;
  }

  ManagedChannel channel() {
    return channel;
  }

  CairnClient client() {
    return client;
  }

  /** Closes the client, the channel, then the gateway. */
  @Override
  public void close() {
    client.close();
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      gateway.close();
    }
  }
}
