package io.cairn.snapshot.store;

import io.cairn.files.DurableFiles;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotException;
import io.cairn.snapshot.SnapshotId;
import io.cairn.snapshot.SnapshotMetadata;
import io.cairn.snapshot.SnapshotStateWriter;
import io.cairn.snapshot.StaleSnapshotException;
import io.cairn.snapshot.TransientSnapshot;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.TreeMap;

/**
 * A snapshot being taken, in its own directory under the transient directory. Persisting writes the
 * metadata file, then the checksum file (last), fsyncs every file and the directory, and hands the
 * directory to the store for the atomic rename.
 */
final class FileTransientSnapshot implements TransientSnapshot {

  private enum State {
    NEW,
    STATE_WRITTEN,
    PERSISTED,
    ABORTED
  }

  private final FileSnapshotStore store;
  private final SnapshotMetadata metadata;
  private final long startNanos;
  private final Path directory;
  private State state = State.NEW;
  private PersistedSnapshot persisted;

  FileTransientSnapshot(FileSnapshotStore store, SnapshotMetadata metadata, long startNanos) {
    this.store = store;
    this.metadata = metadata;
    this.startNanos = startNanos;
    this.directory = store.newTransientPath(metadata.id().toString());
  }

  @Override
  public SnapshotId id() {
    return metadata.id();
  }

  @Override
  public SnapshotMetadata metadata() {
    return metadata;
  }

  /** Where the state is written; exists once {@link #writeState} ran. */
  Path directory() {
    return directory;
  }

  @Override
  public void writeState(SnapshotStateWriter writer) {
    requireState(State.NEW, "write its state");
    try {
      writer.write(directory);
      if (!Files.exists(directory)) {
        Files.createDirectory(directory);
      }
      for (Path path : DurableFiles.list(directory)) {
        String name = path.getFileName().toString();
        if (!DurableFiles.isRegularFile(path)
            || !SnapshotLayout.isValidFileName(name)
            || SnapshotLayout.isReservedFileName(name)) {
          throw new SnapshotException(
              "Expected the state of snapshot "
                  + id()
                  + " to be regular files named with [A-Za-z0-9._-] other than "
                  + SnapshotLayout.METADATA_FILE
                  + " and "
                  + SnapshotLayout.CHECKSUM_FILE
                  + ", but the writer produced '"
                  + name
                  + "'");
        }
      }
    } catch (IOException | RuntimeException e) {
      abort();
      throw e instanceof SnapshotException se
          ? se
          : new SnapshotException(
              "Expected to write the state of snapshot "
                  + id()
                  + " into "
                  + directory
                  + ", but "
                  + e,
              e);
    }
    state = State.STATE_WRITTEN;
    store.phase(SnapshotPhase.STATE_WRITTEN, id());
  }

  @Override
  public PersistedSnapshot persist() {
    if (state == State.PERSISTED) {
      return persisted;
    }
    requireState(State.STATE_WRITTEN, "be persisted");
    try {
      DurableFiles.writeNew(
          directory.resolve(SnapshotLayout.METADATA_FILE), MetadataCodec.encode(metadata));
      store.phase(SnapshotPhase.METADATA_WRITTEN, id());
      TreeMap<String, ChecksumFile.Entry> entries = new TreeMap<>();
      for (Path path : DurableFiles.list(directory)) {
        entries.put(path.getFileName().toString(), FileChecksums.checksum(path).toEntry());
        DurableFiles.fsync(path);
      }
      ChecksumFile checksums = new ChecksumFile(entries);
      byte[] checksumBytes = checksums.encode();
      writeChecksumFile(checksumBytes);
      DurableFiles.fsyncDirectory(directory);
      store.phase(SnapshotPhase.CHECKSUM_FILE_WRITTEN, id());
      persisted = store.commit(directory, metadata, checksums, checksumBytes);
    } catch (StaleSnapshotException e) {
      state = State.ABORTED;
      throw e;
    } catch (IOException | RuntimeException e) {
      abort();
      throw e instanceof SnapshotException se
          ? se
          : new SnapshotException(
              "Expected to persist snapshot " + id() + " from " + directory + ", but " + e, e);
    }
    state = State.PERSISTED;
    store.metrics().taken(store.clock().nanos() - startNanos);
    return persisted;
  }

  /** Writes the checksum file in two halves so a crash between them can be simulated. */
  private void writeChecksumFile(byte[] content) throws IOException {
    Path path = directory.resolve(SnapshotLayout.CHECKSUM_FILE);
    try (FileChannel channel =
        FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      int half = content.length / 2;
      writeFully(channel, ByteBuffer.wrap(content, 0, half));
      channel.force(true);
      store.phase(SnapshotPhase.CHECKSUM_FILE_HALF_WRITTEN, id());
      writeFully(channel, ByteBuffer.wrap(content, half, content.length - half));
      channel.force(true);
    }
  }

  private static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }

  @Override
  public void abort() {
    if (state == State.PERSISTED || state == State.ABORTED) {
      return;
    }
    state = State.ABORTED;
    store.deleteQuietly(directory);
  }

  private void requireState(State expected, String action) {
    if (state != expected) {
      throw new IllegalStateException(
          "Expected transient snapshot "
              + id()
              + " to be "
              + expected
              + " to "
              + action
              + ", but it is "
              + state);
    }
  }

  @Override
  public String toString() {
    return "TransientSnapshot{" + id() + ", " + state + '}';
  }
}
