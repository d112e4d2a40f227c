package io.cairn.backupfs.content;

import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.Compression;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.backupapi.content.ContentEncoder;
import io.cairn.backupapi.content.EncodedContent;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backupfs.layout.StoreLayout;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores one file of a backup: either a hard link to an equal object of the previous backup, or a
 * copy of exactly its fixed length written to a temp file, fsynced and renamed into place. The
 * caller fsyncs the directories afterwards, once for all files.
 *
 * <p>An uncompressed regular file is copied kernel-side ({@link FileTransfer}); a compressed one,
 * or a source that is not a regular file (a pipe), is streamed through {@link ContentEncoder}.
 * Every byte written to the store passes the shared {@link WriteThrottle} first. Thread-safe:
 * several files of one save are stored at once.
 */
public final class ContentWriter {

  private static final Logger LOG = LoggerFactory.getLogger(ContentWriter.class);

  /** An object of the previous backup that may hold the same content. */
  public record ReuseCandidate(ManifestFile entry, Path object) {}

  /**
   * @param entry the manifest entry of the stored file
   * @param object where it is stored
   * @param reused true if it was linked, not copied
   */
  public record StoredFile(ManifestFile entry, Path object, boolean reused) {}

  private final StoreLayout layout;
  private final CompressionPolicy policy;
  private final WriteThrottle limiter;
  private final FileTransfer transfer;
  private final AtomicLong tempCounter = new AtomicLong();

  public ContentWriter(StoreLayout layout, CompressionPolicy policy, WriteThrottle limiter) {
    this.layout = layout;
    this.policy = policy;
    this.limiter = limiter;
    this.transfer = new FileTransfer(limiter);
  }

  public StoredFile store(
      BackupIdentifier id, FileSetKind kind, BackupFile file, Optional<ReuseCandidate> candidate)
      throws IOException {
    Path object = layout.object(id, kind, file.name());
    Files.createDirectories(object.getParent());
    if (candidate.isPresent() && candidate.get().entry().sizeBytes() == file.lengthBytes()) {
      Optional<StoredFile> linked = tryLink(file, object, candidate.get());
      if (linked.isPresent()) {
        return linked.get();
      }
    }
    return copy(id, file, object);
  }

  /**
   * Links the previous object if the source's CRC32C equals the previous entry's and the object
   * still has its recorded stored size. Any failure (the previous backup deleted meanwhile, no hard
   * links on this filesystem) falls back to copying.
   */
  private Optional<StoredFile> tryLink(BackupFile file, Path object, ReuseCandidate candidate)
      throws IOException {
    long crc = ContentEncoder.crc32cOfPrefix(file.path(), file.lengthBytes());
    ManifestFile previous = candidate.entry();
    if (crc != previous.crc32c()) {
      return Optional.empty();
    }
    try {
      if (Files.size(candidate.object()) != previous.storedSizeBytes()) {
        LOG.warn(
            "Not reusing {}: its stored size is {} bytes, its manifest says {}; copying",
            candidate.object(),
            Files.size(candidate.object()),
            previous.storedSizeBytes());
        return Optional.empty();
      }
      Files.createLink(object, candidate.object());
    } catch (IOException | UnsupportedOperationException e) {
      LOG.debug("Could not link {} to {}; copying instead", object, candidate.object(), e);
      Files.deleteIfExists(object);
      return Optional.empty();
    }
    var entry =
        new ManifestFile(
            file.name(),
            previous.sizeBytes(),
            previous.crc32c(),
            previous.storedSizeBytes(),
            previous.compression());
    return Optional.of(new StoredFile(entry, object, true));
  }

  private StoredFile copy(BackupIdentifier id, BackupFile file, Path object) throws IOException {
    Path tempDir = Files.createDirectories(layout.tempDirectory(id));
    Path temp = tempDir.resolve(tempCounter.incrementAndGet() + ".part");
    EncodedContent encoded;
    try (FileChannel channel =
        FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      if (policy.choose(file.lengthBytes()) == Compression.NONE
          && Files.isRegularFile(file.path())) {
        encoded = transfer.copy(file.path(), file.lengthBytes(), channel);
      } else {
        OutputStream out = new ThrottledOutputStream(Channels.newOutputStream(channel), limiter);
        encoded = ContentEncoder.encode(file.path(), file.lengthBytes(), policy, out);
      }
      // Durable before the manifest can say COMPLETED; directories are synced once per save.
      channel.force(true);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
    Files.move(temp, object, StandardCopyOption.ATOMIC_MOVE);
    var entry =
        new ManifestFile(
            file.name(),
            encoded.sizeBytes(),
            encoded.crc32c(),
            encoded.storedSizeBytes(),
            encoded.compression());
    return new StoredFile(entry, object, false);
  }
}
