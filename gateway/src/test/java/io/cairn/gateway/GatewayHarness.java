package io.cairn.gateway;

import static org.awaitility.Awaitility.await;

import io.cairn.gateway.v1.AdminServiceGrpc;
import io.cairn.gateway.v1.LedgerServiceGrpc;
import io.cairn.scheduler.Clock;
import io.cairn.tls.ClientAuth;
import io.cairn.tls.ServerTls;
import io.cairn.tls.TlsFiles;
import io.cairn.transport.TransportTls;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A gateway on 127.0.0.1 (ephemeral gRPC, HTTP and transport ports) in front of {@link FakeBroker}s
 * sharing one {@link FakeCluster}, with a gRPC channel and an HTTP client to it. Default layout:
 * two brokers, three partitions; broker 0 leads 1 and 3, broker 1 leads 2 (term 1).
 */
public final class GatewayHarness implements AutoCloseable {
  /** How long a test waits for the gateway or the brokers' threads: a slow machine is slower. */
  public static final Duration WAIT = Duration.ofSeconds(30);

  public final FakeCluster cluster;
  public final List<FakeBroker> brokers = new ArrayList<>();
  public final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  public final Gateway gateway;
  public final ManagedChannel channel;
  public final LedgerServiceGrpc.LedgerServiceBlockingStub ledger;
  public final AdminServiceGrpc.AdminServiceBlockingStub admin;
  public final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  public GatewayHarness() {
    this(3, 2, builder -> builder);
  }

  public GatewayHarness(
      int partitionCount, int brokerCount, UnaryOperator<GatewayConfig.Builder> tweak) {
    this(partitionCount, brokerCount, tweak, Optional.empty());
  }

  /** Brokers whose transport is mutual TLS with {@code brokerTls}. */
  public GatewayHarness(
      int partitionCount,
      int brokerCount,
      UnaryOperator<GatewayConfig.Builder> tweak,
      Optional<TransportTls> brokerTls) {
    cluster = new FakeCluster(partitionCount);
    for (int node = 0; node < brokerCount; node++) {
      brokers.add(new FakeBroker(node, cluster, brokerTls));
    }
    defaultLeaders();
    GatewayConfig.Builder config =
        GatewayConfig.builder()
            .grpcPort(0)
            .httpPort(0)
            .topologyRefreshInterval(Duration.ofMillis(200))
            // generous: a loaded machine must make calls slower, not failed; tests of timeouts set
            // their own or a client deadline
            .requestTimeout(Duration.ofSeconds(30))
            .retryBackoffMin(Duration.ofMillis(5))
            .retryBackoffMax(Duration.ofMillis(50));
    for (FakeBroker broker : brokers) {
      config.broker(broker.nodeId(), broker.address());
    }
    gateway = new Gateway(tweak.apply(config).build(), registry, Clock.system());
    gateway.start();
    channel =
        NettyChannelBuilder.forAddress("127.0.0.1", gateway.grpcAddress().getPort())
            .usePlaintext()
            .build();
    ledger = LedgerServiceGrpc.newBlockingStub(channel).withDeadlineAfter(1, TimeUnit.MINUTES);
    admin = AdminServiceGrpc.newBlockingStub(channel).withDeadlineAfter(1, TimeUnit.MINUTES);
  }

  /**
   * The default layout with TLS on: the gateway serves gRPC and HTTP with {@code gatewayFiles}'
   * certificate and talks mutual TLS to brokers presenting {@code brokerFiles}' (both of one CA).
   * Ready: the gateway knows every partition's leader.
   */
  public static GatewayHarness secure(TlsFiles gatewayFiles, TlsFiles brokerFiles) {
    ServerTls brokers = ServerTls.load(brokerFiles, ClientAuth.REQUIRED);
    Optional<TransportTls> brokerTls =
        Optional.of(
            new TransportTls(
                brokers.keyManager(), brokers.trustManager().orElseThrow(), brokers.protocols()));
    return new GatewayHarness(3, 2, b -> b.tls(Optional.of(gatewayFiles)), brokerTls).awaitReady();
  }

  /** Partition p is led by broker (p-1) mod N in term 1; the others follow. */
  public void defaultLeaders() {
    for (int p = 1; p <= cluster.partitionCount; p++) {
      for (FakeBroker broker : brokers) {
        if (broker.nodeId() == (p - 1) % brokers.size()) {
          broker.lead(p, 1);
        } else {
          broker.follow(p, 1);
        }
      }
    }
  }

  public FakeBroker broker(int nodeId) {
    return brokers.get(nodeId);
  }

  /** Waits until the gateway knows a leader for every partition. */
  public GatewayHarness awaitReady() {
    await().atMost(WAIT).until(() -> gateway.topology().hasAllLeaders());
    return this;
  }

  /** Waits until the gateway routes partition p to broker nodeId. */
  public void awaitLeader(int partitionId, int nodeId) {
    await().atMost(WAIT).until(() -> gateway.topology().leaderOf(partitionId).orElse(-1) == nodeId);
  }

  /** Clears faults, counters and the shared state; restores the default leaders. */
  public void reset() {
    cluster.reset();
    brokers.forEach(FakeBroker::heal);
    defaultLeaders();
    refresh();
    awaitReady();
  }

  /** Makes the gateway ask the brokers for their topology now and waits for the answer. */
  public void refresh() {
    gateway.refreshTopology().join();
    // A refresh already running when the roles changed may have answered with old ones.
    gateway.refreshTopology().join();
  }

  public int commandsReceived() {
    return brokers.stream()
        .mapToInt(b -> b.requests(io.cairn.protocol.api.ApiDescriptor.TYPE_COMMAND))
        .sum();
  }

  public int invalidRequests() {
    return brokers.stream().mapToInt(FakeBroker::invalidRequests).sum();
  }

  public double counter(String name, String... tags) {
    var counter = registry.find(name).tags(tags).counter();
    return counter == null ? 0 : counter.count();
  }

  public HttpResponse<String> httpGet(String path) throws Exception {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  public HttpResponse<String> httpPost(String path, String body) throws Exception {
    return send(
        HttpRequest.newBuilder(uri(path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  public HttpResponse<String> httpDelete(String path) throws Exception {
    return send(HttpRequest.newBuilder(uri(path)).DELETE());
  }

  public HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return http.send(
        request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
  }

  public URI uri(String path) {
    return URI.create("http://127.0.0.1:" + gateway.httpAddress().getPort() + path);
  }

  @Override
  public void close() {
    channel.shutdownNow();
    gateway.close();
    brokers.forEach(FakeBroker::close);
  }
}
