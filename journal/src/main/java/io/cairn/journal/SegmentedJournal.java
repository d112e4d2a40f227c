package io.cairn.journal;

import io.cairn.journal.segment.Segment;
import io.cairn.journal.segment.SegmentDescriptor;
import io.cairn.journal.segment.SegmentFiles;
import io.cairn.journal.segment.SegmentLoader;
import io.cairn.journal.segment.SegmentTruncator;
import io.cairn.journal.segment.SegmentWriter;
import io.cairn.journal.segment.SparseIndex;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.StampedLock;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Journal} stored in segment files {@code <name>-<segmentId>.log} of one directory. See
 * {@link SegmentDescriptor} and {@link io.cairn.journal.segment.FrameDescriptor} for the format and
 * {@link SegmentLoader} for the recovery rules.
 *
 * <p>Threading: one writer thread calls every method except those of readers, {@link
 * #getFirstIndex()}, {@link #getLastIndex()}, {@link #isEmpty()}, {@link #isOpen()} and {@link
 * #segmentFiles()}, which any thread may call. The writer publishes a record (the volatile last
 * index) only after its bytes are written, and readers never read past it. Operations that remove
 * records ({@code deleteAfter}, {@code deleteUntil}, {@code reset}, {@code close}) hold a write
 * lock that each reader operation holds for reading, and readers re-position themselves after them.
 *
 * <p>Asqns: {@link Journal#ASQN_IGNORE} or a non-negative value above every asqn in the journal.
 *
 * <p>Durability: records and truncations are durable after {@link #flush()}; {@link #close()}
 * flushes. The marker of the last appended record is written with the next record or by the next
 * flush (see {@link SegmentWriter}), so after a crash an unflushed last record is cut as a torn
 * tail. Rolling to a new segment forces the full one first, so every closed segment is complete on
 * disk. Segment deletions are made durable one step at a time, in an order that leaves a valid
 * journal after a crash at any point.
 *
 * <p>Readers hold a file descriptor of the segment they are on until closed (or until the journal
 * closes, or deletes that segment).
 */
public final class SegmentedJournal implements Journal {

  private static final Logger LOG = LoggerFactory.getLogger(SegmentedJournal.class);
  private static final int WRITE_BUFFER_BYTES = 64 * 1024;

  private final JournalConfig config;
  private final SegmentFiles files;
  private final SparseIndex index;
  private final SegmentWriter writer = new SegmentWriter(WRITE_BUFFER_BYTES);
  private final ConcurrentSkipListMap<Long, Segment> segments = new ConcurrentSkipListMap<>();
  private final StampedLock lock = new StampedLock();
  private final Set<SegmentedJournalReader> readers = ConcurrentHashMap.newKeySet();
  private final SegmentTruncator truncator = new SegmentTruncator();
  private final JournalMetrics metrics;

  private Segment current;
  private long nextSegmentId;
  private boolean directoryDirty;
  private volatile long firstIndex;
  private volatile long lastIndex;
  private volatile long epoch;
  private volatile boolean open;

  private SegmentedJournal(
      JournalConfig config,
      MeterRegistry registry,
      SegmentFiles files,
      SparseIndex index,
      List<Segment> loaded)
      throws IOException {
    this.config = config;
    this.files = files;
    this.index = index;
    for (Segment segment : loaded) {
      segments.put(segment.firstIndex(), segment);
    }
    if (segments.isEmpty()) {
      nextSegmentId = 1;
      current = createSegment(1, Journal.ASQN_IGNORE);
      segments.put(current.firstIndex(), current);
      files.forceDirectory();
      directoryDirty = false;
    } else {
      current = segments.lastEntry().getValue();
      nextSegmentId = current.id() + 1;
    }
    firstIndex = segments.firstEntry().getValue().firstIndex();
    lastIndex = current.lastIndex();
    this.metrics =
        new JournalMetrics(
            registry,
            this,
            SegmentedJournal::segmentCount,
            SegmentedJournal::committedBytes,
            journal -> journal.readers.size());
    this.open = true;
  }

  /**
   * Opens the journal in {@code config.directory()}, creating the directory and a first segment
   * when there is none, and recovering from a crash (see {@link SegmentLoader}).
   *
   * @throws CorruptedJournalException if the files hold corruption that a crash cannot explain
   * @throws JournalException if the files cannot be read or written
   */
  public static SegmentedJournal open(JournalConfig config, MeterRegistry registry) {
    try {
      Files.createDirectories(config.directory());
      SegmentFiles files = new SegmentFiles(config.directory(), config.name(), config.files());
      SparseIndex index = new SparseIndex(config.indexDensity());
      List<Segment> loaded = new SegmentLoader(files, index).load();
      SegmentedJournal journal;
      try {
        journal = new SegmentedJournal(config, registry, files, index, loaded);
      } catch (IOException | RuntimeException e) {
        for (Segment segment : loaded) {
          segment.close();
        }
        throw e;
      }
      LOG.info(
          "Opened journal '{}' in {}: {} segment(s), indexes {} to {}",
          config.name(),
          config.directory(),
          journal.segments.size(),
          journal.firstIndex,
          journal.lastIndex);
      return journal;
    } catch (IOException e) {
      throw new JournalException(
          "Expected to open the journal '"
              + config.name()
              + "' in "
              + config.directory()
              + ", but: "
              + e,
          e);
    }
  }

  public JournalConfig config() {
    return config;
  }

  @Override
  public JournalRecord append(long asqn, DirectBuffer data) {
    ensureOpen();
    checkAsqn(asqn);
    checkSize(data.capacity());
    Timer.Sample sample = metrics.start();
    long recordIndex = lastIndex + 1;
    int checksum = writer.prepare(recordIndex, asqn, data);
    write(recordIndex, asqn);
    JournalRecord record = new JournalRecord(recordIndex, asqn, checksum, copy(data));
    metrics.stopAppend(sample);
    return record;
  }

  @Override
  public void append(JournalRecord record) {
    ensureOpen();
    long expectedIndex = lastIndex + 1;
    if (record.index() != expectedIndex) {
      throw new InvalidIndexException(
          "Expected the replicated record's index to be "
              + expectedIndex
              + ", but was "
              + record.index()
              + " (journal '"
              + config.name()
              + "')");
    }
    checkAsqn(record.asqn());
    checkSize(record.data().capacity());
    Timer.Sample sample = metrics.start();
    int checksum = writer.prepare(record.index(), record.asqn(), record.data());
    if (checksum != record.checksum()) {
      throw new InvalidChecksumException(
          String.format(
              "Expected the replicated record's checksum to be 0x%08X as computed from its index,"
                  + " asqn and data, but was 0x%08X (index %d, journal '%s')",
              checksum, record.checksum(), record.index(), config.name()));
    }
    write(record.index(), record.asqn());
    metrics.stopAppend(sample);
  }

  private void write(long recordIndex, long asqn) {
    try {
      int position = current.tail().endPositionBytes();
      if (!writer.writeTo(current)) {
        roll();
        position = current.tail().endPositionBytes();
        if (!writer.writeTo(current)) {
          throw new IllegalStateException(
              "Expected a frame of "
                  + writer.preparedFrameLength()
                  + " bytes to fit in a new segment, but it did not ("
                  + current.path()
                  + ")");
        }
      }
      index.onRecord(
          recordIndex,
          asqn,
          current.tail().lastAsqn(),
          position,
          recordIndex == current.firstIndex());
    } catch (IOException e) {
      throw new JournalException(
          "Expected to write record " + recordIndex + " to " + current.path() + ", but: " + e, e);
    }
    lastIndex = recordIndex;
  }

  private void roll() throws IOException {
    long lastAsqn = current.tail().lastAsqn();
    if (current.isEmpty()) {
      // a segment created with a smaller size than configured now: replace it, keeping its flags
      long stamp = lock.writeLock();
      try {
        epoch++;
        Segment replaced = current;
        current = createSegment(lastIndex + 1, lastAsqn, replaced.descriptor().flags());
        deleteSegment(replaced);
        segments.put(current.firstIndex(), current);
        epoch++;
      } finally {
        lock.unlockWrite(stamp);
      }
      return;
    }
    writer.markPending();
    current.force();
    current = createSegment(lastIndex + 1, lastAsqn);
    segments.put(current.firstIndex(), current);
  }

  private Segment createSegment(long segmentFirstIndex, long lastAsqn) throws IOException {
    return createSegment(segmentFirstIndex, lastAsqn, (byte) 0);
  }

  private Segment createSegment(long segmentFirstIndex, long lastAsqn, byte flags)
      throws IOException {
    SegmentDescriptor descriptor =
        new SegmentDescriptor(nextSegmentId++, segmentFirstIndex, config.segmentSizeBytes(), flags);
    Path path = files.path(descriptor.segmentId());
    Segment segment =
        new Segment(
            path,
            descriptor,
            files.create(descriptor, config.preallocateSegmentFiles()),
            new Segment.Tail(segmentFirstIndex - 1, SegmentDescriptor.LENGTH_BYTES, lastAsqn));
    directoryDirty = true;
    LOG.debug("Created journal segment {} at index {}", path, segmentFirstIndex);
    return segment;
  }

  /** Under the write lock: no reader operation is running. */
  private void deleteSegment(Segment segment) throws IOException {
    segments.remove(segment.firstIndex(), segment);
    segment.close();
    for (SegmentedJournalReader reader : readers) {
      // an idle reader would otherwise hold the deleted file (and its disk space) until it moves
      reader.releaseIfOn(segment);
    }
    Files.deleteIfExists(segment.path());
    directoryDirty = true;
  }

  @Override
  public void flush() {
    prepareFlush().force();
  }

  @Override
  public JournalFlush prepareFlush() {
    ensureOpen();
    long flushIndex = lastIndex;
    Segment segment = current;
    try {
      writer.markPending();
    } catch (IOException e) {
      throw new JournalException(
          "Expected to complete the last frame of " + segment.path() + ", but: " + e, e);
    }
    boolean forceData = segment.takeDirty();
    boolean forceDirectory = directoryDirty;
    directoryDirty = false;
    return new JournalFlush() {
      @Override
      public long lastIndex() {
        return flushIndex;
      }

      @Override
      public void force() {
        Timer.Sample sample = metrics.start();
        try {
          if (forceData) {
            segment.forceData();
          }
          if (forceDirectory) {
            files.forceDirectory();
          }
        } catch (IOException e) {
          throw new JournalException("Expected to flush " + segment.path() + ", but: " + e, e);
        }
        metrics.stopFlush(sample);
      }
    };
  }

  @Override
  public void deleteAfter(long indexExclusive) {
    ensureOpen();
    if (indexExclusive < 0) {
      throw new IllegalArgumentException(
          "Expected indexExclusive to be at least 0, but was " + indexExclusive);
    }
    if (indexExclusive >= lastIndex) {
      return;
    }
    if (indexExclusive < firstIndex - 1) {
      reset(indexExclusive + 1);
      return;
    }
    long stamp = lock.writeLock();
    try {
      epoch++;
      writer.markPending();
      Segment keep = segments.floorEntry(indexExclusive + 1).getValue();
      List<Segment> later =
          new ArrayList<>(segments.tailMap(keep.firstIndex(), false).descendingMap().values());
      for (Segment segment : later) { // newest first: a crash leaves a shorter, valid journal
        deleteSegment(segment);
      }
      if (!later.isEmpty()) {
        // the deletions must be durable before the truncation: a truncated segment followed by
        // a segment that a crash brought back would be a gap
        files.forceDirectory();
        directoryDirty = false;
      }
      Map.Entry<Long, Segment> previous = segments.lowerEntry(keep.firstIndex());
      truncator.truncate(
          keep,
          indexExclusive + 1,
          index,
          previous == null ? Journal.ASQN_IGNORE : previous.getValue().tail().lastAsqn());
      index.deleteAfter(indexExclusive);
      current = keep;
      lastIndex = indexExclusive;
      epoch++;
    } catch (IOException e) {
      throw new JournalException(
          "Expected to delete the records after index " + indexExclusive + ", but: " + e, e);
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  @Override
  public boolean deleteUntil(long untilIndex) {
    ensureOpen();
    if (segments.size() < 2 || segments.higherKey(segments.firstKey()) > untilIndex) {
      return false;
    }
    long stamp = lock.writeLock();
    try {
      epoch++;
      boolean deleted = false;
      while (segments.size() > 1) {
        Map.Entry<Long, Segment> second = segments.higherEntry(segments.firstKey());
        if (second.getKey() > untilIndex) {
          break;
        }
        deleteSegment(segments.firstEntry().getValue());
        // one at a time, oldest first: a crash leaves a journal without gaps
        files.forceDirectory();
        directoryDirty = false;
        deleted = true;
      }
      firstIndex = segments.firstKey();
      index.deleteUntil(firstIndex);
      epoch++;
      return deleted;
    } catch (IOException e) {
      throw new JournalException(
          "Expected to delete the segments before index " + untilIndex + ", but: " + e, e);
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  @Override
  public void reset(long nextIndex) {
    ensureOpen();
    if (nextIndex < 1) {
      throw new IllegalArgumentException(
          "Expected nextIndex to be at least 1, but was " + nextIndex);
    }
    long stamp = lock.writeLock();
    try {
      epoch++;
      // the flagged segment first: once it is on disk, the older segments are obsolete even if a
      // crash stops their deletion (the loader completes it)
      List<Segment> obsolete = new ArrayList<>(segments.values());
      writer.discardPending();
      Segment created = createSegment(nextIndex, Journal.ASQN_IGNORE, SegmentDescriptor.FLAG_RESET);
      files.forceDirectory();
      for (Segment segment : obsolete) {
        deleteSegment(segment);
      }
      files.forceDirectory();
      directoryDirty = false;
      index.clear();
      current = created;
      segments.put(current.firstIndex(), current);
      firstIndex = nextIndex;
      lastIndex = nextIndex - 1;
      epoch++;
    } catch (IOException e) {
      throw new JournalException(
          "Expected to reset the journal to index " + nextIndex + ", but: " + e, e);
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  @Override
  public long getFirstIndex() {
    return firstIndex;
  }

  @Override
  public long getLastIndex() {
    return lastIndex;
  }

  @Override
  public boolean isEmpty() {
    return lastIndex < firstIndex;
  }

  @Override
  public JournalReader openReader() {
    ensureOpen();
    SegmentedJournalReader reader = new SegmentedJournalReader(this);
    readers.add(reader);
    reader.seekToFirst();
    return reader;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The last appended record is included once its marker is written, that is after the next
   * append or {@link #flush()}: a copy of each file up to its committed length opens with exactly
   * the records listed. Flush before taking the files to include everything.
   */
  @Override
  public List<JournalSegmentFile> segmentFiles() {
    long stamp = lock.readLock();
    try {
      List<JournalSegmentFile> result = new ArrayList<>(segments.size());
      for (Segment segment : segments.values()) {
        Segment.Tail tail = segment.tail();
        result.add(
            new JournalSegmentFile(
                segment.path(),
                segment.id(),
                segment.firstIndex(),
                tail.markedLastIndex(),
                tail.markedEndPositionBytes()));
      }
      return List.copyOf(result);
    } finally {
      lock.unlockRead(stamp);
    }
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() {
    if (!open) {
      return;
    }
    try {
      flush();
    } finally {
      long stamp = lock.writeLock();
      try {
        open = false;
        epoch++;
        for (SegmentedJournalReader reader : readers) {
          reader.release();
        }
        readers.clear();
        for (Segment segment : segments.values()) {
          try {
            segment.close();
          } catch (IOException e) {
            LOG.warn("Failed to close journal segment {}", segment.path(), e);
          }
        }
        metrics.close();
      } finally {
        lock.unlockWrite(stamp);
      }
      LOG.info("Closed journal '{}' in {}", config.name(), config.directory());
    }
  }

  // --- for readers ---

  StampedLock lock() {
    return lock;
  }

  long epoch() {
    return epoch;
  }

  SparseIndex index() {
    return index;
  }

  /** The segment holding {@code recordIndex}, or the last segment when it is past the end. */
  Segment segmentFor(long recordIndex) {
    Map.Entry<Long, Segment> entry = segments.floorEntry(recordIndex);
    return entry == null ? segments.firstEntry().getValue() : entry.getValue();
  }

  void onReaderClosed(SegmentedJournalReader reader) {
    readers.remove(reader);
  }

  String name() {
    return config.name();
  }

  // --- helpers ---

  private void ensureOpen() {
    if (!open) {
      throw new IllegalStateException(
          "Expected the journal '" + config.name() + "' to be open, but it is closed");
    }
  }

  private void checkAsqn(long asqn) {
    if (asqn == Journal.ASQN_IGNORE) {
      return;
    }
    if (asqn < 0) {
      throw new IllegalArgumentException(
          "Expected asqn to be " + Journal.ASQN_IGNORE + " or at least 0, but was " + asqn);
    }
    long lastAsqn = current.tail().lastAsqn();
    if (lastAsqn != Journal.ASQN_IGNORE && asqn <= lastAsqn) {
      throw new IllegalArgumentException(
          "Expected asqn to be greater than the highest asqn "
              + lastAsqn
              + " in the journal, but was "
              + asqn
              + " (index "
              + (lastIndex + 1)
              + ", journal '"
              + config.name()
              + "')");
    }
  }

  private void checkSize(int dataLength) {
    int max = config.maxRecordDataBytes();
    if (dataLength > max) {
      throw new IllegalArgumentException(
          "Expected record data to be at most "
              + max
              + " bytes, the most a segment of "
              + config.segmentSizeBytes()
              + " bytes holds, but was "
              + dataLength
              + " bytes (journal '"
              + config.name()
              + "')");
    }
  }

  private static UnsafeBuffer copy(DirectBuffer data) {
    byte[] bytes = new byte[data.capacity()];
    data.getBytes(0, bytes);
    return new UnsafeBuffer(bytes);
  }

  private static double segmentCount(SegmentedJournal journal) {
    return journal.segments.size();
  }

  private static double committedBytes(SegmentedJournal journal) {
    long bytes = 0;
    for (Segment segment : journal.segments.values()) {
      bytes += segment.tail().endPositionBytes();
    }
    return bytes;
  }
}
