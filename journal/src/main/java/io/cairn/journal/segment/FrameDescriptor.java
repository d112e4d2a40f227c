package io.cairn.journal.segment;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The frame of one record inside a segment. Internal to the journal.
 *
 * <p>All fields are little-endian.
 *
 * <pre>
 *   0        1             5             9               17              25
 *  +--------+-------------+-------------+---------------+---------------+--------------------+
 *  | marker | length      | checksum    | index         | asqn          | data               |
 *  | int8   | int32       | int32       | int64         | int64         | length bytes       |
 *  +--------+-------------+-------------+---------------+---------------+--------------------+
 *                                       |------------- covered by the checksum ---------------|
 * </pre>
 *
 * <ul>
 *   <li><b>marker</b>: {@link #MARKER_NONE} (0) means "no record here"; {@link #MARKER_V1} (1)
 *       means a version-1 frame. Any other value is invalid.
 *   <li><b>length</b>: the number of data bytes.
 *   <li><b>checksum</b>: CRC32C ({@link CRC32C}) of bytes 9 .. 25 + length of the frame, that is
 *       the little-endian index, the little-endian asqn and the data, in that order.
 * </ul>
 *
 * <p>Write order ({@link SegmentWriter}): bytes 1 .. end (length, checksum, index, asqn, data) and
 * a zero byte just after the frame (the next slot's marker) are written first; the marker byte is
 * written by a later write. A crash before the marker leaves marker 0 at this slot; a crash during
 * the first write leaves a frame whose checksum does not match. Both are a torn tail. Beyond the
 * last record of a segment the file holds only zeros: new files read as zeros and truncation cuts
 * the file, so the bytes it removes read as zeros too.
 */
public final class FrameDescriptor {

  public static final byte MARKER_NONE = 0;
  public static final byte MARKER_V1 = 1;

  public static final int MARKER_OFFSET = 0;
  public static final int LENGTH_OFFSET = 1;
  public static final int CHECKSUM_OFFSET = 5;
  public static final int INDEX_OFFSET = 9;
  public static final int ASQN_OFFSET = 17;
  public static final int DATA_OFFSET = 25;
  public static final int HEADER_LENGTH_BYTES = 25;

  /** Bytes of index and asqn that precede the data in the checksum. */
  public static final int CHECKSUM_PREFIX_BYTES = DATA_OFFSET - INDEX_OFFSET;

  private FrameDescriptor() {}

  public static int frameLength(int dataLength) {
    return HEADER_LENGTH_BYTES + dataLength;
  }

  /**
   * The checksum of the frame that starts at {@code frameStart} of {@code buffer}, over the index,
   * asqn and {@code dataLength} data bytes. Leaves {@code buffer}'s position and limit unchanged.
   */
  public static int checksum(CRC32C crc, ByteBuffer buffer, int frameStart, int dataLength) {
    ByteBuffer covered = buffer.duplicate();
    covered.limit(frameStart + DATA_OFFSET + dataLength).position(frameStart + INDEX_OFFSET);
    crc.reset();
    crc.update(covered);
    return (int) crc.getValue();
  }
}
