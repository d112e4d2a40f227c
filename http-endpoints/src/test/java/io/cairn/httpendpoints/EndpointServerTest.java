package io.cairn.httpendpoints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Binding, the error naming the address and the keys, closing. */
final class EndpointServerTest {
  private final ExecutorService executor = Executors.newSingleThreadExecutor();
  private final Routes routes =
      Routes.of(Route.exact("GET", "/health", "health", e -> e.sendEmpty(204)));

  @AfterEach
  void stop() {
    executor.shutdownNow();
  }

  private EndpointServer server(int port) {
    return EndpointServer.builder("broker", routes)
        .bind("127.0.0.1", port, "management.host/management.port")
        .executor(executor)
        .build();
  }

  @Test
  void shouldBindNothingBeforeStartAndTheRealPortAfter() {
    try (EndpointServer server = server(0)) {
      assertThat(server.address()).isNull();

      server.start();

      assertThat(server.address().getAddress()).isEqualTo(InetAddress.getLoopbackAddress());
      assertThat(server.address().getPort()).isPositive();
    }
  }

  @Test
  void shouldNameTheAddressAndTheKeysWhenThePortIsTaken() throws Exception {
    try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        EndpointServer server = server(busy.getLocalPort())) {
      assertThatThrownBy(server::start)
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageStartingWith(
              "Expected to bind the broker's HTTP endpoints to 127.0.0.1:" + busy.getLocalPort())
          .hasMessageEndingWith(". Free the port or change management.host/management.port");
    }
  }

  @Test
  void shouldReleaseThePortOnClose() throws Exception {
    int port;
    try (EndpointServer server = server(0)) {
      server.start();
      port = server.address().getPort();
    }

    try (ServerSocket again = new ServerSocket()) {
      again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
      assertThat(again.getLocalPort()).isEqualTo(port);
    }
  }

  @Test
  void shouldCloseTwiceAndNotStartAfterClosing() {
    EndpointServer server = server(0);
    server.close();
    server.close();

    assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void shouldRefuseAPortOutOfRange() {
    assertThatThrownBy(
            () -> EndpointServer.builder("broker", routes).bind("127.0.0.1", 70_000, "httpPort"))
        .hasMessage("Expected a port in [0, 65535], but was 70000 (httpPort)");
  }
}
