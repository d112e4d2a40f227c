package io.cairn.journal.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.cairn.journal.Journal;
import io.cairn.journal.JournalRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Round trips of the on-disk layouts, and every single-bit flip is detected. */
class SegmentFormatTest {

  /** QuickTheories prints this seed with any falsifying example. */
  private static final long SEED = Long.getLong("cairn.seed", 0xF0F0_2024L);

  @TempDir Path directory;

  @Test
  void shouldDecodeWhatItEncodes() {
    qt().withFixedSeed(SEED)
        .withExamples(500)
        .forAll(
            longs().between(1, Long.MAX_VALUE),
            longs().between(1, Long.MAX_VALUE),
            integers().between(SegmentDescriptor.LENGTH_BYTES + 26, Integer.MAX_VALUE),
            booleans().all())
        .checkAssert(
            (id, firstIndex, size, reset) -> {
              SegmentDescriptor descriptor =
                  new SegmentDescriptor(
                      id, firstIndex, size, reset ? SegmentDescriptor.FLAG_RESET : 0);

              SegmentDescriptor decoded = SegmentDescriptor.decode(descriptor.encode(), "test");

              assertThat(decoded).isEqualTo(descriptor);
              assertThat(decoded.isReset()).isEqualTo(reset);
            });
  }

  @Test
  void shouldDetectEveryBitFlipInADescriptor() {
    ByteBuffer encoded = new SegmentDescriptor(7, 1234, 4096).encode();
    for (int bit = 0; bit < SegmentDescriptor.LENGTH_BYTES * 8; bit++) {
      ByteBuffer flipped = ByteBuffer.allocate(SegmentDescriptor.LENGTH_BYTES);
      flipped.put(encoded.duplicate()).flip();
      flipped.put(bit / 8, (byte) (flipped.get(bit / 8) ^ (1 << (bit % 8))));

      assertThatThrownBy(() -> SegmentDescriptor.decode(flipped, "test"))
          .as("bit %d", bit)
          .isInstanceOf(SegmentDescriptor.InvalidDescriptorException.class);
    }
  }

  @Test
  void shouldStoreTheChecksumThatRecordsReport() throws IOException {
    try (FrameFile file = new FrameFile(directory.resolve("frames.log"))) {
      qt().withFixedSeed(SEED)
          .withExamples(200)
          .forAll(
              longs().between(1, Long.MAX_VALUE),
              longs().between(Journal.ASQN_IGNORE, Long.MAX_VALUE),
              integers().between(0, 2000),
              longs().all())
          .checkAssert(
              (index, asqn, length, contentSeed) -> {
                byte[] data = data(length, contentSeed);
                int checksum = file.write(index, asqn, data);

                assertThat(checksum)
                    .isEqualTo(JournalRecord.computeChecksum(index, asqn, new UnsafeBuffer(data)));
                assertThat(file.check(index)).isEqualTo(FrameCheck.Status.VALID);
                assertThat(file.frame.asqn()).isEqualTo(asqn);
                assertThat(file.frame.dataLength()).isEqualTo(length);
              });
    }
  }

  @Test
  void shouldDetectEveryBitFlipInAFrame() throws IOException {
    try (FrameFile file = new FrameFile(directory.resolve("frames.log"))) {
      qt().withFixedSeed(SEED)
          .withExamples(300)
          .forAll(
              longs().between(1, Long.MAX_VALUE),
              integers().between(0, 300),
              longs().all(),
              integers().between(0, Integer.MAX_VALUE))
          .checkAssert(
              (index, length, contentSeed, bitChoice) -> {
                file.write(index, 17, data(length, contentSeed));
                int bit = bitChoice % (FrameDescriptor.frameLength(length) * 8);
                file.flip(bit);

                assertThat(file.check(index))
                    .as("bit %d", bit)
                    .isNotEqualTo(FrameCheck.Status.VALID);
              });
    }
  }

  private static byte[] data(int length, long seed) {
    byte[] data = new byte[length];
    new Random(seed).nextBytes(data);
    return data;
  }

  /** One frame at the start of a file, after a descriptor. */
  private static final class FrameFile implements AutoCloseable {
    private final FileChannel channel;
    private final Path path;
    private final SegmentWriter writer = new SegmentWriter(64);
    private final FileWindow window = new FileWindow(64);
    private final FrameCheck frame = new FrameCheck();

    FrameFile(Path path) throws IOException {
      this.path = path;
      this.channel =
          FileChannel.open(
              path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    int write(long index, long asqn, byte[] data) {
      try {
        channel.truncate(0);
        SegmentDescriptor descriptor = new SegmentDescriptor(1, index, 1 << 20);
        Segment segment =
            new Segment(
                path,
                descriptor,
                channel,
                new Segment.Tail(index - 1, SegmentDescriptor.LENGTH_BYTES, Journal.ASQN_IGNORE));
        int checksum = writer.prepare(index, asqn, new UnsafeBuffer(data));
        assertThat(writer.writeTo(segment)).isTrue();
        writer.markPending();
        return checksum;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    void flip(int bit) {
      try {
        long offset = SegmentDescriptor.LENGTH_BYTES + bit / 8;
        ByteBuffer one = ByteBuffer.allocate(1);
        channel.read(one, offset);
        one.put(0, (byte) (one.get(0) ^ (1 << (bit % 8)))).clear();
        channel.write(one, offset);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    FrameCheck.Status check(long index) {
      try {
        window.use(channel);
        return frame.check(window, SegmentDescriptor.LENGTH_BYTES, channel.size(), index);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
