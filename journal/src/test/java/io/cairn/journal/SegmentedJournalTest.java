package io.cairn.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SegmentedJournalTest {

  @TempDir Path directory;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private SegmentedJournal journal;

  @AfterEach
  void closeJournal() {
    if (journal != null) {
      journal.close();
    }
  }

  private JournalConfig config(int segmentSizeBytes) {
    return JournalConfig.builder()
        .directory(directory)
        .name("journal")
        .segmentSizeBytes(segmentSizeBytes)
        .indexDensity(3)
        .build();
  }

  private static DirectBuffer data(String text) {
    return new UnsafeBuffer(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String text(JournalRecord record) {
    byte[] bytes = new byte[record.data().capacity()];
    record.data().getBytes(0, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static List<String> readAll(Journal journal) {
    List<String> texts = new ArrayList<>();
    try (JournalReader reader = journal.openReader()) {
      while (reader.hasNext()) {
        texts.add(text(reader.next()));
      }
    }
    return texts;
  }

  @Test
  void shouldReadAppendedRecordsAcrossSegmentsAfterReopen() {
    // given
    journal = SegmentedJournal.open(config(4096), registry);
    List<String> expected = new ArrayList<>();
    for (int i = 1; i <= 500; i++) {
      JournalRecord record = journal.append(i * 10L, data("record-" + i));
      assertThat(record.index()).isEqualTo(i);
      expected.add("record-" + i);
    }

    // when
    journal.close();
    journal = SegmentedJournal.open(config(4096), registry);

    // then
    assertThat(journal.segmentFiles()).hasSizeGreaterThan(2);
    assertThat(journal.getFirstIndex()).isEqualTo(1);
    assertThat(journal.getLastIndex()).isEqualTo(500);
    assertThat(readAll(journal)).isEqualTo(expected);
  }

  @Test
  void shouldRejectReplicatedRecordWithWrongChecksum() {
    journal = SegmentedJournal.open(config(4096), registry);
    DirectBuffer data = data("x");
    int checksum = JournalRecord.computeChecksum(1, 5, data);

    assertThatThrownBy(() -> journal.append(new JournalRecord(1, 5, checksum + 1, data)))
        .isInstanceOf(InvalidChecksumException.class)
        .hasMessageContaining("Expected the replicated record's checksum");
    assertThat(journal.isEmpty()).isTrue();

    journal.append(new JournalRecord(1, 5, checksum, data));
    assertThat(readAll(journal)).containsExactly("x");
  }

  @Test
  void shouldRejectReplicatedRecordWithWrongIndex() {
    journal = SegmentedJournal.open(config(4096), registry);
    journal.append(Journal.ASQN_IGNORE, data("one"));
    DirectBuffer data = data("x");

    for (long index : new long[] {1, 3}) {
      JournalRecord record =
          new JournalRecord(index, 5, JournalRecord.computeChecksum(index, 5, data), data);
      assertThatThrownBy(() -> journal.append(record))
          .isInstanceOf(InvalidIndexException.class)
          .hasMessage(
              "Expected the replicated record's index to be 2, but was "
                  + index
                  + " (journal 'journal')");
    }
    assertThat(journal.getLastIndex()).isEqualTo(1);
  }

  @Test
  void shouldRejectChecksumComputedWithoutIndexAndAsqn() {
    journal = SegmentedJournal.open(config(4096), registry);
    DirectBuffer data = data("payload");
    int dataOnly = JournalRecord.computeChecksum(2, 5, data);

    assertThatThrownBy(() -> journal.append(new JournalRecord(1, 5, dataOnly, data)))
        .isInstanceOf(InvalidChecksumException.class);
  }

  @Test
  void shouldRejectRecordLargerThanASegmentNamingTheSizes() {
    journal = SegmentedJournal.open(config(4096), registry);

    assertThatThrownBy(() -> journal.append(Journal.ASQN_IGNORE, new UnsafeBuffer(new byte[4040])))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Expected record data to be at most 4039 bytes, the most a segment of 4096 bytes"
                + " holds, but was 4040 bytes (journal 'journal')");
    assertThat(journal.isEmpty()).isTrue();
  }

  @Test
  void shouldRollToANewSegmentWhenARecordDoesNotFit() {
    journal = SegmentedJournal.open(config(4096), registry);
    journal.append(Journal.ASQN_IGNORE, data("small"));

    journal.append(Journal.ASQN_IGNORE, new UnsafeBuffer(new byte[4039]));
    journal.append(Journal.ASQN_IGNORE, data("after"));

    List<JournalSegmentFile> files = journal.segmentFiles();
    assertThat(files).hasSize(3);
    assertThat(files.get(1).firstIndex()).isEqualTo(2);
    assertThat(files.get(1).lastIndex()).isEqualTo(2);
    assertThat(files.get(1).committedLengthBytes()).isEqualTo(4096);
    assertThat(files.get(2).firstIndex()).isEqualTo(3);
    assertThat(files.get(2).path().getFileName().toString()).isEqualTo("journal-3.log");
  }

  @Test
  void shouldReplaceAnEmptySegmentTooSmallForARecordAfterTheSizeGrew() {
    journal = SegmentedJournal.open(config(4096), registry);
    journal.append(Journal.ASQN_IGNORE, new UnsafeBuffer(new byte[4039]));
    journal.close();
    journal = SegmentedJournal.open(config(4096), registry);
    journal.append(Journal.ASQN_IGNORE, data("rolls into an empty 4096 byte segment"));
    journal.deleteAfter(1);
    journal.close();

    journal = SegmentedJournal.open(config(16384), registry);
    journal.append(Journal.ASQN_IGNORE, new UnsafeBuffer(new byte[10_000]));
    journal.close();
    journal = SegmentedJournal.open(config(16384), registry);

    assertThat(journal.getLastIndex()).isEqualTo(2);
    assertThat(journal.segmentFiles()).hasSize(2);
    assertThat(readAll(journal).get(1)).hasSize(10_000);
  }

  @Test
  void shouldRejectAsqnThatDoesNotIncrease() {
    journal = SegmentedJournal.open(config(4096), registry);
    journal.append(10, data("a"));
    journal.append(Journal.ASQN_IGNORE, data("b"));

    assertThatThrownBy(() -> journal.append(10, data("c")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected asqn to be greater than the highest asqn 10")
        .hasMessageContaining("but was 10 (index 3");
    assertThatThrownBy(() -> journal.append(-7, data("c")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected asqn to be -1 or at least 0, but was -7");
    assertThat(journal.append(11, data("c")).index()).isEqualTo(3);
  }

  @Test
  void shouldReopenACopyOfExactlyTheCommittedLengths() throws IOException {
    // given: a preallocated journal whose last segment is partly filled
    journal = SegmentedJournal.open(config(4096), registry);
    for (int i = 1; i <= 100; i++) {
      journal.append(i, data("record-" + i));
    }
    journal.flush();
    List<String> expected = readAll(journal);
    List<JournalSegmentFile> files = journal.segmentFiles();
    assertThat(Files.size(files.get(files.size() - 1).path()))
        .isEqualTo(4096)
        .isGreaterThan(files.get(files.size() - 1).committedLengthBytes());

    // when: each file is copied up to its committed length while the journal stays open
    Path copy = directory.resolve("copy");
    Files.createDirectories(copy);
    for (JournalSegmentFile file : files) {
      try (FileChannel source = FileChannel.open(file.path(), StandardOpenOption.READ);
          FileChannel target =
              FileChannel.open(
                  copy.resolve(file.path().getFileName()),
                  StandardOpenOption.CREATE_NEW,
                  StandardOpenOption.WRITE)) {
        source.transferTo(0, file.committedLengthBytes(), target);
      }
    }
    journal.append(101, data("written after the copy"));

    // then
    try (SegmentedJournal restored =
        SegmentedJournal.open(config(4096).toBuilder().directory(copy).build(), registry2())) {
      assertThat(restored.getFirstIndex()).isEqualTo(1);
      assertThat(restored.getLastIndex()).isEqualTo(100);
      assertThat(readAll(restored)).isEqualTo(expected);
      assertThat(restored.segmentFiles())
          .extracting(JournalSegmentFile::committedLengthBytes)
          .isEqualTo(files.stream().map(JournalSegmentFile::committedLengthBytes).toList());
    }
  }

  @Test
  void shouldNeverDeleteTheLastSegmentWhenCompacting() {
    journal = SegmentedJournal.open(config(4096), registry);
    for (int i = 1; i <= 500; i++) {
      journal.append(Journal.ASQN_IGNORE, data("record-" + i));
    }
    List<JournalSegmentFile> before = journal.segmentFiles();
    assertThat(before).hasSizeGreaterThan(3);
    JournalSegmentFile second = before.get(1);

    assertThat(journal.deleteUntil(second.firstIndex() - 1)).isFalse();
    assertThat(journal.deleteUntil(second.firstIndex() + 1)).isTrue();
    assertThat(journal.getFirstIndex()).isEqualTo(second.firstIndex());
    assertThat(before.get(0).path()).doesNotExist();

    assertThat(journal.deleteUntil(Long.MAX_VALUE)).isTrue();
    List<JournalSegmentFile> after = journal.segmentFiles();
    assertThat(after).hasSize(1);
    assertThat(after.get(0).path()).isEqualTo(before.get(before.size() - 1).path());
    assertThat(journal.getLastIndex()).isEqualTo(500);
    assertThat(readAll(journal)).last().isEqualTo("record-500");
  }

  @Test
  void shouldCloseTheFilesOfDeletedSegmentsThatIdleReadersWereOn() throws IOException {
    // long-lived readers (the stream processor's, raft's, the archiver's) may rest on a segment
    // for a long time: a deleted segment's disk space must not stay held by them
    assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc/self/fd");
    journal = SegmentedJournal.open(config(4096), registry);
    for (int i = 1; i <= 500; i++) {
      journal.append(Journal.ASQN_IGNORE, data("record-" + i));
    }
    JournalReader compacted = journal.openReader();
    assertThat(text(compacted.next())).isEqualTo("record-1");
    JournalReader truncated = journal.openReader();
    truncated.seek(450);
    assertThat(text(truncated.next())).isEqualTo("record-450");
    JournalReader reset = journal.openReader();
    reset.seek(200);
    assertThat(text(reset.next())).isEqualTo("record-200");

    journal.deleteUntil(300);
    journal.deleteAfter(400);
    assertThat(openDeletedFiles()).isEmpty();
    assertThat(compacted.hasNext()).isTrue();
    assertThat(text(compacted.next())).isEqualTo("record-" + journal.getFirstIndex());
    assertThat(truncated.hasNext()).isFalse();
    assertThat(text(reset.next())).isEqualTo("record-" + journal.getFirstIndex());

    journal.reset(1000);
    assertThat(openDeletedFiles()).isEmpty();
    journal.append(Journal.ASQN_IGNORE, data("after-reset"));
    assertThat(text(reset.next())).isEqualTo("after-reset");
    compacted.close();
    truncated.close();
    reset.close();
  }

  /** Files of this journal's directory that are deleted but still open in this process. */
  private List<String> openDeletedFiles() throws IOException {
    List<String> deleted = new ArrayList<>();
    try (var fds = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : (Iterable<Path>) fds::iterator) {
        String target;
        try {
          target = Files.readSymbolicLink(fd).toString();
        } catch (IOException e) {
          continue; // the descriptor used for the listing itself, closed by now
        }
        if (target.startsWith(directory.toString()) && target.endsWith(" (deleted)")) {
          deleted.add(target);
        }
      }
    }
    return deleted;
  }

  @Test
  void shouldStartAtTheGivenIndexAfterReset() {
    journal = SegmentedJournal.open(config(4096), registry);
    for (int i = 1; i <= 100; i++) {
      journal.append(i, data("old-" + i));
    }

    journal.reset(1000);

    assertThat(journal.isEmpty()).isTrue();
    assertThat(journal.getFirstIndex()).isEqualTo(1000);
    assertThat(journal.getLastIndex()).isEqualTo(999);
    assertThat(journal.append(1, data("new")).index()).isEqualTo(1000);
    journal.close();
    journal = SegmentedJournal.open(config(4096), registry);
    assertThat(journal.getFirstIndex()).isEqualTo(1000);
    assertThat(readAll(journal)).containsExactly("new");
    assertThat(journal.segmentFiles()).hasSize(1);
  }

  @Test
  void shouldAppendAfterDeletingAcrossSegments() {
    journal = SegmentedJournal.open(config(4096), registry);
    for (int i = 1; i <= 300; i++) {
      journal.append(i, data("old-" + i));
    }
    int segmentsBefore = journal.segmentFiles().size();

    journal.deleteAfter(50);
    journal.append(51, data("new-51"));
    journal.close();
    journal = SegmentedJournal.open(config(4096), registry);

    assertThat(journal.segmentFiles().size()).isLessThan(segmentsBefore);
    List<String> all = readAll(journal);
    assertThat(all).hasSize(51);
    assertThat(all.get(49)).isEqualTo("old-50");
    assertThat(all.get(50)).isEqualTo("new-51");
  }

  @Test
  void shouldSeekToTheRecordWithTheHighestAsqnNotAbove() {
    journal = SegmentedJournal.open(config(4096), registry);
    // index: 1    2   3    4   5    6 ...
    // asqn : ign  10  ign  20  30   40 ...
    journal.append(Journal.ASQN_IGNORE, data("1"));
    journal.append(10, data("2"));
    journal.append(Journal.ASQN_IGNORE, data("3"));
    for (int i = 4; i <= 400; i++) {
      journal.append((i - 2) * 10L, data(Integer.toString(i)));
    }

    try (JournalReader reader = journal.openReader()) {
      assertThat(reader.seekToAsqn(5)).isEqualTo(1);
      assertThat(reader.seekToAsqn(10)).isEqualTo(2);
      assertThat(reader.seekToAsqn(19)).isEqualTo(2);
      assertThat(reader.seekToAsqn(20)).isEqualTo(4);
      assertThat(reader.seekToAsqn(2575)).isEqualTo(259);
      assertThat(text(reader.next())).isEqualTo("259");
      assertThat(reader.seekToAsqn(Long.MAX_VALUE)).isEqualTo(400);
    }
  }

  @Test
  void shouldClampSeeksToTheJournal() {
    journal = SegmentedJournal.open(config(4096), registry);
    for (int i = 1; i <= 10; i++) {
      journal.append(Journal.ASQN_IGNORE, data("r" + i));
    }
    try (JournalReader reader = journal.openReader()) {
      assertThat(reader.seek(-5)).isEqualTo(1);
      assertThat(reader.seek(11)).isEqualTo(11);
      assertThat(reader.hasNext()).isFalse();
      journal.append(Journal.ASQN_IGNORE, data("r11"));
      assertThat(reader.hasNext()).isTrue();
      assertThat(text(reader.next())).isEqualTo("r11");
      assertThat(reader.seekToLast()).isEqualTo(11);
      assertThat(reader.seekToFirst()).isEqualTo(1);
    }
  }

  @Test
  void shouldPublishMetricsAndRemoveThemOnClose() {
    journal = SegmentedJournal.open(config(4096), registry);
    for (int i = 1; i <= 100; i++) {
      journal.append(Journal.ASQN_IGNORE, data("record-" + i));
    }
    journal.flush();
    journal.flush();

    assertThat(registry.get(JournalMetrics.APPEND).timer().count()).isEqualTo(100);
    assertThat(registry.get(JournalMetrics.FLUSH).timer().count()).isEqualTo(2);
    assertThat(registry.get(JournalMetrics.SEGMENTS).gauge().value())
        .isEqualTo(journal.segmentFiles().size());
    assertThat(registry.get(JournalMetrics.BYTES).gauge().value())
        .isEqualTo(
            journal.segmentFiles().stream()
                .mapToLong(JournalSegmentFile::committedLengthBytes)
                .sum());
    JournalReader first = journal.openReader();
    JournalReader second = journal.openReader();
    second.close();
    assertThat(registry.get(JournalMetrics.READERS).gauge().value()).isEqualTo(1);
    first.close();
    assertThat(registry.get(JournalMetrics.READERS).gauge().value()).isZero();

    journal.close();
    assertThat(registry.getMeters()).isEmpty();
  }

  @Test
  void shouldMarkEveryRecordWhenAFlushIsPreparedAndForceItOnAnotherThread() throws Exception {
    // given
    journal = SegmentedJournal.open(config(4096), registry);
    for (int i = 1; i <= 3; i++) {
      journal.append(Journal.ASQN_IGNORE, data("before-" + i));
    }

    // when
    JournalFlush flush = journal.prepareFlush();
    Path copy = Files.createDirectory(directory.resolve("copy"));
    for (JournalSegmentFile file : journal.segmentFiles()) {
      Files.copy(file.path(), copy.resolve(file.path().getFileName()));
    }
    journal.append(Journal.ASQN_IGNORE, data("after"));
    ExecutorService flusher = Executors.newSingleThreadExecutor();
    try {
      flusher.submit(flush::force).get(30, TimeUnit.SECONDS);
    } finally {
      flusher.shutdownNow();
    }

    // then: the flush covers what was written before it was prepared, and those frames are
    // complete on disk at that moment (a copy opens with all three)
    assertThat(flush.lastIndex()).isEqualTo(3);
    assertThat(registry.get(JournalMetrics.FLUSH).timer().count()).isEqualTo(1);
    try (SegmentedJournal copied =
        SegmentedJournal.open(
            config(4096).toBuilder().directory(copy).build(), new SimpleMeterRegistry())) {
      assertThat(readAll(copied)).containsExactly("before-1", "before-2", "before-3");
    }
    assertThat(readAll(journal)).containsExactly("before-1", "before-2", "before-3", "after");
  }

  @Test
  void shouldForceAPreparedFlushQuietlyAfterItsRecordsWereDeletedOrTheJournalClosed() {
    // given
    journal = SegmentedJournal.open(config(4096), registry);
    for (int i = 1; i <= 50; i++) {
      journal.append(Journal.ASQN_IGNORE, data("record-" + i));
    }
    JournalFlush truncated = journal.prepareFlush();
    journal.reset(1);
    journal.append(Journal.ASQN_IGNORE, data("new"));
    JournalFlush closed = journal.prepareFlush();
    journal.close();

    // when / then: the segments they would force are gone; nothing is left to make durable
    truncated.force();
    closed.force();
    assertThat(truncated.lastIndex()).isEqualTo(50);
    assertThat(closed.lastIndex()).isEqualTo(1);
  }

  @Test
  void shouldFailAPreparedFlushWhoseThreadIsInterrupted() throws Exception {
    // given
    journal = SegmentedJournal.open(config(4096), registry);
    journal.append(Journal.ASQN_IGNORE, data("record"));
    JournalFlush flush = journal.prepareFlush();

    // when the forcing thread is interrupted (the JDK closes the channel then)
    ExecutorService flusher = Executors.newSingleThreadExecutor();
    Future<?> forced;
    try {
      forced =
          flusher.submit(
              () -> {
                Thread.currentThread().interrupt();
                flush.force();
              });
      // then the flush fails: its record is not known to be durable
      assertThatThrownBy(() -> forced.get(30, TimeUnit.SECONDS))
          .hasCauseInstanceOf(JournalException.class);
    } finally {
      flusher.shutdownNow();
    }
    journal = null; // its channel was closed by the interrupt
  }

  @Test
  void shouldRefuseOperationsAfterClose() {
    journal = SegmentedJournal.open(config(4096), registry);
    journal.append(Journal.ASQN_IGNORE, data("x"));
    JournalReader reader = journal.openReader();
    journal.close();

    assertThat(journal.isOpen()).isFalse();
    assertThat(reader.hasNext()).isFalse();
    assertThatThrownBy(reader::next).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> journal.append(Journal.ASQN_IGNORE, data("y")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Expected the journal 'journal' to be open, but it is closed");
  }

  @Test
  void shouldGrowSegmentFilesWithoutPreallocation() throws IOException {
    journal =
        SegmentedJournal.open(
            config(4096).toBuilder().preallocateSegmentFiles(false).build(), registry);
    journal.append(Journal.ASQN_IGNORE, data("abc"));
    // the record's marker is written by the next append or flush
    assertThat(journal.segmentFiles().get(0).committedLengthBytes()).isEqualTo(32);
    assertThat(journal.segmentFiles().get(0).lastIndex()).isEqualTo(0);
    journal.flush();

    JournalSegmentFile file = journal.segmentFiles().get(0);
    assertThat(file.committedLengthBytes()).isEqualTo(32 + 25 + 3);
    assertThat(file.lastIndex()).isEqualTo(1);
    // the next slot's zero marker follows the record
    assertThat(Files.size(file.path())).isEqualTo(file.committedLengthBytes() + 1);
  }

  @Test
  void shouldLetAReaderOnAnotherThreadFollowTheWriter() throws Exception {
    journal = SegmentedJournal.open(config(8192), registry);
    int records = 3000;
    ExecutorService executor = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> read =
          executor.submit(
              () -> {
                int seen = 0;
                try (JournalReader reader = journal.openReader()) {
                  while (seen < records) {
                    if (!reader.hasNext()) {
                      Thread.onSpinWait();
                      continue;
                    }
                    JournalRecord record = reader.next();
                    assertThat(text(record)).isEqualTo("record-" + record.index());
                    assertThat(record.index()).isEqualTo(seen + 1L);
                    seen++;
                  }
                }
                return seen;
              });
      for (int i = 1; i <= records; i++) {
        journal.append(Journal.ASQN_IGNORE, data("record-" + i));
      }
      assertThat(read.get(30, TimeUnit.SECONDS)).isEqualTo(records);
    } finally {
      executor.shutdownNow();
    }
  }

  @Test
  void shouldNeverShowReadersATornRecordWhileTheWriterTruncates() throws Exception {
    journal = SegmentedJournal.open(config(4096), registry);
    AtomicBoolean done = new AtomicBoolean();
    CountDownLatch readersRunning = new CountDownLatch(2);
    ExecutorService executor = Executors.newFixedThreadPool(2);
    try {
      List<Future<Long>> readers = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        readers.add(
            executor.submit(
                () -> {
                  long read = 0;
                  try (JournalReader reader = journal.openReader()) {
                    readersRunning.countDown();
                    // A reader the machine lets run only late still reads before it stops.
                    while ((!done.get() || read == 0) && !Thread.currentThread().isInterrupted()) {
                      if (reader.hasNext()) {
                        JournalRecord record;
                        try {
                          record = reader.next();
                        } catch (NoSuchElementException truncatedSinceHasNext) {
                          continue;
                        }
                        // every generation writes "<index>/<generation>"
                        assertThat(text(record)).startsWith(record.index() + "/");
                        read++;
                      } else {
                        reader.seek(seekTarget(read));
                      }
                    }
                  }
                  return read;
                }));
      }
      assertThat(readersRunning.await(30, TimeUnit.SECONDS)).as("readers started").isTrue();
      for (int generation = 0; generation < 60; generation++) {
        for (int i = 0; i < 60; i++) {
          long index = journal.getLastIndex() + 1;
          journal.append(Journal.ASQN_IGNORE, data(index + "/" + generation));
        }
        journal.deleteAfter(journal.getLastIndex() - 45);
        if (generation % 10 == 9) {
          journal.deleteUntil(journal.getLastIndex() - 50);
        }
      }
      done.set(true);
      for (Future<Long> reader : readers) {
        assertThat(reader.get(30, TimeUnit.SECONDS)).isPositive();
      }
    } finally {
      done.set(true);
      executor.shutdownNow();
    }
  }

  private static long seekTarget(long read) {
    return read % 7 == 0 ? 1 : read;
  }

  private SimpleMeterRegistry registry2() {
    return new SimpleMeterRegistry();
  }
}
