package io.cairn.exporter.jsonl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;

/**
 * The files of one partition in an exporter's directory: {@code partition-<p>-<seq>.jsonl}, the
 * sequence number zero-padded to 10 digits and increasing by one per roll-over, so that names sort
 * in the order the records were written. Each file holds whole lines of UTF-8 JSON, one record per
 * line, each ending with {@code \n}.
 */
final class JsonLinesFiles {

  private static final int TAIL_CHUNK_BYTES = 8 * 1024;

  private final Path directory;
  private final int partitionId;
  private final Pattern pattern;

  JsonLinesFiles(Path directory, int partitionId) {
    this.directory = directory;
    this.partitionId = partitionId;
    this.pattern = Pattern.compile("partition-" + partitionId + "-(\\d{10})\\.jsonl");
  }

  /** The file with sequence number {@code sequence}. */
  Path file(long sequence) {
    return directory.resolve(String.format("partition-%d-%010d.jsonl", partitionId, sequence));
  }

  /** The highest sequence number of an existing file, if any. */
  OptionalLong lastSequence() throws IOException {
    long last = -1;
    try (DirectoryStream<Path> files =
        Files.newDirectoryStream(directory, "partition-" + partitionId + "-*.jsonl")) {
      for (Path file : files) {
        Matcher matcher = pattern.matcher(file.getFileName().toString());
        if (matcher.matches()) {
          last = Math.max(last, Long.parseLong(matcher.group(1)));
        }
      }
    }
    return last < 0 ? OptionalLong.empty() : OptionalLong.of(last);
  }

  /**
   * Cuts a torn last line (written before a crash, without its {@code \n}) off {@code file}, so
   * that appending continues on a line boundary. Logs the cut at WARN with the file and offset.
   *
   * @return the file's size afterwards
   */
  static long cutTornTail(Path file, Logger logger) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long size = channel.size();
      if (size == 0) {
        return 0;
      }
      ByteBuffer chunk = ByteBuffer.allocate(TAIL_CHUNK_BYTES);
      long end = size;
      while (end > 0) {
        long start = Math.max(0, end - TAIL_CHUNK_BYTES);
        chunk.clear().limit((int) (end - start));
        readFully(channel, chunk, start);
        for (int i = chunk.limit() - 1; i >= 0; i--) {
          if (chunk.get(i) == '\n') {
            long keep = start + i + 1;
            if (keep < size) {
              cut(channel, file, keep, size, logger);
            }
            return keep;
          }
        }
        end = start;
      }
      cut(channel, file, 0, size, logger);
      return 0;
    }
  }

  private static void cut(FileChannel channel, Path file, long keep, long size, Logger logger)
      throws IOException {
    logger.warn(
        "Cutting a torn last line off {} at offset {} ({} bytes without a line end, written before"
            + " a crash); its record is exported again",
        file,
        keep,
        size - keep);
    channel.truncate(keep);
    channel.force(true);
  }

  private static void readFully(FileChannel channel, ByteBuffer buffer, long at)
      throws IOException {
    long position = at;
    while (buffer.hasRemaining()) {
      int read = channel.read(buffer, position);
      if (read < 0) {
        throw new IOException("Expected more bytes at offset " + position + ", but the file ended");
      }
      position += read;
    }
    buffer.flip();
  }

  /** Makes the creation of a file in the directory durable. */
  void syncDirectory() throws IOException {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
