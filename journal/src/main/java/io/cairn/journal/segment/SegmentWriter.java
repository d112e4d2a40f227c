package io.cairn.journal.segment;

import io.cairn.journal.Journal;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Frames records and writes them into segments. Owned by the journal's single writer thread.
 * Internal to the journal.
 *
 * <p>I/O choice: positional {@link java.nio.channels.FileChannel} writes from one reusable direct
 * buffer rather than a {@link java.nio.MappedByteBuffer}. A mapping cannot be unmapped
 * deterministically on Java 17 without internal APIs, a reader touching a mapping of a segment that
 * compaction or truncation removed crashes the JVM (SIGBUS), writing a mapped sparse file on a full
 * disk raises SIGBUS instead of an {@link IOException}, and the page cache serves positional reads
 * just as well.
 *
 * <p>Write order. Every record's body (length, checksum, index, asqn, data) and the zero marker of
 * the slot after it are written first; the record's marker is written by a later write. To spend
 * one write call per record rather than two, the marker of record N is written by the call that
 * writes record N+1: that call starts at N's marker and covers N's frame again (the same bytes) and
 * then N+1's body:
 *
 * <pre>
 *   call for N:     [0|body N|0]                     marker N still 0 ("unmarked")
 *   call for N+1:   [1|body N|0|body N+1|0]          marker N written, N+1 unmarked
 * </pre>
 *
 * The unmarked record is already published to readers (its bytes are complete; readers accept a
 * marker 0 only for the last record they know of). {@link #markPending()} writes the one
 * outstanding marker alone; the journal calls it before every fsync, before rolling and before
 * truncating, so flushed records and closed segments are always marked. After a crash the unmarked
 * last record, never flushed, is cut as a torn tail. Frames larger than {@link #MERGE_LIMIT_BYTES}
 * are marked at once by a second call instead of being written twice.
 */
public final class SegmentWriter {

  /** Frames up to this size are marked together with the next record. */
  public static final int MERGE_LIMIT_BYTES = 8 * 1024;

  private final CRC32C crc = new CRC32C();
  private final ByteBuffer marker = ByteBuffer.allocateDirect(1);
  private ByteBuffer buffer;
  private UnsafeBuffer view;

  // the unmarked frame, kept at [0, pendingLength) of the buffer
  private Segment pendingSegment;
  private int pendingPosition;
  private int pendingLength;

  // the prepared frame, at [frameStart, frameStart + frameLength) of the buffer
  private int frameStart;
  private int frameLength;
  private long frameIndex;
  private long frameAsqn;

  public SegmentWriter(int initialCapacityBytes) {
    buffer = ByteBuffer.allocateDirect(initialCapacityBytes).order(ByteOrder.LITTLE_ENDIAN);
    view = new UnsafeBuffer(buffer);
    marker.put(0, FrameDescriptor.MARKER_V1);
  }

  /**
   * Frames a record in the internal buffer (marker 0) and returns its checksum; the frame is
   * written by {@link #writeTo}. A prepared frame that is not written is simply replaced by the
   * next one.
   */
  public int prepare(long index, long asqn, DirectBuffer data) {
    int dataLength = data.capacity();
    int length = FrameDescriptor.frameLength(dataLength);
    frameStart = pendingLength;
    ensureCapacity(frameStart + length + 1);
    view.putByte(frameStart + FrameDescriptor.MARKER_OFFSET, FrameDescriptor.MARKER_NONE);
    view.putInt(frameStart + FrameDescriptor.LENGTH_OFFSET, dataLength, ByteOrder.LITTLE_ENDIAN);
    view.putLong(frameStart + FrameDescriptor.INDEX_OFFSET, index, ByteOrder.LITTLE_ENDIAN);
    view.putLong(frameStart + FrameDescriptor.ASQN_OFFSET, asqn, ByteOrder.LITTLE_ENDIAN);
    view.putBytes(frameStart + FrameDescriptor.DATA_OFFSET, data, 0, dataLength);
    view.putByte(frameStart + length, FrameDescriptor.MARKER_NONE); // the next slot's marker
    int checksum = FrameDescriptor.checksum(crc, buffer, frameStart, dataLength);
    view.putInt(frameStart + FrameDescriptor.CHECKSUM_OFFSET, checksum, ByteOrder.LITTLE_ENDIAN);
    frameLength = length;
    frameIndex = index;
    frameAsqn = asqn;
    return checksum;
  }

  public int preparedFrameLength() {
    return frameLength;
  }

  /**
   * Writes the prepared frame at the end of {@code segment} (see the class comment for the order)
   * and publishes the segment's new tail.
   *
   * @return false, writing nothing, when the frame does not fit in the segment ("segment full")
   */
  public boolean writeTo(Segment segment) throws IOException {
    Segment.Tail tail = segment.tail();
    int position = tail.endPositionBytes();
    long end = (long) position + frameLength;
    if (end > segment.maxSizeBytes()) {
      return false;
    }
    int writeEnd = frameStart + frameLength + (end < segment.maxSizeBytes() ? 1 : 0);
    if (pendingSegment == segment && pendingPosition + pendingLength == position) {
      // mark the previous record and write this one's body in one call
      view.putByte(FrameDescriptor.MARKER_OFFSET, FrameDescriptor.MARKER_V1);
      buffer.limit(writeEnd).position(0);
      writeFully(segment, buffer, pendingPosition);
    } else {
      markPending();
      buffer.limit(writeEnd).position(frameStart + FrameDescriptor.LENGTH_OFFSET);
      writeFully(segment, buffer, position + FrameDescriptor.LENGTH_OFFSET);
    }
    long lastAsqn = frameAsqn == Journal.ASQN_IGNORE ? tail.lastAsqn() : frameAsqn;
    if (frameLength <= MERGE_LIMIT_BYTES) {
      // keep the frame at the buffer's start to write it again with the next record
      if (frameStart > 0) {
        buffer.limit(frameStart + frameLength).position(frameStart);
        buffer.compact();
      }
      pendingSegment = segment;
      pendingPosition = position;
      pendingLength = frameLength;
      segment.publish(new Segment.Tail(frameIndex, (int) end, lastAsqn, frameLength));
    } else {
      pendingSegment = null;
      pendingLength = 0;
      writeMarker(segment, position);
      segment.publish(new Segment.Tail(frameIndex, (int) end, lastAsqn, 0));
    }
    buffer.clear();
    return true;
  }

  /** Writes the marker of the last record if it is not written yet. */
  public void markPending() throws IOException {
    Segment segment = pendingSegment;
    if (segment == null) {
      return;
    }
    writeMarker(segment, pendingPosition);
    pendingSegment = null;
    pendingLength = 0;
    Segment.Tail tail = segment.tail();
    segment.publish(
        new Segment.Tail(tail.lastIndex(), tail.endPositionBytes(), tail.lastAsqn(), 0));
  }

  /** Forgets the unmarked record without writing its marker: its segment is being deleted. */
  public void discardPending() {
    pendingSegment = null;
    pendingLength = 0;
  }

  private void writeMarker(Segment segment, int position) throws IOException {
    marker.clear();
    writeFully(segment, marker, position);
  }

  private static void writeFully(Segment segment, ByteBuffer source, long position)
      throws IOException {
    long at = position;
    while (source.hasRemaining()) {
      at += segment.channel().write(source, at);
    }
  }

  private void ensureCapacity(int capacity) {
    if (capacity <= buffer.capacity()) {
      return;
    }
    ByteBuffer larger =
        ByteBuffer.allocateDirect(Math.max(capacity, buffer.capacity() * 2))
            .order(ByteOrder.LITTLE_ENDIAN);
    buffer.limit(pendingLength).position(0);
    larger.put(buffer);
    larger.clear();
    buffer = larger;
    view = new UnsafeBuffer(buffer);
  }
}
