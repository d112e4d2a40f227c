package io.cairn.backupfs.content;

import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.Compression;
import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.backupapi.content.ContentCipher;
import io.cairn.backupapi.content.ContentEncoder;
import io.cairn.backupapi.content.EncodedContent;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backupfs.layout.StoreLayout;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores one file of a backup: either a hard link to an equal object of the previous backup, or a
 * copy of exactly its fixed length written to a temp file, fsynced and renamed into place. The
 * caller decides which, and fsyncs the directories afterwards, once for all files.
 *
 * <p>An uncompressed, unencrypted regular file is copied kernel-side ({@link FileTransfer}); a
 * compressed or encrypted one, or a source that is not a regular file (a pipe), is streamed through
 * {@link ContentEncoder}. Every byte written to the store passes the shared {@link WriteThrottle}
 * first. Thread-safe: several files of one save are stored at once.
 */
public final class ContentWriter {

  private static final Logger LOG = LoggerFactory.getLogger(ContentWriter.class);

  private static final int WRITE_BLOCK_BYTES = 1024 * 1024;

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

  /**
   * Links {@code previousObject}, the previous backup's object of {@code previous}, as {@code
   * object} if it still has its recorded stored size. Any failure (the previous backup deleted
   * meanwhile, no hard links on this filesystem) returns false: the caller copies instead.
   */
  public boolean link(Path previousObject, Path object, ManifestFile previous) throws IOException {
    Files.createDirectories(object.getParent());
    try {
      if (Files.size(previousObject) != previous.storedSizeBytes()) {
        LOG.warn(
            "Not reusing {}: its stored size is {} bytes, its manifest says {}; copying",
            previousObject,
            Files.size(previousObject),
            previous.storedSizeBytes());
        return false;
      }
      Files.createLink(object, previousObject);
    } catch (IOException | UnsupportedOperationException e) {
      LOG.debug("Could not link {} to {}; copying instead", object, previousObject, e);
      Files.deleteIfExists(object);
      return false;
    }
    return true;
  }

  /**
   * Copies exactly the file's fixed length into {@code object}, sealed by {@code cipher}, durably.
   */
  public EncodedContent copy(
      BackupIdentifier id, BackupFile file, Path object, ContentCipher cipher) throws IOException {
    Files.createDirectories(object.getParent());
    Path tempDir = Files.createDirectories(layout.tempDirectory(id));
    Path temp = tempDir.resolve(tempCounter.incrementAndGet() + ".part");
    EncodedContent encoded;
    try (FileChannel channel =
        FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      if (policy.choose(file.lengthBytes()) == Compression.NONE
          && !cipher.encrypts()
          && Files.isRegularFile(file.path())) {
        encoded = transfer.copy(file.path(), file.lengthBytes(), channel);
      } else {
        // Written in blocks of a MiB, not a write call per compressed block: the cipher hands
        // on its segments in such blocks itself.
        OutputStream stored = Channels.newOutputStream(channel);
        OutputStream out =
            new ThrottledOutputStream(
                cipher.encrypts() ? stored : new BufferedOutputStream(stored, WRITE_BLOCK_BYTES),
                limiter);
        encoded = ContentEncoder.encode(file.path(), file.lengthBytes(), policy, cipher, out);
      }
      // Durable before the manifest can say COMPLETED; directories are synced once per save.
      channel.force(true);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
    Files.move(temp, object, StandardCopyOption.ATOMIC_MOVE);
    return encoded;
  }
}
