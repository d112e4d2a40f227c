package io.cairn.backupstore;

import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.FileProblem;
import io.cairn.backupapi.FileProblemKind;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.VerificationReport;
import io.cairn.backupapi.content.Crc32c;
import io.cairn.backupapi.content.DecodedContent;
import io.cairn.backupapi.content.SegmentedCipher;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestFile;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How every store judges one stored object against its manifest entry — exists, stored size,
 * decodes, size, CRC32C — and words the {@link FileProblem}. A store reads the object its own way
 * and hands the facts here; {@code object} in each message is how the store names it (a path, an S3
 * URL).
 *
 * <p>A failure to write restored content is not a problem of the backup: a sink wrapped by {@link
 * #guard} throws {@link SinkException} for it, which the checks let through.
 */
public final class ContentProblems {

  private static final Logger LOG = LoggerFactory.getLogger(ContentProblems.class);

  /** Writing restored content failed (the target, not the backup, is the problem). */
  public static final class SinkException extends UncheckedIOException {
    public SinkException(IOException cause) {
      super(cause.getMessage(), cause);
    }
  }

  private final FileSetKind kind;
  private final ManifestFile entry;
  private final String object;

  /**
   * @param object how the store names the stored object in messages
   */
  public ContentProblems(FileSetKind kind, ManifestFile entry, String object) {
    this.kind = kind;
    this.entry = entry;
    this.object = object;
  }

  /** The object is not in the store. */
  public Optional<FileProblem> missing() {
    return problem(
        FileProblemKind.MISSING,
        OptionalLong.empty(),
        null,
        "the stored object " + object + " does not exist");
  }

  /** The object went away while it was being read. */
  public Optional<FileProblem> disappeared() {
    return problem(
        FileProblemKind.MISSING,
        OptionalLong.empty(),
        null,
        "the stored object " + object + " disappeared while being read");
  }

  /** Its size could not be read. */
  public Optional<FileProblem> unreadable(Throwable cause) {
    return problem(
        FileProblemKind.UNREADABLE,
        OptionalLong.empty(),
        null,
        "cannot read " + object + ": " + cause);
  }

  /** A stored size other than the recorded one, or empty. */
  public Optional<FileProblem> checkStoredSize(long storedSize) {
    if (storedSize < entry.storedSizeBytes()) {
      return problem(
          FileProblemKind.TRUNCATED,
          OptionalLong.of(storedSize),
          null,
          "the stored object " + object + " is shorter than recorded");
    }
    if (storedSize > entry.storedSizeBytes()) {
      return problem(
          FileProblemKind.SIZE_MISMATCH,
          OptionalLong.of(storedSize),
          null,
          "the stored object " + object + " is longer than recorded");
    }
    return Optional.empty();
  }

  /** The object of {@code storedSize} bytes could not be read whole; {@code detail} says why. */
  public Optional<FileProblem> unreadable(long storedSize, String detail) {
    return problem(FileProblemKind.UNREADABLE, OptionalLong.of(storedSize), null, detail);
  }

  /**
   * The object of {@code storedSize} bytes could not be decoded. One that fails authentication
   * (encrypted, and changed or under another key) is a checksum mismatch: its content is not the
   * recorded one.
   */
  public Optional<FileProblem> undecodable(long storedSize, Throwable cause) {
    if (cause instanceof SegmentedCipher.ObjectAuthenticationException) {
      return problem(
          FileProblemKind.CHECKSUM_MISMATCH,
          OptionalLong.of(storedSize),
          null,
          "the stored object " + object + " fails authentication: " + cause.getMessage());
    }
    return problem(
        FileProblemKind.UNREADABLE,
        OptionalLong.of(storedSize),
        null,
        "cannot decode " + object + " as " + entry.compression().manifestName() + ": " + cause);
  }

  /** Decoded content of another size or CRC32C than recorded, or empty. */
  public Optional<FileProblem> checkDecoded(long storedSize, DecodedContent decoded) {
    if (decoded.exceededLimit() || decoded.sizeBytes() != entry.sizeBytes()) {
      return problem(
          FileProblemKind.SIZE_MISMATCH,
          OptionalLong.of(storedSize),
          decoded,
          "the content of " + object + " has another size than recorded");
    }
    if (decoded.crc32c() != entry.crc32c()) {
      return problem(
          FileProblemKind.CHECKSUM_MISMATCH,
          OptionalLong.of(storedSize),
          decoded,
          "the content of " + object + " has another CRC32C than recorded");
    }
    return Optional.empty();
  }

  /**
   * The report of a verify that checked {@code files} objects of {@code manifest}'s backup; a
   * report with problems is logged once, naming every bad file.
   */
  public static VerificationReport report(
      Manifest manifest, int files, List<FileProblem> problems) {
    BackupDescriptor descriptor = manifest.descriptor().orElseThrow();
    var report =
        new VerificationReport(manifest.id(), descriptor, files, descriptor.sizeBytes(), problems);
    if (!report.isClean()) {
      LOG.warn(
          "Verification of backup {} found {} bad files: {}",
          manifest.id(),
          problems.size(),
          report.describe());
    }
    return report;
  }

  /** {@code out} whose write failures are {@link SinkException}s, or null for null. */
  public static OutputStream guard(OutputStream out) {
    return out == null ? null : new GuardedSink(out);
  }

  private Optional<FileProblem> problem(
      FileProblemKind problemKind, OptionalLong storedSize, DecodedContent decoded, String detail) {
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
