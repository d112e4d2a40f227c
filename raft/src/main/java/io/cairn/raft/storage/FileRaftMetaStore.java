package io.cairn.raft.storage;

import static io.cairn.raft.storage.RaftMetaDescriptor.CHECKSUM_OFFSET;
import static io.cairn.raft.storage.RaftMetaDescriptor.LENGTH;
import static io.cairn.raft.storage.RaftMetaDescriptor.MAGIC;
import static io.cairn.raft.storage.RaftMetaDescriptor.MAGIC_OFFSET;
import static io.cairn.raft.storage.RaftMetaDescriptor.RESERVED_OFFSET;
import static io.cairn.raft.storage.RaftMetaDescriptor.TERM_OFFSET;
import static io.cairn.raft.storage.RaftMetaDescriptor.VERSION;
import static io.cairn.raft.storage.RaftMetaDescriptor.VERSION_OFFSET;
import static io.cairn.raft.storage.RaftMetaDescriptor.VOTED_FOR_OFFSET;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link RaftMetaStore} in one small file (layout in {@link RaftMetaDescriptor}). Every store
 * writes a temporary file, fsyncs it, renames it atomically over the old one and fsyncs the
 * directory, so a crash leaves either the old or the new meta. A checksum mismatch on load is
 * corruption and fails loudly.
 */
public final class FileRaftMetaStore implements RaftMetaStore {

  private static final Logger LOG = LoggerFactory.getLogger(FileRaftMetaStore.class);

  private final Path file;
  private final Path tempFile;
  private final Path directory;
  private RaftMeta cached;

  /**
   * @param file the meta file; its directory must exist
   */
  public FileRaftMetaStore(Path file) {
    this.file = file.toAbsolutePath();
    this.directory = this.file.getParent();
    this.tempFile = directory.resolve(this.file.getFileName() + ".tmp");
  }

  @Override
  public RaftMeta load() {
    try {
      if (Files.deleteIfExists(tempFile)) {
        LOG.warn("Deleted unfinished raft meta file {}", tempFile);
      }
      if (!Files.exists(file)) {
        cached = RaftMeta.INITIAL;
        return cached;
      }
      byte[] bytes = Files.readAllBytes(file);
      cached = decode(bytes);
      return cached;
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read raft meta file " + file, e);
    }
  }

  @Override
  public void store(RaftMeta meta) {
    if (meta.equals(cached)) {
      return;
    }
    ByteBuffer buffer = encode(meta);
    try {
      try (FileChannel channel =
          FileChannel.open(
              tempFile,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE)) {
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
      Files.move(
          tempFile, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      fsyncDirectory();
      cached = meta;
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write raft meta file " + file, e);
    }
  }

  @Override
  public void close() {
    // nothing is held open between calls
  }

  public Path file() {
    return file;
  }

  static ByteBuffer encode(RaftMeta meta) {
    ByteBuffer buffer = ByteBuffer.allocate(LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    buffer.putInt(MAGIC_OFFSET, MAGIC);
    buffer.putShort(VERSION_OFFSET, VERSION);
    buffer.putShort(RESERVED_OFFSET, (short) 0);
    buffer.putLong(TERM_OFFSET, meta.term());
    buffer.putInt(VOTED_FOR_OFFSET, meta.votedFor());
    buffer.putInt(CHECKSUM_OFFSET, checksum(buffer));
    return buffer;
  }

  private RaftMeta decode(byte[] bytes) {
    if (bytes.length != LENGTH) {
      throw new IllegalStateException(
          "Expected raft meta file of "
              + LENGTH
              + " bytes, but was "
              + bytes.length
              + " bytes ("
              + file
              + "). The file is corrupt; restore the member's data directory.");
    }
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int magic = buffer.getInt(MAGIC_OFFSET);
    if (magic != MAGIC) {
      throw new IllegalStateException(
          "Expected raft meta magic "
              + Integer.toHexString(MAGIC)
              + ", but was "
              + Integer.toHexString(magic)
              + " ("
              + file
              + ")");
    }
    short version = buffer.getShort(VERSION_OFFSET);
    if (version != VERSION) {
      throw new IllegalStateException(
          "Expected raft meta version " + VERSION + ", but was " + version + " (" + file + ")");
    }
    int expected = buffer.getInt(CHECKSUM_OFFSET);
    int actual = checksum(buffer);
    if (expected != actual) {
      throw new IllegalStateException(
          "Expected raft meta checksum "
              + Integer.toHexString(expected)
              + ", but was "
              + Integer.toHexString(actual)
              + " ("
              + file
              + ", offset 0). The file is corrupt; restore the member's data directory.");
    }
    return new RaftMeta(buffer.getLong(TERM_OFFSET), buffer.getInt(VOTED_FOR_OFFSET));
  }

  private static int checksum(ByteBuffer buffer) {
    CRC32C crc = new CRC32C();
    crc.update(buffer.array(), 0, CHECKSUM_OFFSET);
    return (int) crc.getValue();
  }

  private void fsyncDirectory() throws IOException {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
