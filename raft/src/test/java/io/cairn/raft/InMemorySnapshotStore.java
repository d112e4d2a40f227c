package io.cairn.raft;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * A snapshot store in memory, for tests: a snapshot is a byte array split into fixed-size chunks.
 * The receiver checks each chunk's checksum and order, and the whole snapshot's checksum on commit.
 *
 * <p>Like the file store, it keeps only the latest snapshot: a snapshot replaced by a newer one is
 * gone, and a reader opened on it afterwards has no chunks (readers opened before stay valid).
 */
final class InMemorySnapshotStore implements RaftSnapshotStore {

  private final int chunkSizeBytes;
  private Snapshot latest;
  private Receiver receiving;
  private long compactionBoundOverride = -1;
  private int commits;
  private int aborts;

  InMemorySnapshotStore() {
    this(16);
  }

  InMemorySnapshotStore(int chunkSizeBytes) {
    this.chunkSizeBytes = chunkSizeBytes;
  }

  /** Takes a snapshot locally, as the application would after applying up to {@code index}. */
  void take(long index, long term, byte[] content) {
    if (latest != null && index <= latest.index) {
      throw new IllegalArgumentException(
          "Expected a snapshot index above " + latest.index + ", but was " + index);
    }
    replaceLatest(new Snapshot(index, term, content.clone(), chunkSizeBytes));
  }

  /**
   * Loses the latest snapshot's data while still reporting it as the latest, as a store would that
   * found its files gone after it was chosen: readers opened from now on have no chunks.
   */
  void loseLatest() {
    latest.gone = true;
  }

  private void replaceLatest(Snapshot snapshot) {
    if (latest != null) {
      latest.gone = true;
    }
    latest = snapshot;
  }

  /** Pretends a reservation keeps entries from {@code index} on; -1 to clear. */
  void compactionBound(long index) {
    compactionBoundOverride = index;
  }

  Snapshot latest() {
    return latest;
  }

  int commits() {
    return commits;
  }

  int aborts() {
    return aborts;
  }

  @Override
  public Optional<RaftSnapshot> latestSnapshot() {
    return Optional.ofNullable(latest);
  }

  @Override
  public long compactionBoundIndex() {
    long bound = latest == null ? 1 : latest.index + 1;
    return compactionBoundOverride > 0 ? Math.min(bound, compactionBoundOverride) : bound;
  }

  @Override
  public RaftSnapshotReceiver newReceiver(long index, long term) {
    if (receiving != null) {
      receiving.abort();
    }
    receiving = new Receiver(index, term);
    return receiving;
  }

  static long checksumOf(byte[] content) {
    CRC32C crc = new CRC32C();
    crc.update(content, 0, content.length);
    return crc.getValue();
  }

  /** One immutable snapshot. */
  static final class Snapshot implements RaftSnapshot {
    private final long index;
    private final long term;
    private final byte[] content;
    private final int chunkSizeBytes;
    private boolean gone;

    Snapshot(long index, long term, byte[] content, int chunkSizeBytes) {
      this.index = index;
      this.term = term;
      this.content = content;
      this.chunkSizeBytes = chunkSizeBytes;
    }

    @Override
    public long index() {
      return index;
    }

    @Override
    public long term() {
      return term;
    }

    byte[] content() {
      return content.clone();
    }

    @Override
    public RaftSnapshotChunkReader openChunkReader() {
      int count = Math.max(1, (content.length + chunkSizeBytes - 1) / chunkSizeBytes);
      long whole = checksumOf(content);
      boolean empty = gone;
      return new RaftSnapshotChunkReader() {
        private int next;

        @Override
        public boolean hasNext() {
          return !empty && next < count;
        }

        @Override
        public RaftSnapshotChunk next() {
          if (!hasNext()) {
            throw new NoSuchElementException("Expected another snapshot chunk, but there is none");
          }
          int from = next * chunkSizeBytes;
          byte[] data =
              Arrays.copyOfRange(content, from, Math.min(content.length, from + chunkSizeBytes));
          RaftSnapshotChunk chunk =
              new RaftSnapshotChunk(
                  next,
                  count,
                  "snapshot-" + index,
                  data,
                  RaftSnapshotChunk.checksumOf(data),
                  whole);
          next++;
          return chunk;
        }

        @Override
        public void close() {}
      };
    }
  }

  private final class Receiver implements RaftSnapshotReceiver {
    private final long index;
    private final long term;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private int nextChunk;
    private int chunkCount = -1;
    private long expectedChecksum;
    private boolean broken;
    private boolean done;

    private Receiver(long index, long term) {
      this.index = index;
      this.term = term;
    }

    @Override
    public long index() {
      return index;
    }

    @Override
    public long term() {
      return term;
    }

    @Override
    public boolean accept(RaftSnapshotChunk chunk) {
      if (broken || done || chunk.chunkIndex() != nextChunk || !chunk.isIntact()) {
        broken = true;
        return false;
      }
      chunkCount = chunk.chunkCount();
      expectedChecksum = chunk.snapshotChecksum();
      bytes.writeBytes(chunk.data());
      nextChunk++;
      return true;
    }

    @Override
    public boolean commit() {
      byte[] content = bytes.toByteArray();
      if (broken || done || nextChunk != chunkCount || checksumOf(content) != expectedChecksum) {
        return false;
      }
      done = true;
      replaceLatest(new Snapshot(index, term, content, chunkSizeBytes));
      commits++;
      if (receiving == this) {
        receiving = null;
      }
      return true;
    }

    @Override
    public void abort() {
      if (!done) {
        done = true;
        aborts++;
      }
      if (receiving == this) {
        receiving = null;
      }
    }
  }
}
