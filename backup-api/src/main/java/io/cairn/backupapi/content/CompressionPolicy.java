package io.cairn.backupapi.content;

import io.cairn.backupapi.Compression;
import java.util.Objects;

/**
 * Which files a store compresses: with {@link Compression#ZSTD}, every file of at least {@code
 * thresholdBytes}; smaller files (metadata, small SST files) are not worth a zstd frame.
 *
 * @param compression {@link Compression#NONE} stores everything as is
 * @param thresholdBytes the smallest file to compress, {@code >= 0}
 * @param zstdLevel zstd level, {@code 1..19}; 3 compresses about 0.3 GB/s per core
 */
public record CompressionPolicy(Compression compression, long thresholdBytes, int zstdLevel) {

  public static final long THRESHOLD_BYTES_DEFAULT = 64 * 1024;
  public static final int ZSTD_LEVEL_DEFAULT = 3;

  public CompressionPolicy {
    Objects.requireNonNull(compression, "compression");
    if (thresholdBytes < 0) {
      throw new IllegalArgumentException(
          "Expected compressionThresholdBytes >= 0, but was " + thresholdBytes);
    }
    if (zstdLevel < 1 || zstdLevel > 19) {
      throw new IllegalArgumentException("Expected zstdLevel in 1..19, but was " + zstdLevel);
    }
  }

  public static CompressionPolicy none() {
    return new CompressionPolicy(Compression.NONE, THRESHOLD_BYTES_DEFAULT, ZSTD_LEVEL_DEFAULT);
  }

  public static CompressionPolicy zstd(long thresholdBytes) {
    return new CompressionPolicy(Compression.ZSTD, thresholdBytes, ZSTD_LEVEL_DEFAULT);
  }

  /** The compression for a file of {@code sizeBytes}. */
  public Compression choose(long sizeBytes) {
    return compression == Compression.ZSTD && sizeBytes >= thresholdBytes
        ? Compression.ZSTD
        : Compression.NONE;
  }
}
