package io.cairn.backupapi.content;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import io.cairn.backupapi.Compression;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.function.LongConsumer;
import java.util.zip.CRC32C;

/**
 * Reads a stored object back: authenticates and decrypts it ({@link ContentCipher}), decodes it,
 * computes size and CRC32C of the decoded content, and optionally writes it to a sink. A corrupt or
 * truncated zstd frame fails with an {@link IOException}; content longer than a limit stops early
 * (so a hostile object cannot fill a disk).
 */
public final class ContentDecoder {

  private ContentDecoder() {}

  /**
   * @param stored the stored object; not closed
   * @param cipher how it was sealed; a part that is not authentic fails with {@link
   *     SegmentedCipher.ObjectAuthenticationException} before any of its bytes reach {@code sink}
   * @param sink receives the decoded bytes, or null to only check them
   * @param limitBytes stop once more than this many bytes were decoded
   * @param progress told the number of bytes decoded by each chunk
   */
  public static DecodedContent decode(
      InputStream stored,
      Compression compression,
      ContentCipher cipher,
      OutputStream sink,
      long limitBytes,
      LongConsumer progress)
      throws IOException {
    var crc = new CRC32C();
    long size = 0;
    byte[] buffer = new byte[ContentEncoder.CHUNK_BYTES];
    InputStream opened = cipher.decrypting(new NonClosingInputStream(stored));
    InputStream in = opened;
    ZstdInputStreamNoFinalizer zstd = null;
    if (compression == Compression.ZSTD) {
      zstd = new ZstdInputStreamNoFinalizer(opened);
      in = zstd;
    }
    try {
      int read;
      while ((read = in.read(buffer)) >= 0) {
        if (read == 0) {
          continue;
        }
        if (size + read > limitBytes) {
          crc.update(buffer, 0, read);
          return new DecodedContent(size + read, crc.getValue(), true);
        }
        crc.update(buffer, 0, read);
        if (sink != null) {
          sink.write(buffer, 0, read);
        }
        size += read;
        progress.accept(read);
      }
      if (cipher.encrypts()) {
        // Every segment up to the last tag is authenticated, even past the end of a zstd frame.
        opened.transferTo(OutputStream.nullOutputStream());
      }
    } finally {
      if (zstd != null) {
        zstd.close();
      }
      opened.close();
    }
    return new DecodedContent(size, crc.getValue(), false);
  }

  private static final class NonClosingInputStream extends java.io.FilterInputStream {
    NonClosingInputStream(InputStream in) {
      super(in);
    }

    @Override
    public void close() {
      // The caller owns the stored stream.
    }
  }
}
