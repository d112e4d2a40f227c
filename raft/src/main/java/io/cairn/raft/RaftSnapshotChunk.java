package io.cairn.raft;

import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * One piece of a snapshot as sent from the leader to a follower.
 *
 * @param chunkIndex 0-based order of the chunk in the snapshot
 * @param chunkCount how many chunks the snapshot has (at least 1)
 * @param name what the chunk belongs to (a file name, for example)
 * @param data the chunk's bytes
 * @param checksum CRC32C of {@code data}
 * @param snapshotChecksum the whole snapshot's checksum, as the store defines it; the receiver
 *     verifies it before it commits
 */
public record RaftSnapshotChunk(
    int chunkIndex, int chunkCount, String name, byte[] data, int checksum, long snapshotChecksum) {

  public RaftSnapshotChunk {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(data, "data");
    if (chunkCount < 1 || chunkIndex < 0 || chunkIndex >= chunkCount) {
      throw new IllegalArgumentException(
          "Expected 0 <= chunkIndex < chunkCount, but was chunkIndex="
              + chunkIndex
              + " chunkCount="
              + chunkCount
              + " (snapshot chunk)");
    }
  }

  /** CRC32C of the given bytes, the chunk checksum. */
  public static int checksumOf(byte[] data) {
    CRC32C crc = new CRC32C();
    crc.update(data, 0, data.length);
    return (int) crc.getValue();
  }

  /** True when {@code checksum} matches {@code data}. */
  public boolean isIntact() {
    return checksumOf(data) == checksum;
  }

  public boolean isLast() {
    return chunkIndex == chunkCount - 1;
  }
}
