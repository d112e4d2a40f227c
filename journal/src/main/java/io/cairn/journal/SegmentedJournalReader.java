package io.cairn.journal;

import io.cairn.journal.segment.FileWindow;
import io.cairn.journal.segment.FrameCheck;
import io.cairn.journal.segment.FrameDescriptor;
import io.cairn.journal.segment.Segment;
import io.cairn.journal.segment.SegmentDescriptor;
import io.cairn.journal.segment.SparseIndex;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.NoSuchElementException;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A reader of a {@link SegmentedJournal}. Reads through its own read-only channel of the current
 * segment, so that interrupting the reader's thread (which closes the channel) cannot close the
 * writer's channel. Every operation holds the journal's lock for reading; when the journal removed
 * records since the last operation, the reader re-positions itself at its next index (clamped to
 * the journal's indexes). A reader on another thread than the writer may see {@link #hasNext()}
 * true and then {@link #next()} throw {@link NoSuchElementException} when the writer removed the
 * record in between.
 */
final class SegmentedJournalReader implements JournalReader {

  private static final int WINDOW_BYTES = 64 * 1024;

  private final SegmentedJournal journal;
  private final FileWindow window = new FileWindow(WINDOW_BYTES);
  private final FrameCheck frame = new FrameCheck(true);
  private Segment segment;
  private FileChannel channel;
  private long position;
  private long nextIndex;
  private long epoch = -1;
  private boolean closed;

  SegmentedJournalReader(SegmentedJournal journal) {
    this.journal = journal;
  }

  @Override
  public boolean hasNext() {
    long stamp = journal.lock().readLock();
    try {
      if (closed || !journal.isOpen()) {
        return false;
      }
      revalidate();
      return nextIndex <= journal.getLastIndex();
    } finally {
      journal.lock().unlockRead(stamp);
    }
  }

  @Override
  public JournalRecord next() {
    long stamp = journal.lock().readLock();
    try {
      ensureUsable();
      revalidate();
      if (nextIndex > journal.getLastIndex()) {
        throw new NoSuchElementException(
            "Expected a record at index "
                + nextIndex
                + ", but the journal ends at "
                + journal.getLastIndex());
      }
      readFrame(true);
      byte[] data = new byte[frame.dataLength()];
      window.getBytes(position + FrameDescriptor.DATA_OFFSET, data, 0, data.length);
      JournalRecord record =
          new JournalRecord(
              nextIndex, frame.asqn(), frame.storedChecksum(), new UnsafeBuffer(data));
      position += frame.frameLength();
      nextIndex++;
      return record;
    } finally {
      journal.lock().unlockRead(stamp);
    }
  }

  @Override
  public long seek(long index) {
    long stamp = journal.lock().readLock();
    try {
      ensureUsable();
      positionAt(index);
      return nextIndex;
    } finally {
      journal.lock().unlockRead(stamp);
    }
  }

  @Override
  public long seekToFirst() {
    return seek(Long.MIN_VALUE);
  }

  @Override
  public long seekToLast() {
    long stamp = journal.lock().readLock();
    try {
      ensureUsable();
      positionAt(Math.max(journal.getLastIndex(), journal.getFirstIndex()));
      return nextIndex;
    } finally {
      journal.lock().unlockRead(stamp);
    }
  }

  @Override
  public long seekToAsqn(long asqn) {
    long stamp = journal.lock().readLock();
    try {
      ensureUsable();
      long first = journal.getFirstIndex();
      long last = journal.getLastIndex();
      long indexed = journal.index().floorIndexOfAsqn(asqn);
      positionAt(indexed < first ? first : indexed);
      long found = -1;
      while (nextIndex <= last) {
        readFrame(false);
        long recordAsqn = frame.asqn();
        if (recordAsqn != Journal.ASQN_IGNORE) {
          if (recordAsqn > asqn) {
            break;
          }
          found = nextIndex;
        }
        position += frame.frameLength();
        nextIndex++;
      }
      positionAt(found < 0 ? first : found);
      return nextIndex;
    } finally {
      journal.lock().unlockRead(stamp);
    }
  }

  @Override
  public void close() {
    release();
    journal.onReaderClosed(this);
  }

  /** Closes the reader's channel; called by the journal when it closes. */
  void release() {
    closed = true;
    closeChannel();
  }

  /**
   * Called by the journal under its write lock when it deletes {@code deleted}: closes the channel
   * if it reads that file. The next operation re-positions the reader (the journal's epoch moved).
   */
  void releaseIfOn(Segment deleted) {
    if (segment == deleted) {
      closeChannel();
      segment = null;
    }
  }

  private void ensureUsable() {
    if (closed) {
      throw new IllegalStateException("Expected the journal reader to be open, but it is closed");
    }
    if (!journal.isOpen()) {
      throw new IllegalStateException(
          "Expected the journal '" + journal.name() + "' to be open, but it is closed");
    }
  }

  private void revalidate() {
    if (epoch != journal.epoch()) {
      positionAt(nextIndex);
    }
  }

  /** Positions at {@code index} clamped to [first index, last index + 1]. Holds the read lock. */
  private void positionAt(long index) {
    long first = journal.getFirstIndex();
    long last = journal.getLastIndex();
    long target = Math.max(first, Math.min(index, last + 1));
    long currentEpoch = journal.epoch();
    if (currentEpoch != epoch) {
      window.invalidate();
      epoch = currentEpoch;
    }
    useSegment(journal.segmentFor(target));
    SparseIndex.Entry entry = journal.index().floor(target);
    if (entry != null && entry.index() >= segment.firstIndex()) {
      position = entry.position();
      nextIndex = entry.index();
    } else {
      position = SegmentDescriptor.LENGTH_BYTES;
      nextIndex = segment.firstIndex();
    }
    while (nextIndex < target) {
      readFrame(false);
      position += frame.frameLength();
      nextIndex++;
    }
  }

  /**
   * Reads the frame of {@code nextIndex} at {@code position}, moving to the next segment first when
   * the current one ends before it. Reads again once when the window may be stale.
   *
   * @param verify whether to verify the checksum (reading data) or only the header (skipping)
   */
  private void readFrame(boolean verify) {
    if (nextIndex > segment.tail().lastIndex()) {
      useSegment(journal.segmentFor(nextIndex));
      position = SegmentDescriptor.LENGTH_BYTES;
      if (segment.firstIndex() != nextIndex) {
        throw new IllegalStateException(
            "Expected segment "
                + segment.path()
                + " to begin at index "
                + nextIndex
                + ", but it begins at "
                + segment.firstIndex());
      }
    }
    long limit = segment.tail().endPositionBytes();
    window.readLimit(limit);
    try {
      FrameCheck.Status status = check(limit, verify);
      if (status != FrameCheck.Status.VALID) {
        // the window may hold bytes read before the writer wrote this record
        window.invalidate();
        status = check(limit, verify);
      }
      if (status != FrameCheck.Status.VALID) {
        if (frame.isChecksumMismatch()) {
          throw new CorruptedJournalException(
              segment.path(),
              position,
              nextIndex,
              frame.storedChecksum(),
              frame.computedChecksum());
        }
        throw new CorruptedJournalException(frame.problem(), segment.path(), position, nextIndex);
      }
    } catch (IOException e) {
      throw new JournalException(
          "Expected to read index " + nextIndex + " from " + segment.path() + ", but: " + e, e);
    }
  }

  private FrameCheck.Status check(long limit, boolean verify) throws IOException {
    return verify
        ? frame.check(window, position, limit, nextIndex)
        : frame.checkHeader(window, position, limit, nextIndex);
  }

  private void useSegment(Segment target) {
    if (target == segment && channel != null && channel.isOpen()) {
      return;
    }
    closeChannel();
    try {
      channel = FileChannel.open(target.path(), StandardOpenOption.READ);
    } catch (IOException e) {
      throw new JournalException(
          "Expected to open " + target.path() + " for reading, but: " + e, e);
    }
    segment = target;
    window.use(channel);
  }

  private void closeChannel() {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        // nothing was written through it; closing a read-only channel cannot lose data
      }
      channel = null;
    }
  }
}
