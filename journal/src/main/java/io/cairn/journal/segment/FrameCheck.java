package io.cairn.journal.segment;

import java.io.IOException;
import java.util.zip.CRC32C;

/**
 * Decodes and verifies the frame at a position of a segment, keeping what it found. One instance
 * per thread; reused for every frame. Internal to the journal.
 */
public final class FrameCheck {

  /** Pass as expected index to accept any index. */
  public static final long ANY_INDEX = Long.MIN_VALUE;

  /** What lies at a position. */
  public enum Status {
    /** A complete frame with a matching checksum (and the expected index). */
    VALID,
    /** No record: marker 0 and a zero header, or the end of the segment. */
    EMPTY,
    /** Anything else; see {@link #problem()}. */
    INVALID
  }

  private final CRC32C crc = new CRC32C();
  private final boolean acceptUnmarkedLast;
  private Status status;
  private String problem;
  private int dataLength;
  private long index;
  private long asqn;
  private int storedChecksum;
  private int computedChecksum;
  private boolean checksumMismatch;

  /** A check that accepts only marked frames (for recovery). */
  public FrameCheck() {
    this(false);
  }

  /**
   * @param acceptUnmarkedLast whether a frame whose marker is not written yet counts as valid when
   *     it ends exactly at the limit: readers pass the end of the published records as the limit,
   *     and the last published record may still wait for its marker (see {@link SegmentWriter})
   */
  public FrameCheck(boolean acceptUnmarkedLast) {
    this.acceptUnmarkedLast = acceptUnmarkedLast;
  }

  /**
   * Inspects the frame at {@code position}.
   *
   * @param limit the offset where the readable part of the segment ends
   * @param expectedIndex the index the frame must have, or {@link #ANY_INDEX}
   */
  public Status check(FileWindow window, long position, long limit, long expectedIndex)
      throws IOException {
    problem = null;
    checksumMismatch = false;
    dataLength = 0;
    if (position >= limit) {
      return status = Status.EMPTY;
    }
    int available = (int) Math.min(FrameDescriptor.HEADER_LENGTH_BYTES, limit - position);
    if (!window.ensure(position, available)) {
      return invalid("Expected a frame header, but the file ends before offset " + limit);
    }
    byte marker = window.getByte(position + FrameDescriptor.MARKER_OFFSET);
    boolean unmarked = marker == FrameDescriptor.MARKER_NONE;
    if (unmarked) {
      if (window.isZero(position, available)) {
        return status = Status.EMPTY;
      }
      if (!acceptUnmarkedLast) {
        return invalid("Expected frame marker 1, but was 0 before a non-zero frame header");
      }
    } else if (marker != FrameDescriptor.MARKER_V1) {
      return invalid("Expected frame marker 1, but was " + marker);
    }
    if (available < FrameDescriptor.HEADER_LENGTH_BYTES) {
      return invalid("Expected a complete frame header, but the segment ends inside it");
    }
    dataLength = window.getInt(position + FrameDescriptor.LENGTH_OFFSET);
    long maxDataLength = limit - position - FrameDescriptor.HEADER_LENGTH_BYTES;
    if (dataLength < 0 || dataLength > maxDataLength) {
      return invalid(
          "Expected a record length between 0 and " + maxDataLength + ", but was " + dataLength);
    }
    if (unmarked && position + FrameDescriptor.frameLength(dataLength) != limit) {
      return invalid("Expected frame marker 1, but was 0 before the last record");
    }
    if (!window.ensure(position, FrameDescriptor.frameLength(dataLength))) {
      return invalid("Expected a complete frame, but the file ends inside it");
    }
    storedChecksum = window.getInt(position + FrameDescriptor.CHECKSUM_OFFSET);
    computedChecksum = window.frameChecksum(crc, position, dataLength);
    if (storedChecksum != computedChecksum) {
      checksumMismatch = true;
      return invalid(
          String.format(
              "Expected checksum 0x%08X, but was 0x%08X", storedChecksum, computedChecksum));
    }
    index = window.getLong(position + FrameDescriptor.INDEX_OFFSET);
    asqn = window.getLong(position + FrameDescriptor.ASQN_OFFSET);
    if (expectedIndex != ANY_INDEX && index != expectedIndex) {
      return invalid("Expected index " + expectedIndex + ", but the frame holds index " + index);
    }
    return status = Status.VALID;
  }

  /**
   * Like {@link #check} for a frame expected to be VALID, but reads only the header: marker,
   * length, index and asqn; the checksum is not verified. For skipping records while seeking.
   */
  public Status checkHeader(FileWindow window, long position, long limit, long expectedIndex)
      throws IOException {
    problem = null;
    checksumMismatch = false;
    dataLength = 0;
    if (position + FrameDescriptor.HEADER_LENGTH_BYTES > limit) {
      return invalid("Expected a frame header before offset " + limit);
    }
    if (!window.ensure(position, FrameDescriptor.HEADER_LENGTH_BYTES)) {
      return invalid("Expected a frame header, but the file ends before offset " + limit);
    }
    byte marker = window.getByte(position + FrameDescriptor.MARKER_OFFSET);
    boolean unmarked = marker == FrameDescriptor.MARKER_NONE && acceptUnmarkedLast;
    if (marker != FrameDescriptor.MARKER_V1 && !unmarked) {
      return invalid("Expected frame marker 1, but was " + marker);
    }
    dataLength = window.getInt(position + FrameDescriptor.LENGTH_OFFSET);
    long maxDataLength = limit - position - FrameDescriptor.HEADER_LENGTH_BYTES;
    if (dataLength < 0 || dataLength > maxDataLength) {
      return invalid(
          "Expected a record length between 0 and " + maxDataLength + ", but was " + dataLength);
    }
    if (unmarked && position + FrameDescriptor.frameLength(dataLength) != limit) {
      return invalid("Expected frame marker 1, but was 0 before the last record");
    }
    storedChecksum = window.getInt(position + FrameDescriptor.CHECKSUM_OFFSET);
    index = window.getLong(position + FrameDescriptor.INDEX_OFFSET);
    asqn = window.getLong(position + FrameDescriptor.ASQN_OFFSET);
    if (index != expectedIndex) {
      return invalid("Expected index " + expectedIndex + ", but the frame holds index " + index);
    }
    return status = Status.VALID;
  }

  private Status invalid(String why) {
    problem = why;
    return status = Status.INVALID;
  }

  public Status status() {
    return status;
  }

  public String problem() {
    return problem;
  }

  public int dataLength() {
    return dataLength;
  }

  public int frameLength() {
    return FrameDescriptor.frameLength(dataLength);
  }

  public long index() {
    return index;
  }

  public long asqn() {
    return asqn;
  }

  public int storedChecksum() {
    return storedChecksum;
  }

  public int computedChecksum() {
    return computedChecksum;
  }

  /** Whether the last INVALID status was a checksum mismatch of an otherwise complete frame. */
  public boolean isChecksumMismatch() {
    return checksumMismatch;
  }
}
