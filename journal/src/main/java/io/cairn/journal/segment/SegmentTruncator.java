package io.cairn.journal.segment;

import io.cairn.journal.CorruptedJournalException;
import io.cairn.journal.Journal;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Removes the records of a segment from a given index on. Writer thread only. Internal to the
 * journal.
 */
public final class SegmentTruncator {

  private static final int WINDOW_BYTES = 64 * 1024;

  private final FileWindow window = new FileWindow(WINDOW_BYTES);
  private final FrameCheck frame = new FrameCheck();

  /**
   * Cuts {@code segment} just before the record {@code cutIndex}: finds the record's offset from
   * the nearest sparse index entry, truncates the file there and publishes the new tail. Every
   * marker in the segment must be written.
   *
   * @param lastAsqnBeforeSegment the highest asqn of the records before the segment's first
   */
  public void truncate(
      Segment segment, long cutIndex, SparseIndex index, long lastAsqnBeforeSegment)
      throws IOException {
    SparseIndex.Entry entry = index.floor(cutIndex - 1);
    long position;
    long at;
    long lastAsqn;
    if (entry != null && entry.index() >= segment.firstIndex()) {
      position = entry.position();
      at = entry.index();
      lastAsqn = entry.lastAsqn();
    } else {
      // the cut is at the segment's first record
      position = SegmentDescriptor.LENGTH_BYTES;
      at = cutIndex;
      lastAsqn = lastAsqnBeforeSegment;
    }
    window.use(segment.channel());
    long limit = segment.tail().endPositionBytes();
    while (at < cutIndex) {
      if (frame.checkHeader(window, position, limit, at) != FrameCheck.Status.VALID) {
        throw new CorruptedJournalException(frame.problem(), segment.path(), position, at);
      }
      if (frame.asqn() != Journal.ASQN_IGNORE) {
        lastAsqn = frame.asqn();
      }
      position += frame.frameLength();
      at++;
    }
    cutFile(segment.channel(), position, segment.channel().size(), segment.maxSizeBytes());
    segment.publish(new Segment.Tail(cutIndex - 1, (int) position, lastAsqn));
  }

  /**
   * Cuts the file at {@code position} so that everything after it reads as zeros, keeping a
   * preallocated file at its size.
   */
  public static void cutFile(FileChannel channel, long position, long fileSize, int maxSizeBytes)
      throws IOException {
    channel.truncate(position);
    if (fileSize >= maxSizeBytes && position < maxSizeBytes) {
      ByteBuffer zero = ByteBuffer.allocate(1);
      while (zero.hasRemaining()) {
        channel.write(zero, maxSizeBytes - 1L);
      }
    }
  }
}
