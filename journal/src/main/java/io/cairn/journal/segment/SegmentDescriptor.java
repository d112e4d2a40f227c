package io.cairn.journal.segment;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The versioned header at the start of every segment file. Internal to the journal.
 *
 * <p>All fields are little-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                  magic 0x4E524143 ("CARN")                    |  0
 *  +---------------+-----------------------------------------------+
 *  |   version (1) |    flags      |     reserved (2 bytes, zero)  |  4
 *  +---------------+-----------------------------------------------+
 *  |                          segment id                           |  8
 *  |                           (int64)                             |
 *  +---------------------------------------------------------------+
 *  |              first index (int64, index of the first           | 16
 *  |                   record this segment holds)                  |
 *  +---------------------------------------------------------------+
 *  |          max segment size in bytes (int32, the file's         | 24
 *  |                  size including this header)                  |
 *  +---------------------------------------------------------------+
 *  |        checksum (int32): CRC32C of bytes 0 to 27 above        | 28
 *  +---------------------------------------------------------------+
 *  |                 record frames ({@link FrameDescriptor})       | 32
 *  |                              ...                              |
 * </pre>
 *
 * <p>Flags: bit 0 ({@link #FLAG_RESET}) marks a segment created by {@code reset}: every segment
 * with a lower id is obsolete, even if a crash left it on disk. Other bits are zero.
 *
 * <p>The descriptor is written once, into a temporary file that is forced and then renamed to its
 * final name, so a segment file with its final name always has a complete descriptor.
 *
 * @param segmentId the segment's id, also in the file name
 * @param firstIndex the index of the first record of the segment
 * @param maxSegmentSizeBytes the capacity of the segment file, header included
 * @param flags {@link #FLAG_RESET} or 0
 */
public record SegmentDescriptor(
    long segmentId, long firstIndex, int maxSegmentSizeBytes, byte flags) {

  public static final int MAGIC = 0x4E524143; // "CARN" read as little-endian bytes
  public static final byte VERSION = 1;

  public static final int MAGIC_OFFSET = 0;
  public static final int VERSION_OFFSET = 4;
  public static final int FLAGS_OFFSET = 5;
  public static final int SEGMENT_ID_OFFSET = 8;
  public static final int FIRST_INDEX_OFFSET = 16;
  public static final int MAX_SEGMENT_SIZE_OFFSET = 24;
  public static final int CHECKSUM_OFFSET = 28;
  public static final int LENGTH_BYTES = 32;

  public static final byte FLAG_RESET = 1;

  /** A descriptor without flags. */
  public SegmentDescriptor(long segmentId, long firstIndex, int maxSegmentSizeBytes) {
    this(segmentId, firstIndex, maxSegmentSizeBytes, (byte) 0);
  }

  /** Whether the segment was created by a reset, which makes older segments obsolete. */
  public boolean isReset() {
    return (flags & FLAG_RESET) != 0;
  }

  /** Writes this descriptor into {@code buffer} at its position 0 (little-endian) and flips it. */
  public ByteBuffer encode() {
    ByteBuffer buffer = ByteBuffer.allocate(LENGTH_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    buffer.putInt(MAGIC_OFFSET, MAGIC);
    buffer.put(VERSION_OFFSET, VERSION);
    buffer.put(FLAGS_OFFSET, flags);
    buffer.putLong(SEGMENT_ID_OFFSET, segmentId);
    buffer.putLong(FIRST_INDEX_OFFSET, firstIndex);
    buffer.putInt(MAX_SEGMENT_SIZE_OFFSET, maxSegmentSizeBytes);
    buffer.putInt(CHECKSUM_OFFSET, checksum(buffer));
    buffer.position(0).limit(LENGTH_BYTES);
    return buffer;
  }

  /**
   * Reads and validates a descriptor.
   *
   * @param buffer {@link #LENGTH_BYTES} bytes from the start of a segment file, at position 0
   * @param file the file name, for messages
   * @throws InvalidDescriptorException if the magic, version, checksum or sizes are wrong
   */
  public static SegmentDescriptor decode(ByteBuffer buffer, String file) {
    ByteBuffer b = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    if (b.remaining() < LENGTH_BYTES) {
      throw new InvalidDescriptorException(
          "Expected a segment descriptor of "
              + LENGTH_BYTES
              + " bytes, but the file has only "
              + b.remaining()
              + " bytes ("
              + file
              + ")");
    }
    int magic = b.getInt(MAGIC_OFFSET);
    if (magic != MAGIC) {
      throw new InvalidDescriptorException(
          String.format(
              "Expected segment magic 0x%08X, but was 0x%08X (%s). The file is not a journal"
                  + " segment; move it out of the journal directory.",
              MAGIC, magic, file));
    }
    byte version = b.get(VERSION_OFFSET);
    if (version != VERSION) {
      throw new InvalidDescriptorException(
          "Expected segment version "
              + VERSION
              + ", but was "
              + version
              + " ("
              + file
              + "). The file was written by another version of Cairn.");
    }
    int expected = b.getInt(CHECKSUM_OFFSET);
    int actual = checksum(b);
    if (expected != actual) {
      throw new InvalidDescriptorException(
          String.format(
              "Expected segment descriptor checksum 0x%08X, but was 0x%08X (%s, offset 0)",
              expected, actual, file));
    }
    SegmentDescriptor descriptor =
        new SegmentDescriptor(
            b.getLong(SEGMENT_ID_OFFSET),
            b.getLong(FIRST_INDEX_OFFSET),
            b.getInt(MAX_SEGMENT_SIZE_OFFSET),
            b.get(FLAGS_OFFSET));
    if ((descriptor.flags & ~FLAG_RESET) != 0) {
      throw new InvalidDescriptorException(
          "Expected segment flags 0 or "
              + FLAG_RESET
              + ", but was "
              + descriptor.flags
              + " ("
              + file
              + ")");
    }
    if (descriptor.maxSegmentSizeBytes < LENGTH_BYTES + FrameDescriptor.HEADER_LENGTH_BYTES + 1) {
      throw new InvalidDescriptorException(
          "Expected max segment size to hold at least one record, but was "
              + descriptor.maxSegmentSizeBytes
              + " bytes ("
              + file
              + ")");
    }
    if (descriptor.firstIndex < 1) {
      throw new InvalidDescriptorException(
          "Expected first index to be at least 1, but was "
              + descriptor.firstIndex
              + " ("
              + file
              + ")");
    }
    return descriptor;
  }

  private static int checksum(ByteBuffer buffer) {
    CRC32C crc = new CRC32C();
    ByteBuffer covered = buffer.duplicate();
    covered.position(0).limit(CHECKSUM_OFFSET);
    crc.update(covered);
    return (int) crc.getValue();
  }

  /** A descriptor that is not a valid Cairn segment descriptor. */
  public static final class InvalidDescriptorException extends RuntimeException {
    public InvalidDescriptorException(String message) {
      super(message);
    }
  }
}
