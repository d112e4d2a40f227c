package io.cairn.fuzz;

import static io.cairn.fuzz.DecoderContract.decodesOrRefuses;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.cairn.files.DurableFiles;
import io.cairn.journal.JournalConfig;
import io.cairn.journal.JournalException;
import io.cairn.journal.JournalReader;
import io.cairn.journal.SegmentedJournal;
import io.cairn.journal.segment.SegmentDescriptor;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Timeout;

/**
 * Journal segments: the files a broker reads at start-up, and the files a restore copies out of a
 * backup. Opening a journal on a segment and reading it to the end either works or fails with a
 * {@link JournalException}.
 */
class JournalFuzzTest {

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void descriptors(byte[] input) {
    decodesOrRefuses(
        input,
        SegmentDescriptor.InvalidDescriptorException.class,
        () -> SegmentDescriptor.decode(ByteBuffer.wrap(input), "fuzzed segment"));
  }

  /**
   * The input is a whole segment file. Its descriptor checksum is computed here, so that the fuzzer
   * gets past it to the frames (a changed descriptor is covered by {@link #descriptors}).
   */
  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void segments(byte[] input) throws IOException {
    byte[] segment = input.clone();
    if (segment.length >= SegmentDescriptor.LENGTH_BYTES) {
      CRC32C crc = new CRC32C();
      crc.update(segment, 0, SegmentDescriptor.CHECKSUM_OFFSET);
      ByteBuffer.wrap(segment)
          .order(ByteOrder.LITTLE_ENDIAN)
          .putInt(SegmentDescriptor.CHECKSUM_OFFSET, (int) crc.getValue());
    }
    Path directory = Files.createTempDirectory("fuzzed-journal");
    try {
      Files.write(directory.resolve("journal-1.log"), segment);
      decodesOrRefuses(segment, JournalException.class, () -> readAll(directory));
    } finally {
      DurableFiles.deleteRecursively(directory);
    }
  }

  /** The journal of {@link #segments}: its one segment file is {@code journal-1.log}. */
  static JournalConfig config(Path directory) {
    return JournalConfig.builder()
        .directory(directory)
        .name("journal")
        .segmentSizeBytes(JournalConfig.SEGMENT_SIZE_BYTES_MIN)
        .preallocateSegmentFiles(false)
        .build();
  }

  private static void readAll(Path directory) {
    try (SegmentedJournal journal =
            SegmentedJournal.open(config(directory), new SimpleMeterRegistry());
        JournalReader reader = journal.openReader()) {
      while (reader.hasNext()) {
        reader.next();
      }
    }
  }
}
