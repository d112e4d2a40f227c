package io.cairn.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.cairn.journal.segment.FrameDescriptor;
import io.cairn.journal.segment.SegmentDescriptor;
import io.cairn.journal.segment.SegmentFiles;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Crashes and corruption: torn tails are cut, everything else fails loudly. Every case starts from
 * a journal written and closed normally, then changes its files as a crash or a failing disk would.
 */
class JournalCrashTest {

  private static final long SEED = Long.getLong("cairn.seed", 0xC0FFEEL);
  private static final int RECORDS = 60;

  @TempDir Path root;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  /** Where a record's frame lies. */
  private record Frame(long index, Path file, long start, long end) {}

  /** How a write was torn. */
  enum Tear {
    /** The file ends at the cut (a file that grows with each write). */
    FILE_ENDS,
    /** The bytes after the cut are zero, the marker was written (pages reached disk unordered). */
    ZEROS_MARKER_WRITTEN,
    /** The bytes after the cut are zero and the marker, written last, is not there. */
    ZEROS_NO_MARKER
  }

  @ParameterizedTest
  @EnumSource(Tear.class)
  void shouldKeepExactlyTheRecordsBeforeACutInsideTheLastRecord(Tear tear) throws IOException {
    // given
    Path original = root.resolve("original");
    boolean preallocate = tear != Tear.FILE_ENDS;
    List<byte[]> written = new ArrayList<>();
    List<Frame> frames = write(original, preallocate, written);
    Frame last = frames.get(frames.size() - 1);

    for (long cut = last.start(); cut < last.end(); cut++) {
      Path copy = copy(original, root.resolve(tear + "-" + cut));
      Path file = copy.resolve(last.file().getFileName());
      tear(file, tear, last.start(), cut, last.end());

      // when
      try (SegmentedJournal journal = open(copy, preallocate)) {
        // then
        assertThat(readAll(journal))
            .as("cut at %d", cut)
            .isEqualTo(summaries(written.subList(0, RECORDS - 1)));
        assertThat(journal.getLastIndex()).isEqualTo(RECORDS - 1);
        List<JournalSegmentFile> files = journal.segmentFiles();
        assertThat(files.get(files.size() - 1).committedLengthBytes()).isEqualTo(last.start());
        journal.append(Journal.ASQN_IGNORE, new UnsafeBuffer(new byte[] {7}));
      }
      try (SegmentedJournal reopened = open(copy, preallocate)) {
        assertThat(reopened.getLastIndex()).isEqualTo(RECORDS);
        assertThat(readAll(reopened).get(RECORDS - 1)).isEqualTo(summary(new byte[] {7}));
      }
      deleteRecursively(copy);
    }
  }

  @Test
  void shouldKeepTheRecordsThatEndBeforeARandomCutOfTheLastSegment() throws IOException {
    Path original = root.resolve("original");
    List<byte[]> written = new ArrayList<>();
    List<Frame> frames = write(original, false, written);
    Path lastFile = frames.get(frames.size() - 1).file();
    long lastFileEnd = frames.get(frames.size() - 1).end();
    Random random = new Random(SEED);

    for (int i = 0; i < 40; i++) {
      long cut =
          SegmentDescriptor.LENGTH_BYTES
              + (long) random.nextInt((int) (lastFileEnd - SegmentDescriptor.LENGTH_BYTES));
      Path copy = copy(original, root.resolve("random-" + i));
      boolean zeros = random.nextBoolean();
      tear(
          copy.resolve(lastFile.getFileName()),
          zeros ? Tear.ZEROS_MARKER_WRITTEN : Tear.FILE_ENDS,
          cut,
          cut,
          lastFileEnd);
      int survivors =
          (int) frames.stream().filter(f -> !f.file().equals(lastFile) || f.end() <= cut).count();

      try (SegmentedJournal journal = open(copy, false)) {
        assertThat(readAll(journal))
            .as("seed %d, cut at %d", SEED, cut)
            .isEqualTo(summaries(written.subList(0, survivors)));
      }
      deleteRecursively(copy);
    }
  }

  @Test
  void shouldFailOnAnyBitFlipInAClosedSegment() throws IOException {
    Path original = root.resolve("original");
    List<Frame> frames = write(original, true, new ArrayList<>());
    Path closed = frames.get(0).file();
    long closedEnd =
        frames.stream()
            .filter(f -> f.file().equals(closed))
            .mapToLong(Frame::end)
            .max()
            .orElseThrow();
    Random random = new Random(SEED);
    List<Long> offsets = new ArrayList<>();
    Frame victim = frames.get(3);
    // one of each part of a frame, then random bytes anywhere in the descriptor and records
    offsets.add(victim.start() + FrameDescriptor.MARKER_OFFSET);
    offsets.add(victim.start() + FrameDescriptor.LENGTH_OFFSET + 1);
    offsets.add(victim.start() + FrameDescriptor.CHECKSUM_OFFSET + 2);
    offsets.add(victim.start() + FrameDescriptor.INDEX_OFFSET);
    offsets.add(victim.start() + FrameDescriptor.ASQN_OFFSET + 7);
    offsets.add(victim.start() + FrameDescriptor.DATA_OFFSET + 5);
    offsets.add(closedEnd - 1);
    for (int i = 0; i < 60; i++) {
      offsets.add((long) random.nextInt((int) closedEnd));
    }

    for (long offset : offsets) {
      int bit = random.nextInt(8);
      Path copy = copy(original, root.resolve("flip-" + offset + "-" + bit));
      flipBit(copy.resolve(closed.getFileName()), offset, bit);

      CorruptedJournalException failure =
          catchThrowableOfType(CorruptedJournalException.class, () -> open(copy, true).close());

      assertThat(failure).as("bit %d of byte %d (seed %d)", bit, offset, SEED).isNotNull();
      assertThat(failure.file().getFileName()).isEqualTo(closed.getFileName());
      assertThat(failure.getMessage()).contains(closed.getFileName().toString());
      deleteRecursively(copy);
    }
  }

  @Test
  void shouldNameFileOffsetIndexAndChecksumsOfACorruptedRecord() throws IOException {
    Path original = root.resolve("original");
    List<Frame> frames = write(original, true, new ArrayList<>());
    Frame victim = frames.get(2);
    flipBit(victim.file(), victim.start() + FrameDescriptor.DATA_OFFSET + 3, 4);

    CorruptedJournalException failure =
        catchThrowableOfType(CorruptedJournalException.class, () -> open(original, true).close());

    assertThat(failure.file()).isEqualTo(victim.file());
    assertThat(failure.offsetBytes()).isEqualTo(victim.start());
    assertThat(failure.index()).isEqualTo(victim.index());
    assertThat(failure.expectedChecksum()).isPresent();
    assertThat(failure.actualChecksum()).isPresent();
    assertThat(failure.expectedChecksum()).isNotEqualTo(failure.actualChecksum());
    assertThat(failure.getMessage())
        .contains("Expected checksum 0x")
        .contains("offset " + victim.start())
        .contains("index " + victim.index());
  }

  @ParameterizedTest
  @ValueSource(
      ints = {
        FrameDescriptor.MARKER_OFFSET,
        FrameDescriptor.LENGTH_OFFSET,
        FrameDescriptor.CHECKSUM_OFFSET,
        FrameDescriptor.INDEX_OFFSET,
        FrameDescriptor.DATA_OFFSET
      })
  void shouldFailWhenARecordOfTheLastSegmentIsFollowedByValidRecords(int field) throws IOException {
    Path original = root.resolve("original");
    List<Frame> frames = write(original, true, new ArrayList<>());
    Frame victim = frames.get(frames.size() - 3);
    assertThat(victim.file()).isEqualTo(frames.get(frames.size() - 1).file());
    flipBit(victim.file(), victim.start() + field, 0);

    assertThatThrownBy(() -> open(original, true).close())
        .isInstanceOf(CorruptedJournalException.class)
        .hasMessageContaining(victim.file().toString())
        .hasMessageContaining("offset " + victim.start());
  }

  @Test
  void shouldTruncateTheLastRecordOfTheLastSegmentWhenItsChecksumDoesNotMatch() throws IOException {
    Path original = root.resolve("original");
    List<byte[]> written = new ArrayList<>();
    List<Frame> frames = write(original, true, written);
    Frame last = frames.get(frames.size() - 1);
    flipBit(last.file(), last.start() + FrameDescriptor.DATA_OFFSET, 2);

    try (SegmentedJournal journal = open(original, true)) {
      assertThat(readAll(journal)).isEqualTo(summaries(written.subList(0, RECORDS - 1)));
    }
  }

  @Test
  void shouldNotReadGarbageAfterTheLastRecordOfAPreallocatedSegment() throws IOException {
    Path original = root.resolve("original");
    List<byte[]> written = new ArrayList<>();
    List<Frame> frames = write(original, true, written);
    Frame last = frames.get(frames.size() - 1);
    Random random = new Random(SEED);

    for (int gap : new int[] {0, 1, FrameDescriptor.HEADER_LENGTH_BYTES, 300}) {
      Path copy = copy(original, root.resolve("garbage-" + gap));
      byte[] garbage = new byte[200];
      random.nextBytes(garbage);
      garbage[0] = FrameDescriptor.MARKER_V1; // looks like the start of a frame
      write(copy.resolve(last.file().getFileName()), last.end() + gap, garbage);

      try (SegmentedJournal journal = open(copy, true)) {
        assertThat(readAll(journal)).as("garbage at +%d", gap).isEqualTo(summaries(written));
        journal.append(Journal.ASQN_IGNORE, new UnsafeBuffer(new byte[] {1, 2, 3}));
      }
      try (SegmentedJournal journal = open(copy, true)) {
        assertThat(journal.getLastIndex()).isEqualTo(RECORDS + 1);
        assertThat(readAll(journal).get(RECORDS)).isEqualTo(summary(new byte[] {1, 2, 3}));
      }
      deleteRecursively(copy);
    }
  }

  @Test
  void shouldNeverReturnDataOfARecordCorruptedWhileTheJournalIsOpen() throws IOException {
    Path original = root.resolve("original");
    List<Frame> frames = write(original, true, new ArrayList<>());
    Frame victim = frames.get(5);

    try (SegmentedJournal journal = open(original, true);
        JournalReader reader = journal.openReader()) {
      flipBit(victim.file(), victim.start() + FrameDescriptor.DATA_OFFSET + 1, 1);
      reader.seek(victim.index());

      assertThatThrownBy(reader::next)
          .isInstanceOf(CorruptedJournalException.class)
          .hasMessageContaining("index " + victim.index());
    }
  }

  @Test
  void shouldRejectASegmentOfAnotherVersion() throws IOException {
    Path original = root.resolve("original");
    List<Frame> frames = write(original, true, new ArrayList<>());
    write(frames.get(0).file(), SegmentDescriptor.VERSION_OFFSET, new byte[] {2});

    assertThatThrownBy(() -> open(original, true).close())
        .isInstanceOf(CorruptedJournalException.class)
        .hasMessageContaining("Expected segment version 1, but was 2")
        .hasMessageContaining(frames.get(0).file().getFileName().toString());
  }

  @Test
  void shouldRejectAFileThatIsNotASegment() throws IOException {
    Files.createDirectories(root);
    Files.writeString(root.resolve("journal-1.log"), "this is not a journal segment at all");

    assertThatThrownBy(() -> open(root, true).close())
        .isInstanceOf(CorruptedJournalException.class)
        .hasMessageContaining("Expected segment magic 0x4E524143, but was")
        .hasMessageContaining("journal-1.log");
  }

  @Test
  void shouldRejectSegmentsWhoseIndexesDoNotContinue() throws IOException {
    Path original = root.resolve("original");
    List<Frame> frames = write(original, true, new ArrayList<>());
    Frame firstOfSecond =
        frames.stream()
            .filter(f -> !f.file().equals(frames.get(0).file()))
            .findFirst()
            .orElseThrow();
    SegmentDescriptor descriptor = readDescriptor(firstOfSecond.file());
    SegmentDescriptor shifted =
        new SegmentDescriptor(
            descriptor.segmentId(), descriptor.firstIndex() + 2, descriptor.maxSegmentSizeBytes());
    ByteBuffer encoded = shifted.encode();
    byte[] bytes = new byte[encoded.remaining()];
    encoded.get(bytes);
    write(firstOfSecond.file(), 0, bytes);

    assertThatThrownBy(() -> open(original, true).close())
        .isInstanceOf(CorruptedJournalException.class)
        .hasMessageContaining("where the next segment begins");
  }

  @Test
  void shouldDeleteALeftoverTemporarySegmentFile() throws IOException {
    Path original = root.resolve("original");
    write(original, true, new ArrayList<>());
    Path leftover = original.resolve("journal-99.log.tmp");
    Files.write(leftover, new byte[] {1, 2, 3});

    try (SegmentedJournal journal = open(original, true)) {
      assertThat(journal.getLastIndex()).isEqualTo(RECORDS);
    }
    assertThat(leftover).doesNotExist();
  }

  @Test
  void shouldCompleteAResetThatACrashInterrupted() throws IOException {
    // given: the old segments are still on disk next to the segment the reset created
    Path original = root.resolve("original");
    List<Frame> frames = write(original, true, new ArrayList<>());
    Path beforeReset = copy(original, root.resolve("before-reset"));
    try (SegmentedJournal journal = open(original, true)) {
      journal.reset(500);
      journal.append(Journal.ASQN_IGNORE, new UnsafeBuffer(new byte[] {5}));
    }
    try (Stream<Path> files = Files.list(original)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Files.copy(file, beforeReset.resolve(file.getFileName()));
      }
    }

    // when
    try (SegmentedJournal journal = open(beforeReset, true)) {
      // then
      assertThat(journal.getFirstIndex()).isEqualTo(500);
      assertThat(readAll(journal)).containsExactly(summary(new byte[] {5}));
      assertThat(journal.segmentFiles()).hasSize(1);
    }
    for (Frame frame : frames) {
      assertThat(beforeReset.resolve(frame.file().getFileName())).doesNotExist();
    }
  }

  @Test
  void shouldDeleteAnEmptySegmentThatACrashLeftBeforeItsReplacement() throws IOException {
    // given: the last segment is empty, and its replacement (same first index) was created
    Path original = root.resolve("original");
    List<byte[]> written = new ArrayList<>();
    write(original, true, written);
    JournalSegmentFile emptied;
    try (SegmentedJournal journal = open(original, true)) {
      List<JournalSegmentFile> files = journal.segmentFiles();
      journal.deleteAfter(files.get(files.size() - 1).firstIndex() - 1);
      emptied = journal.segmentFiles().get(files.size() - 1);
    }
    new SegmentFiles(original, "journal", JournalFiles.REAL)
        .create(new SegmentDescriptor(emptied.segmentId() + 1, emptied.firstIndex(), 16384), true)
        .close();

    // when
    try (SegmentedJournal journal = open(original, true)) {
      // then
      assertThat(emptied.path()).doesNotExist();
      assertThat(journal.getLastIndex()).isEqualTo(emptied.firstIndex() - 1);
      assertThat(readAll(journal))
          .isEqualTo(summaries(written.subList(0, (int) emptied.firstIndex() - 1)));
      List<JournalSegmentFile> files = journal.segmentFiles();
      assertThat(files.get(files.size() - 1).segmentId()).isEqualTo(emptied.segmentId() + 1);
      journal.append(Journal.ASQN_IGNORE, new UnsafeBuffer(new byte[100]));
      assertThat(journal.getLastIndex()).isEqualTo(emptied.firstIndex());
    }
  }

  @Test
  void shouldLoseOnlyTheUnflushedLastRecordWhenTheProcessDies() throws IOException {
    // given: a journal that is not flushed; a copy of its files is what a killed process leaves
    Path live = root.resolve("live");
    List<byte[]> written = new ArrayList<>();
    Random random = new Random(SEED);
    try (SegmentedJournal journal = open(live, true)) {
      for (int i = 0; i < RECORDS; i++) {
        byte[] data = new byte[50 + random.nextInt(200)];
        random.nextBytes(data);
        journal.append(i, new UnsafeBuffer(data));
        written.add(data);
      }
      Path killed = copy(live, root.resolve("killed"));
      journal.flush();
      Path killedAfterFlush = copy(live, root.resolve("killed-after-flush"));

      // when / then: the last record waited for its marker and is cut as a torn tail
      try (SegmentedJournal recovered = open(killed, true)) {
        assertThat(readAll(recovered)).isEqualTo(summaries(written.subList(0, RECORDS - 1)));
      }
      // a flush writes the marker: nothing is lost
      try (SegmentedJournal recovered = open(killedAfterFlush, true)) {
        assertThat(readAll(recovered)).isEqualTo(summaries(written));
      }
    }
  }

  @Test
  void shouldMarkLargeRecordsAtOnce() throws IOException {
    Path live = root.resolve("live");
    JournalConfig config =
        JournalConfig.builder().directory(live).name("journal").segmentSizeBytes(65536).build();
    try (SegmentedJournal journal = SegmentedJournal.open(config, registry)) {
      journal.append(Journal.ASQN_IGNORE, new UnsafeBuffer(new byte[10_000]));
      journal.append(Journal.ASQN_IGNORE, new UnsafeBuffer(new byte[20_000]));
      assertThat(journal.segmentFiles().get(0).lastIndex()).isEqualTo(2);

      Path killed = copy(live, root.resolve("killed"));
      try (SegmentedJournal recovered =
          SegmentedJournal.open(config.toBuilder().directory(killed).build(), registry2())) {
        assertThat(recovered.getLastIndex()).isEqualTo(2);
      }
    }
  }

  private static SimpleMeterRegistry registry2() {
    return new SimpleMeterRegistry();
  }

  // --- helpers ---

  private SegmentedJournal open(Path directory, boolean preallocate) {
    return SegmentedJournal.open(
        JournalConfig.builder()
            .directory(directory)
            .name("journal")
            .segmentSizeBytes(4096)
            .indexDensity(4)
            .preallocateSegmentFiles(preallocate)
            .build(),
        registry);
  }

  /** Writes {@link #RECORDS} records (about 3 segments) and closes the journal. */
  private List<Frame> write(Path directory, boolean preallocate, List<byte[]> written) {
    Random random = new Random(SEED);
    List<Frame> frames = new ArrayList<>();
    try (SegmentedJournal journal = open(directory, preallocate)) {
      for (int i = 0; i < RECORDS; i++) {
        byte[] data = new byte[80 + random.nextInt(120)];
        random.nextBytes(data);
        long index = journal.append(i, new UnsafeBuffer(data)).index();
        written.add(data);
        List<JournalSegmentFile> files = journal.segmentFiles();
        Path file = files.get(files.size() - 1).path();
        Frame previous = frames.isEmpty() ? null : frames.get(frames.size() - 1);
        long start =
            previous != null && previous.file().equals(file)
                ? previous.end()
                : SegmentDescriptor.LENGTH_BYTES;
        frames.add(new Frame(index, file, start, start + FrameDescriptor.frameLength(data.length)));
      }
    }
    assertThat(frames.stream().map(Frame::file).distinct().count()).isGreaterThanOrEqualTo(3);
    return frames;
  }

  /** Each record as "length bytes, CRC32 of the data", so that mismatches print briefly. */
  private static List<String> readAll(Journal journal) {
    List<String> all = new ArrayList<>();
    try (JournalReader reader = journal.openReader()) {
      while (reader.hasNext()) {
        JournalRecord record = reader.next();
        byte[] bytes = new byte[record.data().capacity()];
        record.data().getBytes(0, bytes);
        all.add(summary(bytes));
      }
    }
    return all;
  }

  private static String summary(byte[] data) {
    CRC32 crc = new CRC32();
    crc.update(data);
    return data.length + " bytes, crc " + Long.toHexString(crc.getValue());
  }

  private static List<String> summaries(List<byte[]> data) {
    return data.stream().map(JournalCrashTest::summary).toList();
  }

  private static void tear(Path file, Tear tear, long frameStart, long cut, long end)
      throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      if (tear == Tear.FILE_ENDS) {
        channel.truncate(cut);
        return;
      }
      ByteBuffer zeros = ByteBuffer.allocate((int) (end - cut));
      while (zeros.hasRemaining()) {
        channel.write(zeros, cut + zeros.position());
      }
      if (tear == Tear.ZEROS_NO_MARKER) {
        channel.write(ByteBuffer.allocate(1), frameStart);
      }
    }
  }

  private static void flipBit(Path file, long offset, int bit) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      channel.read(one, offset);
      one.put(0, (byte) (one.get(0) ^ (1 << bit)));
      one.clear();
      channel.write(one, offset);
    }
  }

  private static void write(Path file, long offset, byte[] bytes) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer, offset + buffer.position());
      }
    }
  }

  private static SegmentDescriptor readDescriptor(Path file) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(SegmentDescriptor.LENGTH_BYTES);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      channel.read(buffer, 0);
    }
    buffer.flip();
    return SegmentDescriptor.decode(buffer, file.toString());
  }

  private static Path copy(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Files.copy(file, to.resolve(file.getFileName()));
      }
    }
    return to;
  }

  private static void deleteRecursively(Path directory) {
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Files.delete(file);
      }
      Files.delete(directory);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
