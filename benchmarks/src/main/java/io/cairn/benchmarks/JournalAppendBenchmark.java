package io.cairn.benchmarks;

import io.cairn.journal.Journal;
import io.cairn.journal.JournalConfig;
import io.cairn.journal.SegmentedJournal;
import io.cairn.journal.segment.FrameDescriptor;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Appends 1 KiB records and fsyncs every {@value #BATCH} records: {@link #journal} through a {@link
 * SegmentedJournal}, {@link #baseline} by writing the same bytes per record (a frame: header and
 * data) with a plain sequential {@link FileChannel#write} and {@link FileChannel#force}. One
 * operation is one record, so the scores are records per second.
 *
 * <p>The baseline runs twice: with a file that grows with each write (the plain baseline) and with
 * a file first extended to its full size, as the journal preallocates its segments.
 *
 * <p>Disk use stays bounded: the journal compacts everything but its last segment after each flush,
 * and the baseline deletes its file when it reaches {@code segmentSizeBytes} and starts a new one,
 * as the journal does when it rolls and compacts.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class JournalAppendBenchmark {

  public static final int RECORD_BYTES = 1024;
  public static final int BATCH = 64;

  /** What both sides share: a directory per trial and the record. */
  @State(Scope.Thread)
  public abstract static class Files0 {
    /** Where the files go; a fresh sub-directory per trial, deleted afterwards. */
    @Param("target/journal-benchmark")
    public String directory;

    @Param("134217728")
    public int segmentSizeBytes;

    Path runDirectory;
    byte[] data;

    void createDirectory() throws IOException {
      Path base = Path.of(directory);
      Files.createDirectories(base);
      runDirectory = Files.createTempDirectory(base, "run-");
      data = new byte[RECORD_BYTES];
      new Random(42).nextBytes(data);
    }

    void deleteDirectory() throws IOException {
      try (Stream<Path> files = Files.walk(runDirectory)) {
        for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
          Files.delete(file);
        }
      }
    }
  }

  /** A journal with the default configuration but for the directory. */
  public static class JournalState extends Files0 {
    SegmentedJournal journal;
    UnsafeBuffer record;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
      createDirectory();
      record = new UnsafeBuffer(data);
      journal =
          SegmentedJournal.open(
              JournalConfig.builder()
                  .directory(runDirectory)
                  .name("bench")
                  .segmentSizeBytes(segmentSizeBytes)
                  .build(),
              new SimpleMeterRegistry());
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
      journal.close();
      deleteDirectory();
    }
  }

  /** A plain file written sequentially. */
  public static class PlainFileState extends Files0 {
    /** Whether each file is first extended to {@code segmentSizeBytes} (a sparse file). */
    @Param({"false", "true"})
    public boolean preallocate;

    FileChannel channel;
    ByteBuffer frame;
    long position;
    int fileId;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
      createDirectory();
      frame =
          ByteBuffer.allocateDirect(FrameDescriptor.frameLength(RECORD_BYTES))
              .order(ByteOrder.LITTLE_ENDIAN);
      frame.put((byte) 1).putInt(RECORD_BYTES).putInt(0).putLong(0).putLong(-1).put(data);
      openFile();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
      channel.close();
      deleteDirectory();
    }

    void rollIfFull() throws IOException {
      if (position + (long) BATCH * frame.capacity() > segmentSizeBytes) {
        channel.close();
        Files.delete(file(fileId - 1));
        openFile();
      }
    }

    private void openFile() {
      try {
        channel =
            FileChannel.open(
                file(fileId++), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        if (preallocate) {
          channel.write(ByteBuffer.allocate(1), segmentSizeBytes - 1L);
          channel.force(true);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      position = 0;
    }

    private Path file(int id) {
      return runDirectory.resolve("baseline-" + id + ".log");
    }
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long journal(JournalState state) {
    Journal journal = state.journal;
    for (int i = 0; i < BATCH; i++) {
      journal.append(Journal.ASQN_IGNORE, state.record);
    }
    journal.flush();
    journal.deleteUntil(journal.getLastIndex());
    return journal.getLastIndex();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long baseline(PlainFileState state) throws IOException {
    ByteBuffer frame = state.frame;
    for (int i = 0; i < BATCH; i++) {
      frame.clear();
      while (frame.hasRemaining()) {
        state.position += state.channel.write(frame, state.position);
      }
    }
    state.channel.force(false);
    state.rollIfFull();
    return state.position;
  }
}
