package io.cairn.snapshot.store;

import io.cairn.snapshot.CorruptedSnapshotException;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotChunk;
import io.cairn.snapshot.SnapshotChunkReader;
import io.cairn.snapshot.SnapshotException;
import io.cairn.snapshot.SnapshotFile;
import io.cairn.snapshot.SnapshotMetrics;
import io.cairn.snapshot.SnapshotReservation;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.zip.CRC32C;

/**
 * Reads a reserved snapshot as chunks: the checksum file first, then every other file in name
 * order, each in pieces of at most {@code chunkSizeBytes} (an empty file is one empty chunk).
 *
 * <p>Each file's CRC32C is computed as it is read; a file that does not match its checksum file
 * entry marks the snapshot corrupt (ERROR), so it is no longer offered. The chunk is still
 * returned: the follower checks the same CRC32C and rejects it.
 */
final class FileSnapshotChunkReader implements SnapshotChunkReader {

  private final FileSnapshotStore store;
  private final SnapshotReservation reservation;
  private final PersistedSnapshot snapshot;
  private final int chunkSizeBytes;
  private final SnapshotMetrics metrics;
  private final List<SnapshotFile> plan = new ArrayList<>();
  private final int chunkCount;
  private int nextChunk;
  private int fileIndex;
  private long offset;
  private FileChannel channel;
  private CRC32C crc = new CRC32C();
  private boolean closed;

  FileSnapshotChunkReader(
      FileSnapshotStore store,
      SnapshotReservation reservation,
      int chunkSizeBytes,
      SnapshotMetrics metrics) {
    this.store = store;
    this.reservation = reservation;
    this.snapshot = reservation.snapshot();
    this.chunkSizeBytes = chunkSizeBytes;
    this.metrics = metrics;
    for (SnapshotFile file : snapshot.files()) {
      if (file.name().equals(SnapshotLayout.CHECKSUM_FILE)) {
        plan.add(0, file);
      } else {
        plan.add(file);
      }
    }
    long count = 0;
    for (SnapshotFile file : plan) {
      count += Math.max(1, (file.sizeBytes() + chunkSizeBytes - 1) / chunkSizeBytes);
    }
    if (count > Integer.MAX_VALUE) {
      reservation.close();
      throw new SnapshotException(
          "Expected a snapshot of at most "
              + Integer.MAX_VALUE
              + " chunks, but "
              + snapshot.id()
              + " has "
              + count
              + " of "
              + chunkSizeBytes
              + " bytes");
    }
    this.chunkCount = (int) count;
  }

  @Override
  public PersistedSnapshot snapshot() {
    return snapshot;
  }

  @Override
  public int chunkCount() {
    return chunkCount;
  }

  @Override
  public boolean hasNext() {
    return !closed && nextChunk < chunkCount;
  }

  @Override
  public SnapshotChunk next() {
    if (!hasNext()) {
      throw new NoSuchElementException(
          "Expected another chunk of snapshot "
              + snapshot.id()
              + ", but "
              + (closed ? "the reader is closed" : "all " + chunkCount + " were read"));
    }
    SnapshotFile file = plan.get(fileIndex);
    int length = (int) Math.min(chunkSizeBytes, file.sizeBytes() - offset);
    byte[] data = new byte[length];
    try {
      if (channel == null) {
        channel = FileChannel.open(file.path(), StandardOpenOption.READ);
      }
      ByteBuffer buffer = ByteBuffer.wrap(data);
      while (buffer.hasRemaining()) {
        if (channel.read(buffer, offset + buffer.position()) < 0) {
          CorruptedSnapshotException corrupt =
              new CorruptedSnapshotException(
                  snapshot.id().toString(),
                  file.name(),
                  SnapshotReader.describe(file),
                  "only " + (offset + buffer.position()) + " bytes");
          store.markCorrupt(snapshot, corrupt);
          throw corrupt;
        }
      }
    } catch (IOException e) {
      throw new SnapshotException(
          "Expected to read " + file.path() + " of snapshot " + snapshot.id() + ", but " + e, e);
    }
    crc.update(data, 0, length);
    offset += length;
    SnapshotChunk chunk =
        new SnapshotChunk(
            nextChunk,
            chunkCount,
            file.name(),
            data,
            SnapshotChunk.checksumOf(data),
            snapshot.checksum());
    nextChunk++;
    metrics.bytesSent(length);
    if (offset == file.sizeBytes()) {
      finishFile(file);
    }
    return chunk;
  }

  private void finishFile(SnapshotFile file) {
    closeChannel();
    long actual = crc.getValue();
    if (actual != file.crc32c()) {
      store.markCorrupt(
          snapshot,
          new CorruptedSnapshotException(
              snapshot.id().toString(),
              file.name(),
              SnapshotReader.describe(file),
              file.sizeBytes() + " bytes with CRC32C " + ChecksumFile.hex(actual)));
    }
    fileIndex++;
    offset = 0;
    crc = new CRC32C();
  }

  private void closeChannel() {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        // read-only channel: nothing was written that could be lost
      }
      channel = null;
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      closeChannel();
      reservation.close();
    }
  }

  @Override
  public String toString() {
    return "SnapshotChunkReader{" + snapshot.id() + ", next=" + nextChunk + "/" + chunkCount + '}';
  }
}
