package io.cairn.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cairn.transport.MessagingException;
import io.cairn.transport.TransportMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Start, bind, addresses and metrics of the netty service. */
class NettyMessagingServiceLifecycleTest {

  private static final int MAX_FRAME_SIZE_BYTES = 4096;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final List<NettyMessagingService> services = new ArrayList<>();
  private final ExecutorService handlerThreads = Executors.newSingleThreadExecutor();

  @AfterEach
  void close() {
    services.forEach(NettyMessagingService::close);
    handlerThreads.shutdownNow();
  }

  private NettyMessagingService service(int nodeId, int port, SimpleMeterRegistry registry) {
    NettyMessagingService service =
        NettyTestCluster.newService(
            NettyTestCluster.config(nodeId, MAX_FRAME_SIZE_BYTES, port), registry);
    services.add(service);
    return service;
  }

  @Test
  void shouldReportBoundEphemeralPortAndRefuseSecondStart() {
    NettyMessagingService service = service(0, 0, new SimpleMeterRegistry());
    assertThatThrownBy(service::localAddress).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> service.send(0, "x", new byte[0]).join())
        .hasCauseInstanceOf(MessagingException.Rejected.class);

    service.start();

    assertThat(service.localAddress().port()).isPositive();
    assertThat(service.localAddress().host()).isEqualTo("127.0.0.1");
    assertThatThrownBy(service::start).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void shouldFailToStartOnPortInUseNamingIt() {
    NettyMessagingService first = service(0, 0, new SimpleMeterRegistry());
    first.start();
    int port = first.localAddress().port();
    NettyMessagingService second = service(1, port, new SimpleMeterRegistry());

    assertThatThrownBy(second::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Expected to bind 127.0.0.1:" + port);
  }

  @Test
  void shouldCountMessagesBytesAndLatency() {
    SimpleMeterRegistry clientRegistry = new SimpleMeterRegistry();
    SimpleMeterRegistry serverRegistry = new SimpleMeterRegistry();
    NettyMessagingService client = service(0, 0, clientRegistry);
    NettyMessagingService server = service(1, 0, serverRegistry);
    CompletableFuture<byte[]> noteReceived = new CompletableFuture<>();
    server.registerRequestHandler(
        "echo", (sender, payload) -> CompletableFuture.completedFuture(payload), handlerThreads);
    server.registerMessageHandler(
        "note", (sender, payload) -> noteReceived.complete(payload), handlerThreads);
    client.start();
    server.start();
    NettyTestCluster.introduce(List.of(client, server));

    client.sendAndReceive(1, "echo", bytes("12345"), TIMEOUT).join();
    client.send(1, "note", bytes("n")).join();
    noteReceived.join();
    client.sendAndReceive(1, "missing", bytes("x"), TIMEOUT).exceptionally(failure -> null).join();

    // Counters of the far side are updated by I/O threads, maybe after the caller saw the result.
    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () -> {
              assertThat(sent(clientRegistry, "request", "ok")).isEqualTo(2);
              assertThat(sent(clientRegistry, "message", "ok")).isEqualTo(1);
              assertThat(received(clientRegistry, "response", "ok")).isEqualTo(1);
              assertThat(received(clientRegistry, "response", "no-handler")).isEqualTo(1);
              assertThat(received(serverRegistry, "request", "ok")).isEqualTo(1);
              assertThat(received(serverRegistry, "request", "no-handler")).isEqualTo(1);
              assertThat(received(serverRegistry, "message", "ok")).isEqualTo(1);
              assertThat(sent(serverRegistry, "response", "ok")).isEqualTo(2);
              assertThat(bytes(serverRegistry, TransportMetrics.BYTES_RECEIVED))
                  .isEqualTo(
                      FrameDescriptor.frameLength("echo", 5)
                          + FrameDescriptor.frameLength("note", 1)
                          + FrameDescriptor.frameLength("missing", 1));
              assertThat(bytes(clientRegistry, TransportMetrics.BYTES_SENT))
                  .isEqualTo(bytes(serverRegistry, TransportMetrics.BYTES_RECEIVED));
              assertThat(latencies(clientRegistry, "ok")).isEqualTo(1);
              assertThat(latencies(clientRegistry, "no-handler")).isEqualTo(1);
            });
  }

  private static double sent(SimpleMeterRegistry registry, String operation, String result) {
    return count(registry, TransportMetrics.MESSAGES_SENT, operation, result);
  }

  private static double received(SimpleMeterRegistry registry, String operation, String result) {
    return count(registry, TransportMetrics.MESSAGES_RECEIVED, operation, result);
  }

  private static double count(
      SimpleMeterRegistry registry, String name, String operation, String result) {
    return registry.get(name).tag("operation", operation).tag("result", result).counter().count();
  }

  private static double bytes(SimpleMeterRegistry registry, String name) {
    return registry.get(name).counter().count();
  }

  private static long latencies(SimpleMeterRegistry registry, String result) {
    return registry.get(TransportMetrics.REQUEST_LATENCY).tag("result", result).timer().count();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
