package io.cairn.backups3.transfer;

import io.cairn.backups3.S3BackupStoreMetrics.TransferTimer;
import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3Calls;
import io.cairn.backups3.client.S3Errors;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;
import software.amazon.awssdk.services.s3.model.UploadPartCopyResponse;

/**
 * Copies an object server-side (incremental backups reuse the previous backup's unchanged files):
 * {@code CopyObject} for an object of at most one part, a multipart copy of {@code UploadPartCopy}
 * ranges for a larger one. No content crosses the network; each backup keeps its own object, so
 * deleting either backup never breaks the other.
 */
public final class ObjectCopier {

  private static final Logger LOG = LoggerFactory.getLogger(ObjectCopier.class);

  private final Transfers transfers;

  public ObjectCopier(Transfers transfers) {
    this.transfers = transfers;
  }

  /**
   * Copies {@code sourceKey} (of {@code sizeBytes}) to {@code targetKey}.
   *
   * @throws io.cairn.backups3.client.S3RequestException if the store refuses it (404: the source is
   *     gone)
   */
  public void copy(String sourceKey, String targetKey, long sizeBytes) {
    S3Access s3 = transfers.s3();
    TransferTimer timer = s3.metrics().startTransfer("copy");
    boolean success = false;
    try {
      if (sizeBytes <= transfers.partSizeBytes()) {
        S3Calls.await(
            transfers.start(
                () ->
                    s3.calls()
                        .callTracked(
                            "CopyObject",
                            s3.url(targetKey),
                            () -> {
                              return s3.client().copyObject(s3.copy(sourceKey, targetKey).build());
                            })),
            "CopyObject to " + s3.url(targetKey));
      } else {
        copyInParts(s3, sourceKey, targetKey, sizeBytes);
      }
      s3.metrics().copied(sizeBytes);
      success = true;
    } finally {
      timer.stop(success);
    }
  }

  private void copyInParts(S3Access s3, String sourceKey, String targetKey, long sizeBytes) {
    String uploadId =
        s3.calls()
            .join(
                "CreateMultipartUpload",
                s3.url(targetKey),
                () -> {
                  return s3.client().createMultipartUpload(s3.createUpload(targetKey).build());
                })
            .uploadId();
    boolean completed = false;
    try {
      List<CompletedPart> parts = new ArrayList<>();
      long partSize = transfers.partSizeBytes();
      for (long first = 0; first < sizeBytes; first += partSize) {
        int partNumber = parts.size() + 1;
        String range = "bytes=" + first + "-" + (Math.min(sizeBytes, first + partSize) - 1);
        UploadPartCopyResponse response =
            S3Calls.await(
                transfers.start(
                    () ->
                        s3.calls()
                            .callTracked(
                                "UploadPartCopy",
                                s3.url(targetKey),
                                () -> {
                                  UploadPartCopyRequest.Builder b =
                                      UploadPartCopyRequest.builder()
                                          .sourceBucket(s3.bucket())
                                          .sourceKey(sourceKey)
                                          .destinationBucket(s3.bucket())
                                          .destinationKey(targetKey)
                                          .uploadId(uploadId)
                                          .partNumber(partNumber)
                                          .copySourceRange(range);
                                  s3.sseCustomerKey().ifPresent(k -> k.apply(b));
                                  return s3.client().uploadPartCopy(b.build());
                                })),
                "UploadPartCopy to " + s3.url(targetKey));
        parts.add(
            CompletedPart.builder()
                .partNumber(partNumber)
                .eTag(response.copyPartResult().eTag())
                .build());
      }
      s3.calls()
          .join(
              "CompleteMultipartUpload",
              s3.url(targetKey),
              () -> {
                CompleteMultipartUploadRequest.Builder b =
                    CompleteMultipartUploadRequest.builder()
                        .bucket(s3.bucket())
                        .key(targetKey)
                        .uploadId(uploadId)
                        .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build());
                s3.sseCustomerKey().ifPresent(k -> k.apply(b));
                return s3.client().completeMultipartUpload(b.build());
              });
      completed = true;
    } finally {
      if (!completed) {
        abort(s3, targetKey, uploadId);
      }
    }
  }

  private static void abort(S3Access s3, String key, String uploadId) {
    try {
      s3.calls()
          .join(
              "AbortMultipartUpload",
              s3.url(key),
              () ->
                  s3.client()
                      .abortMultipartUpload(
                          AbortMultipartUploadRequest.builder()
                              .bucket(s3.bucket())
                              .key(key)
                              .uploadId(uploadId)
                              .build()));
    } catch (RuntimeException e) {
      LOG.warn(
          "Could not abort the multipart copy to {} ({}); a bucket lifecycle rule that "
              + "aborts incomplete multipart uploads removes its parts",
          s3.url(key),
          S3Errors.describe(e));
    }
  }
}
