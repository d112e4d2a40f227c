package io.cairn.protocol;

/**
 * The binary layout of a batch of records, the payload of one raft entry; version {@value
 * RecordDescriptor#PROTOCOL_VERSION}. Little-endian; offsets from the start of the batch.
 *
 * <pre>
 *  0  +---------+
 *     | version |  uint8
 *  1  +---------+-------------------------------------------+
 *     |               record count (int32, >= 1)            |
 *  5  +-----------------------------------------------------+
 *     |               lowest position (int64)               |
 * 13  +-----------------------------------------------------+
 *     |               highest position (int64)              |
 * 21  +-----------------------------------------------------+
 *     |  record 1 (see RecordDescriptor)                   ...
 *     +-----------------------------------------------------+
 *     |  ...                                               ...
 *     +-----------------------------------------------------+
 *     |  record n                                          ...
 *     +-----------------------------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>The records follow back to back; each carries its own length in its header and fills the
 *       batch exactly, with no trailing bytes.
 *   <li>Positions strictly increase from record to record; the lowest position is the first
 *       record's, the highest the last record's. They sit in the header so a reader (raft's
 *       application sequence number, a position lookup) can get them without decoding the records.
 *   <li>A count larger than the bytes after the header could hold ({@code remaining / } {@link
 *       RecordDescriptor#HEADER_LENGTH}) is rejected before anything is allocated for it.
 * </ul>
 *
 * <p>Versioning follows {@link RecordDescriptor}: the layout of a version never changes.
 */
public final class RecordBatchDescriptor {
  public static final int VERSION_OFFSET = 0;
  public static final int RECORD_COUNT_OFFSET = 1;
  public static final int LOWEST_POSITION_OFFSET = 5;
  public static final int HIGHEST_POSITION_OFFSET = 13;

  /** The fixed part of a batch, before its first record. */
  public static final int HEADER_LENGTH = 21;

  private RecordBatchDescriptor() {}
}
