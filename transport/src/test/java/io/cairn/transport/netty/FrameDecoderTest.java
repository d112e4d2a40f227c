package io.cairn.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.transport.TransportMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Encoding and decoding of frames, without sockets. */
class FrameDecoderTest {

  private static final int MAX_FRAME_SIZE_BYTES = 8192;
  private static final long SEED = 20_240_611L;

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final EmbeddedChannel channel =
      new EmbeddedChannel(
          new FrameDecoder(0, MAX_FRAME_SIZE_BYTES, new TransportMetrics(registry, 0)));

  @AfterEach
  void releaseChannel() {
    channel.finishAndReleaseAll();
  }

  @Test
  void shouldRoundTripRandomFramesSplitAtRandomPoints() {
    Random random = new Random(SEED);
    for (int i = 0; i < 300; i++) {
      FrameKind kind = FrameKind.values()[random.nextInt(3)];
      FrameStatus status =
          kind == FrameKind.RESPONSE ? FrameStatus.values()[random.nextInt(3)] : FrameStatus.OK;
      String type = kind == FrameKind.RESPONSE ? "" : "type-" + random.nextInt(1000) + "-é";
      byte[] typeBytes = type.isEmpty() ? null : FrameDescriptor.typeBytes(type);
      byte[] payload = new byte[random.nextInt(2000)];
      random.nextBytes(payload);
      long requestId = random.nextLong();
      int sender = random.nextInt(100);
      ByteBuf encoded =
          FrameEncoder.encode(
              ByteBufAllocator.DEFAULT, kind, status, requestId, sender, typeBytes, payload);
      int split = random.nextInt(encoded.readableBytes() + 1);

      channel.writeInbound(encoded.retainedSlice(0, split));
      channel.writeInbound(encoded.retainedSlice(split, encoded.readableBytes() - split));
      encoded.release();
      Frame frame = channel.readInbound();

      assertThat(frame).as("seed %d, frame %d", SEED, i).isNotNull();
      assertThat(frame.kind()).isEqualTo(kind);
      assertThat(frame.status()).isEqualTo(status);
      assertThat(frame.requestId()).isEqualTo(requestId);
      assertThat(frame.senderNodeId()).isEqualTo(sender);
      assertThat(frame.type()).isEqualTo(type);
      assertThat(frame.payload()).isEqualTo(payload);
    }
    assertThat(channel.isActive()).isTrue();
  }

  @Test
  void shouldDecodeSeveralFramesFromOneBuffer() {
    ByteBuf first = encode("a", "first");
    ByteBuf second = encode("b", "second");
    ByteBuf both = Unpooled.buffer();
    both.writeBytes(first);
    both.writeBytes(second);
    first.release();
    second.release();

    channel.writeInbound(both);

    assertThat(((Frame) channel.readInbound()).type()).isEqualTo("a");
    assertThat(new String(((Frame) channel.readInbound()).payload(), StandardCharsets.UTF_8))
        .isEqualTo("second");
  }

  @Test
  void shouldCloseChannelAndDiscardRestOnOversizeFrame() {
    ByteBuf oversize = Unpooled.buffer();
    oversize.writeInt(MAX_FRAME_SIZE_BYTES + 1);
    oversize.writeBytes(new byte[100]);

    channel.writeInbound(oversize);

    assertThat(channel.isOpen()).isFalse();
    Frame decoded = channel.readInbound();
    assertThat(decoded).isNull();
    assertThat(registry.get(TransportMetrics.FRAMES_INVALID).counter().count()).isEqualTo(1.0);
  }

  @Test
  void shouldAcceptFrameOfExactlyMaxSize() {
    int payloadLength = MAX_FRAME_SIZE_BYTES - FrameDescriptor.HEADER_LENGTH - 1;

    channel.writeInbound(
        FrameEncoder.encode(
            ByteBufAllocator.DEFAULT,
            FrameKind.MESSAGE,
            FrameStatus.OK,
            0,
            1,
            FrameDescriptor.typeBytes("m"),
            new byte[payloadLength]));

    Frame frame = channel.readInbound();
    assertThat(frame.payload()).hasSize(payloadLength);
    assertThat(channel.isOpen()).isTrue();
  }

  private static ByteBuf encode(String type, String payload) {
    return FrameEncoder.encode(
        ByteBufAllocator.DEFAULT,
        FrameKind.MESSAGE,
        FrameStatus.OK,
        0,
        1,
        FrameDescriptor.typeBytes(type),
        payload.getBytes(StandardCharsets.UTF_8));
  }
}
