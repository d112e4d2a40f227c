package io.cairn.backupfs.content;

import io.cairn.backupapi.Compression;
import io.cairn.backupapi.FileProblem;
import io.cairn.backupapi.FileProblemKind;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.content.ContentDecoder;
import io.cairn.backupapi.content.Crc32c;
import io.cairn.backupapi.content.DecodedContent;
import io.cairn.backupapi.manifest.ManifestFile;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongConsumer;

/**
 * Checks one stored object against its manifest entry — exists, stored size, decodes, size, CRC32C
 * — optionally writing the decoded content to a sink or, kernel-side where the object is stored as
 * is, to a file (restore). Every problem with the stored object is returned as a {@link
 * FileProblem}; a failure to write to the sink is thrown as {@link SinkException} so it is never
 * mistaken for a bad backup.
 */
public final class ContentChecker {

  /** Writing restored content failed (the target, not the backup, is the problem). */
  public static final class SinkException extends UncheckedIOException {
    SinkException(IOException cause) {
      super(cause.getMessage(), cause);
    }
  }

  private ContentChecker() {}

  public static Optional<FileProblem> check(
      FileSetKind kind, ManifestFile entry, Path object, OutputStream sink, LongConsumer progress) {
    return check(kind, entry, object, sink, null, progress);
  }

  /**
   * Restores one stored object into {@code target} with every check of {@link #check}: an
   * uncompressed object whose stored size is the recorded size is copied kernel-side and its CRC32C
   * computed over the bytes read back from {@code target} ({@link RestoreTransfer}); any other is
   * decoded through a stream.
   *
   * @param target open for reading and writing, empty; the caller forces and closes it
   * @return the problem with the stored object, if any (the target then holds a partial copy)
   * @throws SinkException if writing the target failed
   */
  public static Optional<FileProblem> restore(
      FileSetKind kind,
      ManifestFile entry,
      Path object,
      FileChannel target,
      LongConsumer progress) {
    return check(kind, entry, object, null, target, progress);
  }

  private static Optional<FileProblem> check(
      FileSetKind kind,
      ManifestFile entry,
      Path object,
      OutputStream sink,
      FileChannel target,
      LongConsumer progress) {
    long storedSize;
    try {
      storedSize = Files.size(object);
    } catch (NoSuchFileException e) {
      return problem(
          kind,
          entry,
          FileProblemKind.MISSING,
          OptionalLong.empty(),
          null,
          "the stored object " + object + " does not exist");
    } catch (IOException e) {
      return problem(
          kind,
          entry,
          FileProblemKind.UNREADABLE,
          OptionalLong.empty(),
          null,
          "cannot read " + object + ": " + e);
    }
    OptionalLong stored = OptionalLong.of(storedSize);
    if (storedSize < entry.storedSizeBytes()) {
      return problem(
          kind,
          entry,
          FileProblemKind.TRUNCATED,
          stored,
          null,
          "the stored object " + object + " is shorter than recorded");
    }
    if (storedSize > entry.storedSizeBytes()) {
      return problem(
          kind,
          entry,
          FileProblemKind.SIZE_MISMATCH,
          stored,
          null,
          "the stored object " + object + " is longer than recorded");
    }
    DecodedContent decoded;
    boolean kernelCopy =
        target != null
            && entry.compression() == Compression.NONE
            && storedSize == entry.sizeBytes();
    try (InputStream in = kernelCopy ? null : Files.newInputStream(object)) {
      if (kernelCopy) {
        decoded = RestoreTransfer.copy(object, entry.sizeBytes(), target, progress);
      } else {
        OutputStream out = target != null ? Channels.newOutputStream(target) : sink;
        OutputStream guarded = out == null ? null : new GuardedSink(out);
        decoded =
            ContentDecoder.decode(in, entry.compression(), guarded, entry.sizeBytes(), progress);
      }
    } catch (SinkException e) {
      throw e;
    } catch (NoSuchFileException e) {
      return problem(
          kind,
          entry,
          FileProblemKind.MISSING,
          OptionalLong.empty(),
          null,
          "the stored object " + object + " disappeared while being read");
    } catch (IOException e) {
      return problem(
          kind,
          entry,
          FileProblemKind.UNREADABLE,
          stored,
          null,
          "cannot decode " + object + " as " + entry.compression().manifestName() + ": " + e);
    }
    if (decoded.exceededLimit() || decoded.sizeBytes() != entry.sizeBytes()) {
      return problem(
          kind,
          entry,
          FileProblemKind.SIZE_MISMATCH,
          stored,
          decoded,
          "the content of " + object + " has another size than recorded");
    }
    if (decoded.crc32c() != entry.crc32c()) {
      return problem(
          kind,
          entry,
          FileProblemKind.CHECKSUM_MISMATCH,
          stored,
          decoded,
          "the content of " + object + " has another CRC32C than recorded");
    }
    return Optional.empty();
  }

  private static Optional<FileProblem> problem(
      FileSetKind kind,
      ManifestFile entry,
      FileProblemKind problemKind,
      OptionalLong storedSize,
      DecodedContent decoded,
      String detail) {
    return Optional.of(
        new FileProblem(
            kind,
            entry.name(),
            problemKind,
            entry.sizeBytes(),
            entry.storedSizeBytes(),
            entry.crc32cHex(),
            storedSize,
            decoded == null ? OptionalLong.empty() : OptionalLong.of(decoded.sizeBytes()),
            decoded == null ? Optional.empty() : Optional.of(Crc32c.toHex(decoded.crc32c())),
            detail));
  }

  private static final class GuardedSink extends FilterOutputStream {
    GuardedSink(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      try {
        out.write(b, off, len);
      } catch (IOException e) {
        throw new SinkException(e);
      }
    }

    @Override
    public void write(int b) {
      try {
        out.write(b);
      } catch (IOException e) {
        throw new SinkException(e);
      }
    }
  }
}
