package io.cairn.backups3;

import io.cairn.backups3.client.S3Access;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * The multipart upload and the ranged read of {@link S3StoreCheck}: plain SDK calls through the
 * store's {@link S3Access} (its retries, SSE-C key and checksum choice), without the object lock,
 * since the check deletes what it writes.
 */
final class S3MultipartProbe {

  private S3MultipartProbe() {}

  /** Uploads {@code parts} as one object at {@code key}. */
  static void upload(S3Access s3, String key, byte[]... parts) {
    String uploadId =
        s3.calls()
            .join(
                "CreateMultipartUpload",
                s3.url(key),
                () -> {
                  CreateMultipartUploadRequest.Builder b =
                      CreateMultipartUploadRequest.builder().bucket(s3.bucket()).key(key);
                  s3.sseCustomerKey().ifPresent(k -> k.apply(b));
                  return s3.client().createMultipartUpload(b.build());
                })
            .uploadId();
    try {
      List<CompletedPart> done = new ArrayList<>();
      for (int i = 0; i < parts.length; i++) {
        int number = i + 1;
        byte[] part = parts[i];
        String etag =
            s3.calls()
                .join(
                    "UploadPart",
                    s3.url(key),
                    () -> {
                      UploadPartRequest.Builder b =
                          UploadPartRequest.builder()
                              .bucket(s3.bucket())
                              .key(key)
                              .uploadId(uploadId)
                              .partNumber(number)
                              .contentLength((long) part.length);
                      if (s3.legacyMd5()) {
                        b.contentMD5(S3Access.md5Base64(part, 0, part.length));
                      }
                      s3.sseCustomerKey().ifPresent(k -> k.apply(b));
                      return s3.client().uploadPart(b.build(), AsyncRequestBody.fromBytes(part));
                    })
                .eTag();
        done.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
      }
      s3.calls()
          .join(
              "CompleteMultipartUpload",
              s3.url(key),
              () -> {
                CompleteMultipartUploadRequest.Builder b =
                    CompleteMultipartUploadRequest.builder()
                        .bucket(s3.bucket())
                        .key(key)
                        .uploadId(uploadId)
                        .multipartUpload(upload -> upload.parts(done));
                s3.sseCustomerKey().ifPresent(k -> k.apply(b));
                return s3.client().completeMultipartUpload(b.build());
              });
    } catch (RuntimeException e) {
      s3.client()
          .abortMultipartUpload(
              AbortMultipartUploadRequest.builder()
                  .bucket(s3.bucket())
                  .key(key)
                  .uploadId(uploadId)
                  .build());
      throw e;
    }
  }

  /** Bytes {@code from..to} (inclusive) of {@code key}. */
  static byte[] range(S3Access s3, String key, long from, long to) {
    return s3.calls()
        .join(
            "GetObject",
            s3.url(key),
            () ->
                s3.client()
                    .getObject(
                        s3.get(key).range("bytes=" + from + "-" + to).build(),
                        AsyncResponseTransformer.toBytes()))
        .asByteArrayUnsafe();
  }
}
