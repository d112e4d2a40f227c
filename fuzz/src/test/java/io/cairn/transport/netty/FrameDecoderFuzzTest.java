package io.cairn.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.cairn.fuzz.DecoderContract;
import io.cairn.transport.TransportMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bytes any process that connects to a member's port can send. The decoder never throws: it
 * hands on whole frames, and closes the connection at the first malformed or oversize one, within
 * {@link DecoderContract}'s allocation allowance. In the decoder's package because the decoder is
 * internal to the transport.
 */
class FrameDecoderFuzzTest {

  private static final int MAX_FRAME_SIZE_BYTES = 4096;

  /** The first byte says where the stream is split in two reads; the rest is the stream. */
  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void frames(byte[] input) {
    if (input.length == 0) {
      return;
    }
    DecoderContract.decodesWithoutThrowing(input, () -> decode(input));
  }

  /** The committed seeds carry whole frames, so fuzzing starts past the decoder's first checks. */
  @Test
  void seedsDecodeToWholeFrames() {
    for (byte[] seed :
        List.of(FrameSeeds.requestAndResponse(), FrameSeeds.messageAndRefusedResponse())) {
      assertThat(decode(seed)).as("frames decoded").isEqualTo(2);
    }
  }

  /**
   * Decodes {@code input}'s stream in the two reads its first byte asks for; the frames decoded.
   */
  private static int decode(byte[] input) {
    int split = 1 + Byte.toUnsignedInt(input[0]) % input.length;
    EmbeddedChannel channel =
        new EmbeddedChannel(
            new FrameDecoder(
                0, MAX_FRAME_SIZE_BYTES, new TransportMetrics(new SimpleMeterRegistry(), 0)));
    try {
      // writeInbound rethrows anything the decoder threw.
      channel.writeInbound(Unpooled.wrappedBuffer(input, 1, split - 1));
      if (channel.isOpen()) { // a bad frame in the first read closed it
        channel.writeInbound(Unpooled.wrappedBuffer(input, split, input.length - split));
      }
      int frames = 0;
      Object frame;
      while ((frame = channel.readInbound()) != null) {
        if (!(frame instanceof Frame)) {
          throw new AssertionError("Expected only frames, but the decoder handed on " + frame);
        }
        frames++;
      }
      return frames;
    } finally {
      channel.finishAndReleaseAll();
    }
  }
}
