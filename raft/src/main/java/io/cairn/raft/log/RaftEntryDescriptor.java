package io.cairn.raft.log;

/**
 * Byte layout of a raft entry inside a journal record's data. Little endian.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+---------------+-------------------------------+
 * |    version    |     type      |           reserved            |  0
 * +---------------+---------------+-------------------------------+
 * |                         payloadLength                         |  4
 * +---------------------------------------------------------------+
 * |                             term                              |  8
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                        lowestPosition                         |  16
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                        highestPosition                        |  24
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                      payload (payloadLength bytes)           ...  32
 * +---------------------------------------------------------------+
 * </pre>
 *
 * The journal record around it carries the index and the CRC32C of these bytes, so the entry has no
 * checksum of its own.
 */
public final class RaftEntryDescriptor {

  public static final byte VERSION = 1;

  public static final int VERSION_OFFSET = 0;
  public static final int TYPE_OFFSET = 1;
  public static final int RESERVED_OFFSET = 2;
  public static final int PAYLOAD_LENGTH_OFFSET = 4;
  public static final int TERM_OFFSET = 8;
  public static final int LOWEST_POSITION_OFFSET = 16;
  public static final int HIGHEST_POSITION_OFFSET = 24;
  public static final int HEADER_LENGTH = 32;

  private RaftEntryDescriptor() {}

  /** The encoded length of an entry with the given payload length. */
  public static int encodedLength(int payloadLength) {
    return HEADER_LENGTH + payloadLength;
  }
}
