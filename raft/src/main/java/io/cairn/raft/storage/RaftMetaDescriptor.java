package io.cairn.raft.storage;

/**
 * Byte layout of the raft meta file. Little endian, fixed size.
 *
 * <pre>
 *  offset  size  field
 *  0       4     magic      0x4D52_4143 ("CARM")
 *  4       2     version    1
 *  6       2     reserved   0
 *  8       8     term
 *  16      4     votedFor   -1 when no vote
 *  20      4     checksum   CRC32C of bytes [0, 20)
 *  24            (length)
 * </pre>
 *
 * The file is replaced as a whole: written to {@code <name>.tmp}, fsynced, renamed atomically over
 * the old file, and the directory fsynced.
 */
public final class RaftMetaDescriptor {

  public static final int MAGIC = 0x4D52_4143;
  public static final short VERSION = 1;

  public static final int MAGIC_OFFSET = 0;
  public static final int VERSION_OFFSET = 4;
  public static final int RESERVED_OFFSET = 6;
  public static final int TERM_OFFSET = 8;
  public static final int VOTED_FOR_OFFSET = 16;
  public static final int CHECKSUM_OFFSET = 20;
  public static final int LENGTH = 24;

  private RaftMetaDescriptor() {}
}
