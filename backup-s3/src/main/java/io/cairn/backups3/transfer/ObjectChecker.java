package io.cairn.backups3.transfer;

import io.cairn.backupapi.FileProblem;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.content.ContentCipher;
import io.cairn.backupapi.content.ContentDecoder;
import io.cairn.backupapi.content.DecodedContent;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backups3.S3BackupStoreMetrics.TransferTimer;
import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3RequestException;
import io.cairn.backups3.transfer.RangedObjectReader.ObjectChangedException;
import io.cairn.backupstore.ContentProblems;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;
import java.util.function.LongConsumer;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * Checks one stored object against its manifest entry — exists, stored size, decodes, size, CRC32C
 * — optionally writing the decoded content to a sink (restore). A problem with the stored object is
 * returned as a {@link FileProblem} worded by {@link ContentProblems}; a failure to write the sink
 * is thrown as {@link ContentProblems.SinkException}, and a store that cannot be reached (after
 * retries) as the request's exception, so neither is ever mistaken for a bad backup.
 */
public final class ObjectChecker {

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
      ContentCipher cipher,
      String key,
      OutputStream sink,
      LongConsumer progress,
      boolean throttled) {
    S3Access s3 = transfers.s3();
    String url = s3.url(key);
    var problems = new ContentProblems(kind, entry, url);
    Optional<HeadObjectResponse> head = s3.headIfExists(key);
    if (head.isEmpty()) {
      return problems.missing();
    }
    long storedSize = head.get().contentLength();
    Optional<FileProblem> sized = problems.checkStoredSize(storedSize);
    if (sized.isPresent()) {
      return sized;
    }
    TransferTimer timer = s3.metrics().startTransfer("download");
    boolean success = false;
    DecodedContent decoded;
    try (var in =
        new RangedObjectReader(transfers, key, storedSize, head.get().eTag(), throttled)) {
      decoded =
          ContentDecoder.decode(
              in,
              entry.compression(),
              cipher,
              ContentProblems.guard(sink),
              entry.sizeBytes(),
              progress);
      success = true;
    } catch (ObjectChangedException e) {
      return problems.unreadable(storedSize, e.getMessage());
    } catch (S3RequestException e) {
      if (e.isNotFound()) {
        return problems.disappeared();
      }
      throw e;
    } catch (IOException e) {
      return problems.undecodable(storedSize, e);
    } finally {
      timer.stop(success);
    }
    return problems.checkDecoded(storedSize, decoded);
  }
}
