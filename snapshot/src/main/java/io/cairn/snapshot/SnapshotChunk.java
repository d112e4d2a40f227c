package io.cairn.snapshot;

import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * One piece of a snapshot sent to a follower. A snapshot is sent file by file, the checksum file
 * first, each file in pieces of at most the configured chunk size (an empty file is one empty
 * chunk); the chunks of one file are consecutive.
 *
 * @param chunkIndex 0-based position of the chunk in the snapshot
 * @param chunkCount how many chunks the snapshot has, at least 1
 * @param fileName the file the bytes belong to
 * @param data the bytes, which continue the file where the previous chunk of it ended
 * @param checksum CRC32C of {@code data} (the low 32 bits)
 * @param snapshotChecksum the whole-snapshot checksum: CRC32C of the checksum file's content,
 *     unsigned; the same in every chunk
 */
public record SnapshotChunk(
    int chunkIndex,
    int chunkCount,
    String fileName,
    byte[] data,
    int checksum,
    long snapshotChecksum) {

  public SnapshotChunk {
    Objects.requireNonNull(fileName, "fileName");
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

  /** CRC32C of {@code data}, as {@link #checksum()} carries it. */
  public static int checksumOf(byte[] data) {
    CRC32C crc = new CRC32C();
    crc.update(data, 0, data.length);
    return (int) crc.getValue();
  }

  /** True if {@link #checksum()} matches {@link #data()}. */
  public boolean isIntact() {
    return checksumOf(data) == checksum;
  }

  public boolean isLast() {
    return chunkIndex == chunkCount - 1;
  }

  @Override
  public String toString() {
    return "SnapshotChunk{"
        + chunkIndex
        + "/"
        + chunkCount
        + ", file="
        + fileName
        + ", bytes="
        + data.length
        + '}';
  }
}
