package io.cairn.journal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random sequences of journal operations checked against an in-memory model after every step.
 * Seeded: a failure names its seed; rerun it with {@code -Dcairn.seed=<seed>} (the first run uses
 * that seed). Longer with {@code -Dcairn.simulation.long=true}.
 */
class JournalModelTest {

  private static final long BASE_SEED = Long.getLong("cairn.seed", 0x5EED_CA1DL);
  private static final boolean LONG = Boolean.getBoolean("cairn.simulation.long");
  private static final int RUNS = LONG ? 400 : 24;
  private static final int STEPS = LONG ? 1500 : 400;

  @TempDir Path root;

  @Test
  void shouldMatchModelForRandomOperations() {
    for (int run = 0; run < RUNS; run++) {
      long seed = BASE_SEED + run * 0x9E37_79B9_7F4A_7C15L;
      ModelRun modelRun = new ModelRun(seed, root.resolve("run-" + run));
      try {
        modelRun.execute();
      } catch (Throwable failure) {
        throw new AssertionError(
            "Journal model test failed with seed "
                + seed
                + " (rerun with -Dcairn.seed="
                + seed
                + "); last operations:\n  "
                + String.join("\n  ", modelRun.history),
            failure);
      } finally {
        modelRun.closeQuietly();
      }
    }
  }

  private record Rec(long index, long asqn, byte[] data) {}

  private static final class ModelRun {
    private final Random random;
    private final Path directory;
    private final Deque<String> history = new ArrayDeque<>();
    private final List<Rec> records = new ArrayList<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private JournalConfig config;
    private SegmentedJournal journal;
    private long firstIndex = 1;
    private long compactedMaxAsqn = Journal.ASQN_IGNORE;
    private JournalReader tailReader;
    private long tailReaderNext;
    private boolean tailReaderStale;
    private int kills;

    ModelRun(long seed, Path directory) {
      this.random = new Random(seed);
      this.directory = directory;
    }

    void execute() {
      config =
          JournalConfig.builder()
              .directory(directory)
              .name("model")
              .segmentSizeBytes(random.nextBoolean() ? 4096 : 8192)
              .indexDensity(1 + random.nextInt(8))
              .preallocateSegmentFiles(random.nextBoolean())
              .build();
      note("open " + config);
      journal = SegmentedJournal.open(config, registry);
      openTailReader();
      for (int step = 0; step < STEPS; step++) {
        int dice = random.nextInt(100);
        if (dice < 45) {
          append();
        } else if (dice < 55) {
          appendReplicated();
        } else if (dice < 60) {
          note("flush");
          journal.flush();
        } else if (dice < 64) {
          deleteAfter();
        } else if (dice < 68) {
          deleteUntil();
        } else if (dice < 70) {
          reset();
        } else if (dice < 72) {
          reopen();
        } else if (dice < 74) {
          killAndRecover();
        } else if (dice < 84) {
          readRange();
        } else if (dice < 90) {
          seekToAsqn();
        } else {
          readTail();
        }
        assertIndexes();
        if (step % 50 == 49) {
          assertEverything();
        }
      }
      reopen();
      assertEverything();
    }

    private void append() {
      long asqn = nextAsqn();
      byte[] data = nextData();
      note("append asqn=" + asqn + " length=" + data.length);
      JournalRecord record = journal.append(asqn, new UnsafeBuffer(data));
      long index = lastIndex() + 1;
      assertThat(record.index()).isEqualTo(index);
      assertThat(record.asqn()).isEqualTo(asqn);
      assertThat(record.checksum())
          .isEqualTo(JournalRecord.computeChecksum(index, asqn, new UnsafeBuffer(data)));
      assertThat(bytes(record)).isEqualTo(data);
      records.add(new Rec(index, asqn, data));
    }

    private void appendReplicated() {
      long asqn = nextAsqn();
      byte[] data = nextData();
      long index = lastIndex() + 1;
      note("append replicated index=" + index + " asqn=" + asqn + " length=" + data.length);
      UnsafeBuffer buffer = new UnsafeBuffer(data);
      int checksum = JournalRecord.computeChecksum(index, asqn, buffer);
      journal.append(new JournalRecord(index, asqn, checksum, buffer));
      records.add(new Rec(index, asqn, data));
    }

    private void deleteAfter() {
      long indexExclusive =
          Math.max(0, firstIndex - 3) + random.nextInt((int) (lastIndex() - firstIndex + 6));
      note("deleteAfter " + indexExclusive);
      journal.deleteAfter(indexExclusive);
      if (indexExclusive >= lastIndex()) {
        return;
      }
      if (indexExclusive < firstIndex - 1) {
        resetModel(indexExclusive + 1);
        return;
      }
      while (lastIndex() > indexExclusive) {
        records.remove(records.size() - 1);
      }
      tailReaderStale = true;
    }

    private void deleteUntil() {
      long index = firstIndex - 2 + random.nextInt((int) (lastIndex() - firstIndex + 6));
      long expectedFirst = firstIndex;
      for (JournalSegmentFile file : journal.segmentFiles()) {
        if (file.firstIndex() <= index) {
          expectedFirst = file.firstIndex();
        }
      }
      note("deleteUntil " + index + " (expect first index " + expectedFirst + ")");
      boolean deleted = journal.deleteUntil(index);
      assertThat(deleted).isEqualTo(expectedFirst != firstIndex);
      while (firstIndex < expectedFirst) {
        Rec removed = records.remove(0);
        if (removed.asqn() != Journal.ASQN_IGNORE) {
          compactedMaxAsqn = removed.asqn();
        }
        firstIndex++;
      }
      tailReaderStale |= deleted;
    }

    private void reset() {
      long nextIndex = 1 + random.nextInt((int) lastIndex() + 50);
      note("reset " + nextIndex);
      journal.reset(nextIndex);
      resetModel(nextIndex);
    }

    private void resetModel(long nextIndex) {
      records.clear();
      firstIndex = nextIndex;
      compactedMaxAsqn = Journal.ASQN_IGNORE;
      tailReaderStale = true;
    }

    private void reopen() {
      note("close and reopen");
      tailReader.close();
      journal.close();
      assertThat(registry.find(JournalMetrics.SEGMENTS).gauge()).isNull();
      if (random.nextInt(4) == 0) {
        // segments keep the size they were created with; new ones get the new size
        config = config.toBuilder().segmentSizeBytes(random.nextBoolean() ? 4096 : 8192).build();
        note("  with " + config);
      }
      journal = SegmentedJournal.open(config, registry);
      openTailReader();
    }

    /**
     * A killed process leaves its written bytes in the page cache: recovering a copy of the files
     * keeps every record but an unflushed last one whose marker was not written yet.
     */
    private void killAndRecover() {
      List<JournalSegmentFile> files = journal.segmentFiles();
      long markedLastIndex = files.get(files.size() - 1).lastIndex();
      Path copy = directory.resolveSibling(directory.getFileName() + "-killed-" + kills++);
      note("kill, recover a copy " + copy.getFileName() + " marked up to " + markedLastIndex);
      copyFiles(config.directory(), copy);
      tailReader.close();
      journal.close();
      config = config.toBuilder().directory(copy).build();
      journal = SegmentedJournal.open(config, registry);
      assertThat(markedLastIndex).isBetween(lastIndex() - 1, lastIndex());
      if (markedLastIndex < lastIndex()) {
        records.remove(records.size() - 1);
      }
      openTailReader();
    }

    private static void copyFiles(Path from, Path to) {
      try {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
          for (Path file : (Iterable<Path>) files::iterator) {
            Files.copy(file, to.resolve(file.getFileName()));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private void readRange() {
      long from = firstIndex - 3 + random.nextInt((int) (lastIndex() - firstIndex + 7));
      int count = random.nextInt(60);
      note("read " + count + " from " + from);
      try (JournalReader reader = journal.openReader()) {
        int mode = random.nextInt(10);
        long expected = clamp(from);
        if (mode == 0) {
          assertThat(reader.seekToFirst()).isEqualTo(firstIndex);
          expected = firstIndex;
        } else if (mode == 1) {
          expected = isModelEmpty() ? firstIndex : lastIndex();
          assertThat(reader.seekToLast()).isEqualTo(expected);
        } else {
          assertThat(reader.seek(from)).isEqualTo(expected);
        }
        for (int i = 0; i < count && expected <= lastIndex(); i++, expected++) {
          assertThat(reader.hasNext()).isTrue();
          assertRecord(reader.next(), expected);
        }
        assertThat(reader.hasNext()).isEqualTo(expected <= lastIndex());
      }
    }

    private void seekToAsqn() {
      long maxAsqn = Math.max(asqnFloor(), 0);
      long target = -1 + (long) random.nextInt((int) Math.min(maxAsqn + 8, 1_000_000));
      long expected = firstIndex;
      for (Rec rec : records) {
        if (rec.asqn() != Journal.ASQN_IGNORE && rec.asqn() <= target) {
          expected = rec.index();
        }
      }
      note("seekToAsqn " + target + " (expect index " + expected + ")");
      try (JournalReader reader = journal.openReader()) {
        assertThat(reader.seekToAsqn(target)).isEqualTo(expected);
        if (expected <= lastIndex()) {
          assertRecord(reader.next(), expected);
        } else {
          assertThat(reader.hasNext()).isFalse();
        }
      }
    }

    private void readTail() {
      if (tailReaderStale) {
        tailReaderNext = clamp(tailReaderNext);
        tailReaderStale = false;
      }
      note("read tail at " + tailReaderNext);
      boolean expectNext = tailReaderNext <= lastIndex();
      assertThat(tailReader.hasNext()).isEqualTo(expectNext);
      if (expectNext) {
        assertRecord(tailReader.next(), tailReaderNext);
        tailReaderNext++;
      }
    }

    private void openTailReader() {
      tailReader = journal.openReader();
      tailReaderNext = firstIndex;
      tailReaderStale = false;
    }

    private void assertIndexes() {
      assertThat(journal.getFirstIndex()).as("first index").isEqualTo(firstIndex);
      assertThat(journal.getLastIndex()).as("last index").isEqualTo(lastIndex());
      assertThat(journal.isEmpty()).isEqualTo(records.isEmpty());
    }

    private void assertEverything() {
      try (JournalReader reader = journal.openReader()) {
        for (Rec rec : records) {
          assertThat(reader.hasNext()).isTrue();
          assertRecord(reader.next(), rec.index());
        }
        assertThat(reader.hasNext()).isFalse();
      }
      List<JournalSegmentFile> files = journal.segmentFiles();
      assertThat(files.get(0).firstIndex()).isEqualTo(firstIndex);
      // the last record's marker may wait for the next append or flush
      assertThat(files.get(files.size() - 1).lastIndex()).isBetween(lastIndex() - 1, lastIndex());
      for (int i = 1; i < files.size(); i++) {
        assertThat(files.get(i).firstIndex()).isEqualTo(files.get(i - 1).lastIndex() + 1);
        assertThat(files.get(i).segmentId()).isGreaterThan(files.get(i - 1).segmentId());
      }
    }

    private void assertRecord(JournalRecord actual, long index) {
      Rec expected = records.get((int) (index - firstIndex));
      assertThat(actual.index()).as("index").isEqualTo(expected.index());
      assertThat(actual.asqn()).as("asqn of %d", index).isEqualTo(expected.asqn());
      assertThat(bytes(actual)).as("data of %d", index).isEqualTo(expected.data());
      assertThat(actual.checksum())
          .isEqualTo(JournalRecord.computeChecksum(index, expected.asqn(), actual.data()));
    }

    private long nextAsqn() {
      if (random.nextInt(10) < 3) {
        return Journal.ASQN_IGNORE;
      }
      return Math.max(asqnFloor(), 0) + 1 + random.nextInt(5);
    }

    /** The highest asqn the journal may still know: remaining records and compacted ones. */
    private long asqnFloor() {
      long floor = compactedMaxAsqn;
      for (Rec rec : records) {
        floor = Math.max(floor, rec.asqn());
      }
      return floor;
    }

    private byte[] nextData() {
      int length =
          random.nextInt(50) == 0
              ? random.nextInt(config.maxRecordDataBytes() + 1)
              : random.nextInt(300);
      byte[] data = new byte[length];
      random.nextBytes(data);
      return data;
    }

    private long lastIndex() {
      return firstIndex + records.size() - 1;
    }

    private boolean isModelEmpty() {
      return records.isEmpty();
    }

    private long clamp(long index) {
      return Math.max(firstIndex, Math.min(index, lastIndex() + 1));
    }

    private void note(String operation) {
      history.addLast(operation);
      if (history.size() > 40) {
        history.removeFirst();
      }
    }

    void closeQuietly() {
      if (journal != null && journal.isOpen()) {
        journal.close();
      }
    }

    private static byte[] bytes(JournalRecord record) {
      byte[] bytes = new byte[record.data().capacity()];
      record.data().getBytes(0, bytes);
      return bytes;
    }
  }
}
