package io.cairn.qa.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxies relay bytes both ways, and cut, refuse and restore links as the faults say. */
final class ProxyNetworkTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private EchoServer echo;
  private ProxyNetwork network;

  @BeforeEach
  void start() throws IOException {
    echo = new EchoServer();
    network = new ProxyNetwork();
  }

  @AfterEach
  void stop() {
    network.close();
    echo.close();
  }

  @Test
  void shouldRelayBytesBothWays() throws IOException {
    InetSocketAddress proxy = network.link(0, 1, echo.address());

    try (Socket socket = connect(proxy)) {
      assertThat(roundTrip(socket, "hello")).isEqualTo("hello");
      assertThat(roundTrip(socket, "x".repeat(100_000))).isEqualTo("x".repeat(100_000));
    }
    assertThat(network.addressOf(0, 1)).isEqualTo(proxy);
  }

  @Test
  void shouldResetOpenAndNewConnectionsOfAPartitionedLinkUntilHealed() throws IOException {
    InetSocketAddress there = network.link(0, 1, echo.address());
    InetSocketAddress back = network.link(1, 0, echo.address());
    Socket open = connect(there);
    assertThat(roundTrip(open, "before")).isEqualTo("before");

    // when 0 and 1 are partitioned
    network.partition(0, 1);

    // then the open connection is closed, and new ones in either direction are closed at once
    assertThat(network.isBlocked(0, 1)).isTrue();
    assertThat(network.isBlocked(1, 0)).isTrue();
    assertThat(network.partitions()).containsExactly(List.of(0, 1));
    assertClosed(open);
    try (Socket fresh = connect(there)) {
      assertClosed(fresh);
    }
    try (Socket fresh = connect(back)) {
      assertClosed(fresh);
    }

    // when healed, new connections go through again
    network.heal();
    assertThat(network.partitions()).isEmpty();
    try (Socket fresh = connect(there)) {
      assertThat(roundTrip(fresh, "after")).isEqualTo("after");
    }
  }

  @Test
  void shouldKeepAnIsolatedNodeCutOffThroughHealUntilItRejoins() throws IOException {
    InetSocketAddress toIsolated = network.link(0, 2, echo.address());
    InetSocketAddress untouched = network.link(0, 1, echo.address());

    network.isolate(2);
    network.heal();

    assertThat(network.isBlocked(0, 2)).isTrue();
    assertThat(network.isBlocked(0, 1)).isFalse();
    try (Socket fresh = connect(toIsolated)) {
      assertClosed(fresh);
    }
    try (Socket fresh = connect(untouched)) {
      assertThat(roundTrip(fresh, "ok")).isEqualTo("ok");
    }

    network.rejoin(2);
    try (Socket fresh = connect(toIsolated)) {
      assertThat(roundTrip(fresh, "back")).isEqualTo("back");
    }
  }

  @Test
  void shouldCloseTheSendersConnectionWhenTheTargetIsDown() throws IOException {
    // a port that is bound but not listening: connections are refused, and no other process can
    // take it meanwhile (a closed server's port could be reused on a busy machine)
    try (Socket down = new Socket()) {
      down.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      InetSocketAddress proxy =
          network.link(0, 1, new InetSocketAddress("127.0.0.1", down.getLocalPort()));

      try (Socket socket = connect(proxy)) {
        assertClosed(socket);
      }
    }
  }

  @Test
  void shouldKeepWhatAHeldLinkCarriesInOrderUntilReleased() throws IOException {
    InetSocketAddress held = network.link(0, 1, echo.address());
    InetSocketAddress other = network.link(0, 2, echo.address());
    Socket open = connect(held);
    assertThat(roundTrip(open, "before")).isEqualTo("before");

    // when the link is held and the sender writes on its open connection and on a new one
    network.hold(0, 1);
    write(open, "held-1;");
    write(open, "held-2;");
    Socket fresh = connect(held);
    write(fresh, "new;");

    // then nothing reaches the target (nothing is echoed), the connections stay open, and
    // other links carry on
    assertNothingArrives(open);
    assertNothingArrives(fresh);
    try (Socket elsewhere = connect(other)) {
      assertThat(roundTrip(elsewhere, "other")).isEqualTo("other");
    }

    // when released, everything kept arrives in order, and the link relays as before
    network.release(0, 1);
    assertThat(read(open, "held-1;held-2;".length())).isEqualTo("held-1;held-2;");
    assertThat(read(fresh, "new;".length())).isEqualTo("new;");
    assertThat(roundTrip(open, "after")).isEqualTo("after");
    open.close();
    fresh.close();
  }

  @Test
  void shouldRefuseLinksAndPartitionsOfANodeWithItself() {
    assertThatThrownBy(() -> network.link(3, 3, echo.address()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("3");
    assertThatThrownBy(() -> network.partition(1, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> network.addressOf(5, 6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("5 -> 6");
  }

  private static Socket connect(InetSocketAddress address) throws IOException {
    Socket socket = new Socket();
    socket.connect(address, (int) TIMEOUT.toMillis());
    socket.setSoTimeout((int) TIMEOUT.toMillis());
    return socket;
  }

  private static void write(Socket socket, String text) throws IOException {
    socket.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
    socket.getOutputStream().flush();
  }

  private static String read(Socket socket, int length) throws IOException {
    return new String(socket.getInputStream().readNBytes(length), StandardCharsets.UTF_8);
  }

  /** No byte comes back within 300 ms, and the connection is still open. */
  private static void assertNothingArrives(Socket socket) throws IOException {
    socket.setSoTimeout(300);
    try {
      int read = socket.getInputStream().read();
      throw new AssertionError("Expected nothing to arrive while held, but read " + read);
    } catch (SocketTimeoutException expected) {
      // held: nothing was relayed
    } finally {
      socket.setSoTimeout((int) TIMEOUT.toMillis());
    }
  }

  private static String roundTrip(Socket socket, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    OutputStream out = socket.getOutputStream();
    out.write(bytes);
    out.flush();
    byte[] answer = socket.getInputStream().readNBytes(bytes.length);
    return new String(answer, StandardCharsets.UTF_8);
  }

  /** The connection ends (EOF or reset) without a byte coming back. */
  private static void assertClosed(Socket socket) {
    await("the proxy to close the connection")
        .atMost(TIMEOUT)
        .until(
            () -> {
              try {
                socket.getOutputStream().write(1);
                return socket.getInputStream().read() == -1;
              } catch (SocketException e) {
                return true;
              }
            });
  }

  /** Echoes every byte back, one thread per connection. */
  private static final class EchoServer implements AutoCloseable {
    private final ServerSocket server;

    EchoServer() throws IOException {
      server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread acceptor = new Thread(this::accept, "echo-acceptor");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    InetSocketAddress address() {
      return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    private void accept() {
      while (!server.isClosed()) {
        try {
          Socket socket = server.accept();
          Thread echo = new Thread(() -> echo(socket), "echo");
          echo.setDaemon(true);
          echo.start();
        } catch (IOException e) {
          return;
        }
      }
    }

    private static void echo(Socket socket) {
      try (socket;
          InputStream in = socket.getInputStream();
          OutputStream out = socket.getOutputStream()) {
        byte[] buffer = new byte[8192];
        int read;
        while ((read = in.read(buffer)) >= 0) {
          out.write(Arrays.copyOf(buffer, read));
          out.flush();
        }
      } catch (IOException e) {
        // the connection ended
      }
    }

    @Override
    public void close() {
      try {
        server.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
