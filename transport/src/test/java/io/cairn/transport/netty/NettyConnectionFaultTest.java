package io.cairn.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cairn.transport.MemberAddress;
import io.cairn.transport.MessagingException;
import io.cairn.transport.TransportMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/** Bad frames from a raw socket close only that connection; the member keeps serving others. */
class NettyConnectionFaultTest {

  private static final int MAX_FRAME_SIZE_BYTES = 4096;

  /** Generous: a slow machine must only make these tests slower, never fail them. */
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final ExecutorService handlerThreads = Executors.newSingleThreadExecutor();
  private final List<NettyMessagingService> services = new ArrayList<>();
  private final SimpleMeterRegistry serverRegistry = new SimpleMeterRegistry();
  private final ListAppender<ILoggingEvent> decoderLog = new ListAppender<>();
  private NettyMessagingService client;
  private NettyMessagingService server;

  @BeforeEach
  void startMembers() {
    client = NettyTestCluster.newService(0, MAX_FRAME_SIZE_BYTES);
    server =
        NettyTestCluster.newService(
            NettyTestCluster.config(1, MAX_FRAME_SIZE_BYTES, 0), serverRegistry);
    services.add(client);
    services.add(server);
    server.registerRequestHandler(
        "echo", (sender, payload) -> CompletableFuture.completedFuture(payload), handlerThreads);
    client.start();
    server.start();
    NettyTestCluster.introduce(services);
    decoderLog.start();
    ((Logger) LoggerFactory.getLogger(FrameDecoder.class)).addAppender(decoderLog);
  }

  @AfterEach
  void stopMembers() {
    ((Logger) LoggerFactory.getLogger(FrameDecoder.class)).detachAppender(decoderLog);
    services.forEach(NettyMessagingService::close);
    handlerThreads.shutdownNow();
  }

  static Stream<Arguments> badFrames() {
    return Stream.of(
        Arguments.of(
            "over maxFrameSizeBytes",
            header(MAX_FRAME_SIZE_BYTES + 1, 1, 1, 0, 4),
            "maxFrameSizeBytes"),
        Arguments.of("huge length", header(Integer.MAX_VALUE, 1, 1, 0, 4), "frame length"),
        Arguments.of("negative length", header(-5, 1, 1, 0, 4), "frame length"),
        Arguments.of("shorter than header", header(8, 1, 1, 0, 4), "frame length"),
        Arguments.of(
            "wrong version", header(FrameDescriptor.HEADER_LENGTH + 4, 9, 1, 0, 4), "version"),
        Arguments.of("unknown kind", header(FrameDescriptor.HEADER_LENGTH + 4, 1, 7, 0, 4), "kind"),
        Arguments.of(
            "status on a request", header(FrameDescriptor.HEADER_LENGTH + 4, 1, 1, 2, 4), "status"),
        Arguments.of(
            "empty type on a request",
            header(FrameDescriptor.HEADER_LENGTH + 4, 1, 1, 0, 0),
            "type length"),
        Arguments.of(
            "type beyond frame",
            header(FrameDescriptor.HEADER_LENGTH + 4, 1, 1, 0, 200),
            "type length"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badFrames")
  void shouldCloseOnlyTheOffendingConnectionAndKeepServing(
      String description, byte[] frame, String reason) throws IOException {
    // An established member connection before the bad client...
    assertThat(echo("before")).isEqualTo("before");

    try (Socket raw = new Socket(server.localAddress().host(), server.localAddress().port())) {
      raw.setSoTimeout((int) TIMEOUT.toMillis());
      OutputStream out = raw.getOutputStream();
      out.write(frame);
      out.write(new byte[64]);
      out.flush();

      assertThat(readUntilClosed(raw.getInputStream()))
          .as("server closed the connection after a frame with %s", description)
          .isTrue();
    }

    // ...still works, and new connections are accepted.
    assertThat(echo("after")).isEqualTo("after");
    NettyMessagingService late = NettyTestCluster.newService(2, MAX_FRAME_SIZE_BYTES);
    services.add(late);
    late.start();
    late.setMemberAddress(1, server.localAddress());
    assertThat(
            new String(
                late.sendAndReceive(1, "echo", "new".getBytes(StandardCharsets.UTF_8), TIMEOUT)
                    .join(),
                StandardCharsets.UTF_8))
        .isEqualTo("new");
    assertThat(decoderLog.list)
        .anySatisfy(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.WARN);
              assertThat(event.getFormattedMessage()).contains("Closing connection", reason);
            });
    assertThat(serverRegistry.get(TransportMetrics.FRAMES_INVALID).counter().count())
        .isEqualTo(1.0);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badFrames")
  void shouldCloseConnectionWhenFrameArrivesByteByByte(
      String description, byte[] frame, String reason) throws IOException {
    try (Socket raw = new Socket(server.localAddress().host(), server.localAddress().port())) {
      raw.setSoTimeout((int) TIMEOUT.toMillis());
      raw.setTcpNoDelay(true);
      OutputStream out = raw.getOutputStream();
      try {
        for (byte b : frame) {
          out.write(b);
          out.flush();
        }
        out.write(new byte[FrameDescriptor.HEADER_LENGTH + 4]);
        out.flush();
      } catch (IOException closedWhileWriting) {
        // The server may close before the last bytes are written.
      }

      assertThat(readUntilClosed(raw.getInputStream())).as(description).isTrue();
    }
    assertThat(echo("still")).isEqualTo("still");
  }

  @Test
  void shouldAnswerWellFormedRequestFromRawSocket() throws IOException {
    byte[] type = "echo".getBytes(StandardCharsets.UTF_8);
    byte[] payload = "raw".getBytes(StandardCharsets.UTF_8);
    int length = FrameDescriptor.HEADER_LENGTH + type.length + payload.length;
    ByteBuffer frame =
        ByteBuffer.allocate(length)
            .putInt(length)
            .put(FrameDescriptor.VERSION)
            .put(FrameKind.REQUEST.code())
            .put(FrameStatus.OK.code())
            .put((byte) type.length)
            .putLong(77L)
            .putInt(9)
            .put(type)
            .put(payload);

    try (Socket raw = new Socket(server.localAddress().host(), server.localAddress().port())) {
      raw.setSoTimeout((int) TIMEOUT.toMillis());
      raw.getOutputStream().write(frame.array());
      raw.getOutputStream().flush();
      byte[] response =
          raw.getInputStream().readNBytes(FrameDescriptor.HEADER_LENGTH + payload.length);
      ByteBuffer buffer = ByteBuffer.wrap(response);

      assertThat(buffer.getInt()).isEqualTo(FrameDescriptor.HEADER_LENGTH + payload.length);
      assertThat(buffer.get()).isEqualTo(FrameDescriptor.VERSION);
      assertThat(buffer.get()).isEqualTo(FrameKind.RESPONSE.code());
      assertThat(buffer.get()).isEqualTo(FrameStatus.OK.code());
      assertThat(buffer.get()).isZero();
      assertThat(buffer.getLong()).isEqualTo(77L);
      assertThat(buffer.getInt()).isEqualTo(1);
      assertThat(
              new String(
                  response, FrameDescriptor.HEADER_LENGTH, payload.length, StandardCharsets.UTF_8))
          .isEqualTo("raw");
    }
  }

  @Test
  void shouldReconnectAfterPeerRestartsOnSamePort() throws IOException {
    assertThat(echo("first")).isEqualTo("first");
    int port = server.localAddress().port();
    server.close();
    // Keep the port while the peer is down: connections are refused as by a down peer, and no
    // other process can take the freed port in the meantime (the restart below needs it).
    try (Socket holder =
        await()
            .atMost(TIMEOUT)
            .pollInterval(Duration.ofMillis(20))
            .ignoreExceptionsInstanceOf(BindException.class)
            .until(() -> holdPort(port), Objects::nonNull)) {

      // While the peer is down requests fail fast, long before their timeout.
      CompletableFuture<byte[]> whileDown =
          client.sendAndReceive(1, "echo", new byte[1], Duration.ofMinutes(2));
      assertThatThrownBy(() -> whileDown.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
          .hasCauseInstanceOf(MessagingException.Unreachable.class);
      CompletableFuture<byte[]> backingOff =
          client.sendAndReceive(1, "echo", new byte[1], Duration.ofMinutes(2));
      assertThatThrownBy(() -> backingOff.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
          .hasCauseInstanceOf(MessagingException.Unreachable.class);

      holder.close(); // released right before the restart binds it
      NettyMessagingService restarted =
          NettyTestCluster.newService(
              NettyTestCluster.config(1, MAX_FRAME_SIZE_BYTES, port), new SimpleMeterRegistry());
      services.add(restarted);
      restarted.registerRequestHandler(
          "echo",
          (sender, payload) ->
              CompletableFuture.completedFuture("again".getBytes(StandardCharsets.UTF_8)),
          handlerThreads);
      restarted.start();
    }

    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(50))
        .ignoreExceptions()
        .until(() -> echo("x").equals("again"));
  }

  @Test
  void shouldFailFastWithUnreachableWhileBackingOffFromDownPeer() throws IOException {
    // A port that stays dead for the whole test: held, nothing listening on it.
    try (Socket dead = holdPort(0)) {
      // A long backoff, so the second attempt surely falls inside it.
      NettyMessagingService patient =
          NettyTestCluster.newService(
              NettyTestCluster.config(3, MAX_FRAME_SIZE_BYTES, 0).toBuilder()
                  .reconnectBackoffMin(Duration.ofMinutes(5))
                  .reconnectBackoffMax(Duration.ofMinutes(10))
                  .member(5, new MemberAddress("127.0.0.1", dead.getLocalPort()))
                  .build(),
              new SimpleMeterRegistry());
      services.add(patient);
      patient.start();

      CompletableFuture<byte[]> first =
          patient.sendAndReceive(5, "echo", new byte[1], Duration.ofMinutes(2));
      assertThatThrownBy(() -> first.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
          .hasCauseInstanceOf(MessagingException.Unreachable.class);
      CompletableFuture<byte[]> second =
          patient.sendAndReceive(5, "echo", new byte[1], Duration.ofMinutes(2));

      assertThat(second).isCompletedExceptionally();
      assertThatThrownBy(second::join)
          .hasCauseInstanceOf(MessagingException.Unreachable.class)
          .hasMessageContaining("next attempt in");
      assertThatThrownBy(
              () ->
                  patient
                      .send(5, "note", new byte[1])
                      .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
          .hasCauseInstanceOf(MessagingException.Unreachable.class);
    }
  }

  /**
   * Binds a loopback socket to {@code port} (0: any free one) without listening: connections to it
   * are refused, as by a member that is down, and the kernel hands the port to no other socket (for
   * port 0 or an outgoing connection) while it is held. Address reuse lets it take a port whose
   * connections still linger in TIME_WAIT after their listener closed.
   */
  private static Socket holdPort(int port) throws IOException {
    Socket holder = new Socket();
    try {
      holder.setReuseAddress(true);
      holder.bind(new InetSocketAddress("127.0.0.1", port));
      return holder;
    } catch (IOException e) {
      holder.close();
      throw e;
    }
  }

  private String echo(String text) {
    return new String(
        client.sendAndReceive(1, "echo", text.getBytes(StandardCharsets.UTF_8), TIMEOUT).join(),
        StandardCharsets.UTF_8);
  }

  /** Reads until end of stream; false if the server kept the connection open for TIMEOUT. */
  private static boolean readUntilClosed(InputStream in) throws IOException {
    byte[] buffer = new byte[256];
    try {
      while (true) {
        if (in.read(buffer) < 0) {
          return true;
        }
      }
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException reset) {
      return true;
    }
  }

  private static byte[] header(int frameLength, int version, int kind, int status, int typeLength) {
    return ByteBuffer.allocate(FrameDescriptor.HEADER_LENGTH)
        .putInt(frameLength)
        .put((byte) version)
        .put((byte) kind)
        .put((byte) status)
        .put((byte) typeLength)
        .putLong(1L)
        .putInt(3)
        .array();
  }
}
