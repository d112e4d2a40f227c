package io.cairn.broker.partition;

import io.cairn.raft.RaftSnapshot;
import io.cairn.raft.RaftSnapshotChunk;
import io.cairn.raft.RaftSnapshotChunkReader;
import io.cairn.raft.RaftSnapshotReceiver;
import io.cairn.raft.RaftSnapshotStore;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotChunk;
import io.cairn.snapshot.SnapshotChunkReader;
import io.cairn.snapshot.SnapshotId;
import io.cairn.snapshot.SnapshotNotFoundException;
import io.cairn.snapshot.SnapshotReceiver;
import io.cairn.snapshot.SnapshotReservation;
import io.cairn.snapshot.SnapshotStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Raft's view of a {@link SnapshotStore}: the latest snapshot to send to lagging followers (read in
 * checksummed chunks), receivers for snapshots from the leader, and the compaction bound.
 *
 * <p><b>Pins.</b> A {@link RaftSnapshot} handed to raft must stay readable: raft may restart a
 * transfer (close the reader and open a new one) long after a newer snapshot was persisted. So the
 * adapter reserves every snapshot it hands out and keeps the reservation (the "pin") while a reader
 * on it is open, releasing idle pins of superseded snapshots on the next {@link #latestSnapshot()}
 * call. Pinned snapshots count in the compaction bound like any reserved one.
 *
 * <p>Used only from the raft member's thread (like raft's interface); the store itself is
 * thread-safe.
 */
public final class RaftSnapshotStoreAdapter implements RaftSnapshotStore, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RaftSnapshotStoreAdapter.class);

  private final SnapshotStore store;
  private final Map<SnapshotId, Pin> pins = new LinkedHashMap<>();
  private SnapshotReceiverAdapter receiving;

  public RaftSnapshotStoreAdapter(SnapshotStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  @Override
  public Optional<RaftSnapshot> latestSnapshot() {
    Optional<SnapshotReservation> newest = store.reserveNewest(snapshot -> true);
    if (newest.isEmpty()) {
      releaseIdlePins(null);
      return Optional.empty();
    }
    SnapshotId id = newest.get().snapshot().id();
    Pin pin = pins.get(id);
    if (pin == null) {
      pin = new Pin(newest.get());
      pins.put(id, pin);
    } else {
      newest.get().close(); // pinned already
    }
    releaseIdlePins(id);
    return Optional.of(pin);
  }

  @Override
  public long compactionBoundIndex() {
    return store.compactionBoundIndex();
  }

  @Override
  public RaftSnapshotReceiver newReceiver(long index, long term) {
    if (receiving != null) {
      receiving.abort(); // a no-op once committed
    }
    receiving = new SnapshotReceiverAdapter(store.newReceiver(index, term));
    return receiving;
  }

  /** Snapshots currently pinned for raft (for diagnostics and tests). */
  public int pinnedCount() {
    return pins.size();
  }

  /** Releases every pin and aborts a receiver that did not commit. */
  @Override
  public void close() {
    pins.values().forEach(pin -> pin.reservation.close());
    pins.clear();
    if (receiving != null) {
      receiving.abort();
      receiving = null;
    }
  }

  private void releaseIdlePins(SnapshotId keep) {
    pins.values()
        .removeIf(
            pin -> {
              boolean idle = pin.openReaders == 0 && !pin.snapshot.id().equals(keep);
              if (idle) {
                pin.reservation.close();
              }
              return idle;
            });
  }

  /** A pinned snapshot as raft sees it. */
  private final class Pin implements RaftSnapshot {
    private final SnapshotReservation reservation;
    private final PersistedSnapshot snapshot;
    private int openReaders;

    private Pin(SnapshotReservation reservation) {
      this.reservation = reservation;
      this.snapshot = reservation.snapshot();
    }

    @Override
    public long index() {
      return snapshot.index();
    }

    @Override
    public long term() {
      return snapshot.term();
    }

    @Override
    public RaftSnapshotChunkReader openChunkReader() {
      SnapshotChunkReader reader;
      try {
        reader = store.openChunkReader(snapshot.id());
      } catch (SnapshotNotFoundException e) {
        // Only if raft kept this object past a later latestSnapshot() call without a reader.
        LOG.warn(
            "Snapshot {} is gone (deleted or found corrupt); its transfer ends without chunks",
            snapshot.id());
        return new ChunkReaderAdapter(null, this);
      }
      openReaders++;
      return new ChunkReaderAdapter(reader, this);
    }

    @Override
    public String toString() {
      return "RaftSnapshot{" + snapshot.id() + ", readers=" + openReaders + '}';
    }
  }

  /** Converts chunks; tells its pin when it closes. */
  private static final class ChunkReaderAdapter implements RaftSnapshotChunkReader {
    private final SnapshotChunkReader reader;
    private final Pin pin;
    private boolean closed;

    private ChunkReaderAdapter(SnapshotChunkReader reader, Pin pin) {
      this.reader = reader;
      this.pin = pin;
    }

    @Override
    public boolean hasNext() {
      return !closed && reader != null && reader.hasNext();
    }

    @Override
    public RaftSnapshotChunk next() {
      if (!hasNext()) {
        throw new NoSuchElementException("Expected another snapshot chunk, but there is none");
      }
      SnapshotChunk chunk = reader.next();
      return new RaftSnapshotChunk(
          chunk.chunkIndex(),
          chunk.chunkCount(),
          chunk.fileName(),
          chunk.data(),
          chunk.checksum(),
          chunk.snapshotChecksum());
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        if (reader != null) {
          reader.close();
          pin.openReaders--;
        }
      }
    }
  }

  /** Converts chunks for a {@link SnapshotReceiver}. */
  private static final class SnapshotReceiverAdapter implements RaftSnapshotReceiver {
    private final SnapshotReceiver receiver;

    private SnapshotReceiverAdapter(SnapshotReceiver receiver) {
      this.receiver = receiver;
    }

    @Override
    public long index() {
      return receiver.index();
    }

    @Override
    public long term() {
      return receiver.term();
    }

    @Override
    public boolean accept(RaftSnapshotChunk chunk) {
      return receiver.accept(
          new SnapshotChunk(
              chunk.chunkIndex(),
              chunk.chunkCount(),
              chunk.name(),
              chunk.data(),
              chunk.checksum(),
              chunk.snapshotChecksum()));
    }

    @Override
    public boolean commit() {
      return receiver.commit().isPresent();
    }

    @Override
    public void abort() {
      receiver.abort();
    }
  }
}
