package io.cairn.backupapi.content;

import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import io.cairn.backupapi.Compression;
import java.io.EOFException;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Streams the first {@code lengthBytes} of a file into a target, optionally zstd-compressed, then
 * sealed by a {@link ContentCipher}, computing the CRC32C of the original bytes in the same pass.
 * Never reads past the fixed length, so a file that keeps growing (the active journal segment) is
 * copied exactly as it was when the length was taken.
 */
public final class ContentEncoder {

  static final int CHUNK_BYTES = 1024 * 1024;

  private ContentEncoder() {}

  /**
   * @param target receives the stored bytes; flushed but not closed
   * @throws EOFException if the file is shorter than {@code lengthBytes}
   */
  public static EncodedContent encode(
      Path source,
      long lengthBytes,
      CompressionPolicy policy,
      ContentCipher cipher,
      OutputStream target)
      throws IOException {
    Compression compression = policy.choose(lengthBytes);
    var counting = new CountingOutputStream(target);
    var crc = new CRC32C();
    try (FileChannel channel = FileChannel.open(source, StandardOpenOption.READ)) {
      // Closing the sealed stream writes its last segment; counting's close only flushes.
      try (OutputStream sealed = cipher.encrypting(counting)) {
        if (compression == Compression.ZSTD) {
          var zstd = new ZstdOutputStreamNoFinalizer(sealed, policy.zstdLevel());
          try {
            zstd.setChecksum(true);
            copy(channel, source, lengthBytes, crc, zstd);
          } finally {
            zstd.closeWithoutClosingParentStream();
          }
        } else {
          copy(channel, source, lengthBytes, crc, sealed);
        }
      }
    }
    counting.flush();
    return new EncodedContent(lengthBytes, crc.getValue(), counting.count, compression);
  }

  /**
   * CRC32C of the first {@code lengthBytes} of a file (to decide whether an equal file can be
   * reused before copying it).
   *
   * @throws EOFException if the file is shorter than {@code lengthBytes}
   */
  public static long crc32cOfPrefix(Path source, long lengthBytes) throws IOException {
    var crc = new CRC32C();
    try (FileChannel channel = FileChannel.open(source, StandardOpenOption.READ)) {
      copy(channel, source, lengthBytes, crc, null);
    }
    return crc.getValue();
  }

  private static void copy(
      FileChannel channel, Path source, long lengthBytes, CRC32C crc, OutputStream out)
      throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(CHUNK_BYTES, Math.max(lengthBytes, 1)));
    long position = 0;
    while (position < lengthBytes) {
      buffer.clear();
      buffer.limit((int) Math.min(buffer.capacity(), lengthBytes - position));
      // Sequential reads from a fresh channel (position 0); also works for pipes.
      int read = channel.read(buffer);
      if (read < 0) {
        throw new EOFException(
            "Expected to read "
                + lengthBytes
                + " bytes of "
                + source
                + ", but it ends after "
                + position
                + " bytes");
      }
      crc.update(buffer.array(), 0, read);
      if (out != null) {
        out.write(buffer.array(), 0, read);
      }
      position += read;
    }
  }

  private static final class CountingOutputStream extends FilterOutputStream {
    private long count;

    CountingOutputStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }

    @Override
    public void close() throws IOException {
      // The caller owns the target.
      flush();
    }
  }
}
