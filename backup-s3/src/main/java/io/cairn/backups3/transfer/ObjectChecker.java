package io.cairn.backups3.transfer;

import io.cairn.backupapi.FileProblem;
import io.cairn.backupapi.FileProblemKind;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.content.ContentDecoder;
import io.cairn.backupapi.content.Crc32c;
import io.cairn.backupapi.content.DecodedContent;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backups3.S3BackupStoreMetrics.TransferTimer;
import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3RequestException;
import io.cairn.backups3.transfer.RangedObjectReader.ObjectChangedException;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongConsumer;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * Checks one stored object against its manifest entry — exists, stored size, decodes, size, CRC32C
 * — optionally writing the decoded content to a sink (restore). A problem with the stored object is
 * returned as a {@link FileProblem}; a failure to write the sink is thrown as {@link
 * SinkException}, and a store that cannot be reached (after retries) as the request's exception, so
 * neither is ever mistaken for a bad backup.
 */
public final class ObjectChecker {

  /** Writing restored content failed (the target, not the backup, is the problem). */
  public static final class SinkException extends UncheckedIOException {
    SinkException(IOException cause) {
      super(cause.getMessage(), cause);
    }
  }

  private final Transfers transfers;

  public ObjectChecker(Transfers transfers) {
    this.transfers = transfers;
  }

  /**
   * @param sink receives the decoded content, or null to only check it
   * @param throttled whether the download counts against the bytes/s limit
   */
  public Optional<FileProblem> check(
      FileSetKind kind,
      ManifestFile entry,
      String key,
      OutputStream sink,
      LongConsumer progress,
      boolean throttled) {
    S3Access s3 = transfers.s3();
    String url = s3.url(key);
    Optional<HeadObjectResponse> head = s3.headIfExists(key);
    if (head.isEmpty()) {
      return problem(
          kind,
          entry,
          FileProblemKind.MISSING,
          OptionalLong.empty(),
          null,
          "the stored object " + url + " does not exist");
    }
    long storedSize = head.get().contentLength();
    OptionalLong stored = OptionalLong.of(storedSize);
    if (storedSize < entry.storedSizeBytes()) {
      return problem(
          kind,
          entry,
          FileProblemKind.TRUNCATED,
          stored,
          null,
          "the stored object " + url + " is shorter than recorded");
    }
    if (storedSize > entry.storedSizeBytes()) {
      return problem(
          kind,
          entry,
          FileProblemKind.SIZE_MISMATCH,
          stored,
          null,
          "the stored object " + url + " is longer than recorded");
    }
    TransferTimer timer = s3.metrics().startTransfer("download");
    boolean success = false;
    DecodedContent decoded;
    try (var in =
        new RangedObjectReader(transfers, key, storedSize, head.get().eTag(), throttled)) {
      OutputStream guarded = sink == null ? null : new GuardedSink(sink);
      decoded =
          ContentDecoder.decode(in, entry.compression(), guarded, entry.sizeBytes(), progress);
      success = true;
    } catch (ObjectChangedException e) {
      return problem(kind, entry, FileProblemKind.UNREADABLE, stored, null, e.getMessage());
    } catch (S3RequestException e) {
      if (e.isNotFound()) {
        return problem(
            kind,
            entry,
            FileProblemKind.MISSING,
            OptionalLong.empty(),
            null,
            "the stored object " + url + " disappeared while being read");
      }
      throw e;
    } catch (IOException e) {
      return problem(
          kind,
          entry,
          FileProblemKind.UNREADABLE,
          stored,
          null,
          "cannot decode " + url + " as " + entry.compression().manifestName() + ": " + e);
    } finally {
      timer.stop(success);
    }
    if (decoded.exceededLimit() || decoded.sizeBytes() != entry.sizeBytes()) {
      return problem(
          kind,
          entry,
          FileProblemKind.SIZE_MISMATCH,
          stored,
          decoded,
          "the content of " + url + " has another size than recorded");
    }
    if (decoded.crc32c() != entry.crc32c()) {
      return problem(
          kind,
          entry,
          FileProblemKind.CHECKSUM_MISMATCH,
          stored,
          decoded,
          "the content of " + url + " has another CRC32C than recorded");
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
