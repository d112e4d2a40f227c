package io.cairn.journal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;
import org.agrona.DirectBuffer;

/**
 * One record of a {@link Journal}.
 *
 * @param index 1-based, gapless position of the record in the journal
 * @param asqn application sequence number: for stream records, the position of the first stream
 *     record in this entry; {@link Journal#ASQN_IGNORE} for records that carry no stream records
 *     (for example a raft leader's initial entry). Non-ignored values strictly increase with index.
 * @param checksum CRC32C of the record's index and asqn (each as 8 little-endian bytes) followed by
 *     {@code data}; see {@link #computeChecksum}
 * @param data the payload; owned by this record (a copy, safe to keep)
 */
public record JournalRecord(long index, long asqn, int checksum, DirectBuffer data) {

  /**
   * The checksum a journal computes for a record: CRC32C over the index and the asqn, each as 8
   * little-endian bytes, then the {@code data.capacity()} bytes of data. It is the checksum stored
   * in the record's frame on disk.
   */
  public static int computeChecksum(long index, long asqn, DirectBuffer data) {
    CRC32C crc = new CRC32C();
    ByteBuffer prefix = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
    prefix.putLong(index).putLong(asqn).flip();
    crc.update(prefix);
    int length = data.capacity();
    if (data.byteArray() != null) {
      crc.update(data.byteArray(), data.wrapAdjustment(), length);
    } else if (data.byteBuffer() != null) {
      ByteBuffer slice = data.byteBuffer().duplicate();
      slice.limit(data.wrapAdjustment() + length).position(data.wrapAdjustment());
      crc.update(slice);
    } else {
      byte[] copy = new byte[length];
      data.getBytes(0, copy);
      crc.update(copy, 0, length);
    }
    return (int) crc.getValue();
  }
}
