package io.cairn.snapshot.store;

import io.cairn.files.DurableFiles;
import io.cairn.snapshot.CorruptedSnapshotException;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotChunk;
import io.cairn.snapshot.SnapshotException;
import io.cairn.snapshot.SnapshotMetadata;
import io.cairn.snapshot.SnapshotMetrics;
import io.cairn.snapshot.SnapshotReceiver;
import io.cairn.snapshot.StaleSnapshotException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes received chunks into a transient directory, checking as it goes: chunk order and checksum,
 * the checksum file against the whole-snapshot checksum, and every later file against the checksum
 * file. The first failure deletes everything received; only {@link #commit()} makes the snapshot
 * visible.
 */
final class FileSnapshotReceiver implements SnapshotReceiver {

  private static final Logger LOG = LoggerFactory.getLogger(FileSnapshotReceiver.class);
  private static final int MAX_CHECKSUM_FILE_BYTES = 16 * 1024 * 1024;

  private enum State {
    RECEIVING,
    FAILED,
    COMMITTED,
    ABORTED
  }

  private final FileSnapshotStore store;
  private final long index;
  private final long term;
  private final long startNanos;
  private final SnapshotMetrics metrics;
  private final Path directory;
  private State state = State.RECEIVING;
  private int nextChunk;
  private int chunkCount = -1;
  private long snapshotChecksum;
  private final ByteArrayOutputStream checksumContent = new ByteArrayOutputStream();
  private ChecksumFile checksums;
  private byte[] checksumBytes;
  private final List<String> expectedFiles = new ArrayList<>();
  private int fileIndex;
  private String currentFile;
  private FileChannel channel;
  private CRC32C crc;
  private long written;
  private PersistedSnapshot committed;

  FileSnapshotReceiver(
      FileSnapshotStore store, long index, long term, long startNanos, SnapshotMetrics metrics) {
    this.store = store;
    this.index = index;
    this.term = term;
    this.startNanos = startNanos;
    this.metrics = metrics;
    this.directory = store.newTransientPath("receive-" + index + "-" + term);
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
  public boolean accept(SnapshotChunk chunk) {
    if (state != State.RECEIVING) {
      return false;
    }
    try {
      String problem = receive(chunk);
      if (problem != null) {
        fail(problem);
        return false;
      }
    } catch (IOException e) {
      fail("writing failed: " + e);
      return false;
    }
    metrics.bytesReceived(chunk.data().length);
    return true;
  }

  /** Handles one chunk; returns why it is refused, or null. */
  private String receive(SnapshotChunk chunk) throws IOException {
    if (chunk.chunkIndex() != nextChunk) {
      return "expected chunk " + nextChunk + " but got " + chunk.chunkIndex();
    }
    if (nextChunk == 0) {
      chunkCount = chunk.chunkCount();
      snapshotChecksum = chunk.snapshotChecksum();
      if (!chunk.fileName().equals(SnapshotLayout.CHECKSUM_FILE)) {
        return "the first chunk belongs to '" + chunk.fileName() + "', not the checksum file";
      }
    } else if (chunk.chunkCount() != chunkCount || chunk.snapshotChecksum() != snapshotChecksum) {
      return "chunk " + nextChunk + " names another snapshot (chunk count or snapshot checksum)";
    }
    if (!chunk.isIntact()) {
      return "chunk " + nextChunk + " of '" + chunk.fileName() + "' fails its CRC32C";
    }
    nextChunk++;
    if (checksums == null) {
      if (chunk.fileName().equals(SnapshotLayout.CHECKSUM_FILE)) {
        if (checksumContent.size() + chunk.data().length > MAX_CHECKSUM_FILE_BYTES) {
          return "the checksum file is larger than " + MAX_CHECKSUM_FILE_BYTES + " bytes";
        }
        checksumContent.write(chunk.data());
        return chunk.isLast() ? finishChecksumFile() : null;
      }
      String problem = finishChecksumFile();
      if (problem != null) {
        return problem;
      }
    }
    if (currentFile != null && !currentFile.equals(chunk.fileName())) {
      String problem = finishFile();
      if (problem != null) {
        return problem;
      }
    }
    if (currentFile == null) {
      String problem = startFile(chunk.fileName());
      if (problem != null) {
        return problem;
      }
    }
    ByteBuffer buffer = ByteBuffer.wrap(chunk.data());
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
    crc.update(chunk.data(), 0, chunk.data().length);
    written += chunk.data().length;
    long expectedSize = checksums.entries().get(currentFile).sizeBytes();
    if (written > expectedSize) {
      return "'" + currentFile + "' grew past its " + expectedSize + " listed bytes";
    }
    // a file is checked as soon as it is complete, or when the next file or the end shows up
    return written == expectedSize || chunk.isLast() ? finishFile() : null;
  }

  private String finishChecksumFile() throws IOException {
    byte[] content = checksumContent.toByteArray();
    long actual = ChecksumFile.crc32c(content);
    if (actual != snapshotChecksum) {
      return "the checksum file has CRC32C "
          + ChecksumFile.hex(actual)
          + " but the snapshot checksum is "
          + ChecksumFile.hex(snapshotChecksum);
    }
    try {
      checksums = ChecksumFile.decode(content);
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    checksumBytes = content;
    expectedFiles.addAll(checksums.entries().keySet());
    Files.createDirectory(directory);
    DurableFiles.writeNew(directory.resolve(SnapshotLayout.CHECKSUM_FILE), content);
    return null;
  }

  private String startFile(String name) throws IOException {
    if (fileIndex >= expectedFiles.size()) {
      return "got '" + name + "' after every listed file";
    }
    String expected = expectedFiles.get(fileIndex);
    if (!expected.equals(name)) {
      return "expected file '" + expected + "' next but got '" + name + "'";
    }
    currentFile = name;
    channel =
        FileChannel.open(
            directory.resolve(name), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    crc = new CRC32C();
    written = 0;
    return null;
  }

  private String finishFile() throws IOException {
    channel.force(true);
    closeChannel();
    ChecksumFile.Entry expected = checksums.entries().get(currentFile);
    ChecksumFile.Entry actual = new ChecksumFile.Entry(written, crc.getValue());
    if (!expected.equals(actual)) {
      return "'"
          + currentFile
          + "' should have "
          + expected.describe()
          + " but has "
          + actual.describe();
    }
    currentFile = null;
    fileIndex++;
    return null;
  }

  @Override
  public Optional<PersistedSnapshot> commit() {
    if (state == State.COMMITTED) {
      return Optional.of(committed);
    }
    if (state != State.RECEIVING) {
      return Optional.empty();
    }
    if (chunkCount < 0 || nextChunk != chunkCount || currentFile != null) {
      fail("only " + nextChunk + " of " + Math.max(chunkCount, 0) + " chunks arrived");
      return Optional.empty();
    }
    if (checksums == null || fileIndex != expectedFiles.size()) {
      fail("only " + fileIndex + " of " + expectedFiles.size() + " listed files arrived");
      return Optional.empty();
    }
    try {
      SnapshotMetadata metadata =
          SnapshotReader.readMetadata(directory, "received " + index + "/" + term, checksums);
      if (metadata.index() != index || metadata.term() != term) {
        fail("its metadata names index " + metadata.index() + " term " + metadata.term());
        return Optional.empty();
      }
      DurableFiles.fsyncDirectory(directory);
      store.phase(SnapshotPhase.CHECKSUM_FILE_WRITTEN, metadata.id());
      committed = store.commit(directory, metadata, checksums, checksumBytes);
    } catch (StaleSnapshotException e) {
      fail(e.getMessage());
      return Optional.empty();
    } catch (CorruptedSnapshotException e) {
      fail(e.getMessage());
      return Optional.empty();
    } catch (IOException | SnapshotException e) {
      fail("committing failed: " + e);
      return Optional.empty();
    }
    state = State.COMMITTED;
    metrics.received(store.clock().nanos() - startNanos);
    return Optional.of(committed);
  }

  private void fail(String reason) {
    LOG.warn(
        "Refused snapshot {}/{} received into {}: {}; everything received is deleted",
        index,
        term,
        directory,
        reason);
    state = State.FAILED;
    closeChannel();
    store.deleteQuietly(directory);
  }

  @Override
  public void abort() {
    if (state == State.COMMITTED || state == State.ABORTED) {
      return;
    }
    state = State.ABORTED;
    closeChannel();
    store.deleteQuietly(directory);
  }

  private void closeChannel() {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        LOG.debug("Closing {} failed: {}", currentFile, e.toString());
      }
      channel = null;
    }
  }

  @Override
  public String toString() {
    return "SnapshotReceiver{" + index + "/" + term + ", " + state + ", next=" + nextChunk + '}';
  }
}
