package io.cairn.backupapi.archive;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import io.cairn.backupapi.Compression;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The records of one link as stored: {@code CAIRNCHK}, the format (int), the record count (int),
 * then per record its index and asqn (longs), checksum and length (ints) and data, big-endian; the
 * whole compressed as one zstd frame. The link records the CRC32C and size before compression, so a
 * chunk is checked before any record in it is used.
 */
public final class ArchiveChunk {

  /** Chunks larger than this (before compression) are neither written nor read. */
  public static final int MAX_CHUNK_BYTES = 64 * 1024 * 1024;

  private static final byte[] MAGIC = "CAIRNCHK".getBytes(StandardCharsets.US_ASCII);
  private static final int FORMAT = 1;
  private static final int HEADER_BYTES = MAGIC.length + 8;
  private static final int RECORD_HEADER_BYTES = 24;
  private static final int ZSTD_LEVEL = 3;

  private ArchiveChunk() {}

  /**
   * A chunk ready to store.
   *
   * @param stored the object's bytes (compressed)
   * @param sizeBytes the encoded size before compression
   * @param crc32c the CRC32C before compression
   */
  public record Encoded(byte[] stored, long sizeBytes, long crc32c) {
    public Compression compression() {
      return Compression.ZSTD;
    }
  }

  /** The size {@code records} take in a chunk before compression. */
  public static long encodedSize(ArchivedRecord record) {
    return RECORD_HEADER_BYTES + (long) record.data().length;
  }

  /**
   * @throws IllegalArgumentException if there are no records, their indexes are not consecutive, or
   *     they exceed {@link #MAX_CHUNK_BYTES}
   */
  public static Encoded encode(List<ArchivedRecord> records) {
    if (records.isEmpty()) {
      throw new IllegalArgumentException("Expected at least one record in a chunk, but got none");
    }
    long size = HEADER_BYTES;
    for (int i = 0; i < records.size(); i++) {
      size += encodedSize(records.get(i));
      if (i > 0 && records.get(i).index() != records.get(i - 1).index() + 1) {
        throw new IllegalArgumentException(
            "Expected consecutive indexes in a chunk, but "
                + records.get(i).index()
                + " follows "
                + records.get(i - 1).index());
      }
    }
    if (size > MAX_CHUNK_BYTES) {
      throw new IllegalArgumentException(
          "Expected a chunk of at most " + MAX_CHUNK_BYTES + " bytes, but it has " + size);
    }
    ByteBuffer buffer = ByteBuffer.allocate((int) size);
    buffer.put(MAGIC).putInt(FORMAT).putInt(records.size());
    for (ArchivedRecord record : records) {
      buffer.putLong(record.index()).putLong(record.asqn()).putInt(record.checksum());
      buffer.putInt(record.data().length).put(record.data());
    }
    byte[] raw = buffer.array();
    return new Encoded(Zstd.compress(raw, ZSTD_LEVEL), raw.length, crc32c(raw));
  }

  /**
   * Decodes a stored chunk and checks it against its link: size, CRC32C, and records {@code
   * fromIndex..toIndex} in order.
   *
   * @throws ArchiveException naming the chunk and the link if anything differs
   */
  public static List<ArchivedRecord> decode(byte[] stored, ArchiveLink link) {
    String where = link.chunkKey();
    if (link.sizeBytes() > MAX_CHUNK_BYTES || link.sizeBytes() < HEADER_BYTES) {
      throw corrupted(
          where,
          "a size of " + HEADER_BYTES + " to " + MAX_CHUNK_BYTES,
          link.sizeBytes() + " in its link");
    }
    if (stored.length != link.storedBytes()) {
      throw corrupted(where, link.storedBytes() + " stored bytes", "it has " + stored.length);
    }
    byte[] raw;
    try {
      raw =
          link.compression() == Compression.ZSTD
              ? Zstd.decompress(stored, (int) link.sizeBytes())
              : stored;
    } catch (ZstdException | IllegalArgumentException e) {
      throw corrupted(where, "a zstd frame", "it does not decompress: " + e.getMessage());
    }
    if (raw.length != link.sizeBytes()) {
      throw corrupted(where, link.sizeBytes() + " bytes decoded", raw.length + " bytes");
    }
    long crc = crc32c(raw);
    if (crc != link.crc32c()) {
      throw corrupted(
          where,
          "the CRC32C " + Long.toHexString(link.crc32c()) + " of its link",
          "it has " + Long.toHexString(crc));
    }
    try {
      ByteBuffer buffer = ByteBuffer.wrap(raw);
      byte[] magic = new byte[MAGIC.length];
      buffer.get(magic);
      int format = buffer.getInt();
      int count = buffer.getInt();
      if (!java.util.Arrays.equals(magic, MAGIC) || format != FORMAT) {
        throw corrupted(where, "a chunk of format " + FORMAT, "format " + format);
      }
      if (count != link.toIndex() - link.fromIndex() + 1) {
        throw corrupted(
            where,
            (link.toIndex() - link.fromIndex() + 1) + " records (its link's indexes)",
            count + " records");
      }
      // Each record takes at least its header: a count the bytes cannot hold is refused before
      // it sizes the list.
      if (count > buffer.remaining() / RECORD_HEADER_BYTES) {
        throw corrupted(
            where,
            "at most " + buffer.remaining() / RECORD_HEADER_BYTES + " records in its size",
            count + " records");
      }
      List<ArchivedRecord> records = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        long index = buffer.getLong();
        long asqn = buffer.getLong();
        int checksum = buffer.getInt();
        int length = buffer.getInt();
        if (index != link.fromIndex() + i || length < 0 || length > buffer.remaining()) {
          throw corrupted(
              where,
              "record " + (link.fromIndex() + i) + " next",
              "index " + index + " of length " + length);
        }
        byte[] data = new byte[length];
        buffer.get(data);
        records.add(new ArchivedRecord(index, asqn, checksum, data));
      }
      if (buffer.hasRemaining()) {
        throw corrupted(where, "nothing after its last record", buffer.remaining() + " bytes");
      }
      return records;
    } catch (BufferUnderflowException e) {
      throw corrupted(where, "complete records", "it ends inside one");
    }
  }

  private static long crc32c(byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length);
    return crc.getValue();
  }

  private static ArchiveException corrupted(String where, String expected, String actual) {
    return new ArchiveException(
        "Expected archive chunk " + where + " to have " + expected + ", but " + actual);
  }
}
