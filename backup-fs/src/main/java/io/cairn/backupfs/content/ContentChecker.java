package io.cairn.backupfs.content;

import io.cairn.backupapi.Compression;
import io.cairn.backupapi.FileProblem;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.content.ContentCipher;
import io.cairn.backupapi.content.ContentDecoder;
import io.cairn.backupapi.content.DecodedContent;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backupstore.ContentProblems;
import io.cairn.backupstore.ContentProblems.SinkException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * Checks one stored object against its manifest entry — exists, stored size, decodes, size, CRC32C
 * — optionally writing the decoded content to a sink or, kernel-side where the object is stored as
 * is, to a file (restore). Every problem with the stored object is returned as a {@link
 * FileProblem}; a failure to write to the sink is thrown as {@link SinkException} so it is never
 * mistaken for a bad backup. The judgement and its wording are {@link ContentProblems}'.
 */
public final class ContentChecker {

  private ContentChecker() {}

  public static Optional<FileProblem> check(
      FileSetKind kind,
      ManifestFile entry,
      ContentCipher cipher,
      Path object,
      OutputStream sink,
      LongConsumer progress) {
    return check(kind, entry, cipher, object, sink, null, progress);
  }

  /**
   * Restores one stored object into {@code target} with every check of {@link #check}: an
   * uncompressed, unencrypted object whose stored size is the recorded size is copied kernel-side
   * and its CRC32C computed over the bytes read back from {@code target} ({@link RestoreTransfer});
   * any other is decoded through a stream.
   *
   * @param target open for reading and writing, empty; the caller forces and closes it
   * @return the problem with the stored object, if any (the target then holds a partial copy)
   * @throws SinkException if writing the target failed
   */
  public static Optional<FileProblem> restore(
      FileSetKind kind,
      ManifestFile entry,
      ContentCipher cipher,
      Path object,
      FileChannel target,
      LongConsumer progress) {
    return check(kind, entry, cipher, object, null, target, progress);
  }

  private static Optional<FileProblem> check(
      FileSetKind kind,
      ManifestFile entry,
      ContentCipher cipher,
      Path object,
      OutputStream sink,
      FileChannel target,
      LongConsumer progress) {
    var problems = new ContentProblems(kind, entry, object.toString());
    long storedSize;
    try {
      storedSize = Files.size(object);
    } catch (NoSuchFileException e) {
      return problems.missing();
    } catch (IOException e) {
      return problems.unreadable(e);
    }
    Optional<FileProblem> sized = problems.checkStoredSize(storedSize);
    if (sized.isPresent()) {
      return sized;
    }
    DecodedContent decoded;
    boolean kernelCopy =
        target != null
            && entry.compression() == Compression.NONE
            && !cipher.encrypts()
            && storedSize == entry.sizeBytes();
    try (InputStream in = kernelCopy ? null : Files.newInputStream(object)) {
      if (kernelCopy) {
        decoded = RestoreTransfer.copy(object, entry.sizeBytes(), target, progress);
      } else {
        OutputStream out = target != null ? Channels.newOutputStream(target) : sink;
        decoded =
            ContentDecoder.decode(
                in,
                entry.compression(),
                cipher,
                ContentProblems.guard(out),
                entry.sizeBytes(),
                progress);
      }
    } catch (SinkException e) {
      throw e;
    } catch (NoSuchFileException e) {
      return problems.disappeared();
    } catch (IOException e) {
      return problems.undecodable(storedSize, e);
    }
    return problems.checkDecoded(storedSize, decoded);
  }
}
