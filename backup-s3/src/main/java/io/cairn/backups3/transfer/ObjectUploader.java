package io.cairn.backups3.transfer;

import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.backupapi.content.ContentCipher;
import io.cairn.backupapi.content.ContentEncoder;
import io.cairn.backupapi.content.EncodedContent;
import io.cairn.backups3.S3BackupStoreMetrics.TransferTimer;
import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3Calls;
import io.cairn.backups3.client.S3Errors;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * Uploads exactly the fixed length of a file (the active segment keeps growing: the length was
 * fixed when the backup was planned, and the file's size or mtime never matter), optionally
 * zstd-compressed and then encrypted ({@link ContentCipher}), computing its CRC32C on the way
 * ({@link ContentEncoder}). The encoded bytes are cut into parts of {@code partSizeBytes}: a file
 * that fits in one part is one {@code PutObject}; a larger one is a multipart upload: the file is
 * read in order (so the CRC32C is that of the bytes read) while up to {@code
 * maxConcurrentTransfers} of its parts are sent, each holding one of the permits shared by every
 * transfer of the store, and each retried on its own. Every request body is a buffer in memory, so
 * a retried request resends exactly the same bytes. A failed upload is aborted.
 */
public final class ObjectUploader {

  private static final Logger LOG = LoggerFactory.getLogger(ObjectUploader.class);

  private final Transfers transfers;

  public ObjectUploader(Transfers transfers) {
    this.transfers = transfers;
  }

  /**
   * Stores {@code file}'s first {@code lengthBytes} under {@code key}.
   *
   * @throws IOException if the file cannot be read or is shorter than its fixed length
   * @throws io.cairn.backups3.client.S3RequestException if the store refuses it for good
   */
  public EncodedContent upload(
      BackupFile file, String key, CompressionPolicy policy, ContentCipher cipher)
      throws IOException {
    TransferTimer timer = transfers.s3().metrics().startTransfer("upload");
    var out = new PartStream(key);
    boolean success = false;
    try {
      EncodedContent encoded =
          ContentEncoder.encode(file.path(), file.lengthBytes(), policy, cipher, out);
      out.finish();
      if (out.sentBytes != encoded.storedSizeBytes()) {
        throw new IllegalStateException(
            "Expected to send "
                + encoded.storedSizeBytes()
                + " bytes of "
                + key
                + ", but sent "
                + out.sentBytes);
      }
      success = true;
      return encoded;
    } finally {
      if (!success) {
        out.abort();
      }
      timer.stop(success);
    }
  }

  /** One part sent and its completion. */
  private record PartInFlight(int number, CompletableFuture<CompletedPart> request) {}

  /** Buffers encoded bytes into parts and sends them. */
  private final class PartStream extends OutputStream {
    private final S3Access s3;
    private final String key;
    private final int partSize;
    private byte[] buffer;
    private int filled;
    private String uploadId;
    private final List<CompletedPart> parts = new ArrayList<>();

    /** Parts sent and not yet collected, in part-number order. */
    private final ArrayDeque<PartInFlight> inFlight = new ArrayDeque<>();

    private final int maxPartsInFlight;
    private int partsStarted;
    private long sentBytes;
    private boolean failed;

    PartStream(String key) {
      this.s3 = transfers.s3();
      this.key = key;
      this.partSize = (int) Math.min(Integer.MAX_VALUE - 16, transfers.partSizeBytes());
      // Small files never need a full part: grow the first buffer on demand.
      this.buffer = new byte[Math.min(partSize, 64 * 1024)];
      this.maxPartsInFlight = transfers.maxConcurrent();
    }

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      if (failed) {
        return; // the encoder's cleanup after a failure; nothing more is sent
      }
      try {
        int done = 0;
        while (done < length) {
          if (filled == partSize) {
            sendPart();
          }
          ensureCapacity(Math.min(partSize, filled + (length - done)));
          int n = Math.min(length - done, partSize - filled);
          System.arraycopy(bytes, offset + done, buffer, filled, n);
          filled += n;
          done += n;
        }
      } catch (RuntimeException e) {
        failed = true;
        throw e;
      }
    }

    @Override
    public void flush() {
      // Parts are sent when full or at finish(); a flush must not cut a short part.
    }

    private void ensureCapacity(int needed) {
      if (needed > buffer.length) {
        int size = (int) Math.min(partSize, Math.max(needed, 2L * buffer.length));
        byte[] larger = new byte[size];
        System.arraycopy(buffer, 0, larger, 0, filled);
        buffer = larger;
      }
    }

    /**
     * Sends the full buffer as the next part. Up to {@code maxConcurrentTransfers} parts of this
     * file may be in flight at once; every one of them holds one of the shared permits, so the
     * bound on content requests of the whole store is unchanged.
     */
    private void sendPart() {
      if (uploadId == null) {
        createUpload();
      }
      startPart(buffer, filled);
      buffer = new byte[partSize];
      filled = 0;
    }

    private void startPart(byte[] body, int length) {
      collectDone();
      while (inFlight.size() >= maxPartsInFlight) {
        collect(inFlight.removeFirst());
      }
      int partNumber = ++partsStarted;
      inFlight.addLast(uploadPart(partNumber, body, length));
      sentBytes += length;
    }

    /** Collects parts already acknowledged, so their buffers are released early. */
    private void collectDone() {
      for (var it = inFlight.iterator(); it.hasNext(); ) {
        PartInFlight part = it.next();
        if (part.request().isDone()) {
          it.remove();
          collect(part);
        }
      }
    }

    private void collect(PartInFlight part) {
      parts.add(
          S3Calls.await(part.request(), "UploadPart " + part.number() + " of " + s3.url(key)));
    }

    void finish() {
      if (uploadId == null) {
        putObject();
        return;
      }
      if (filled > 0) {
        startPart(buffer, filled);
        filled = 0;
      }
      buffer = null;
      while (!inFlight.isEmpty()) {
        collect(inFlight.removeFirst());
      }
      List<CompletedPart> completed =
          parts.stream().sorted(Comparator.comparing(CompletedPart::partNumber)).toList();
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
                        .multipartUpload(
                            CompletedMultipartUpload.builder().parts(completed).build());
                s3.sseCustomerKey().ifPresent(k -> k.apply(b));
                return s3.client().completeMultipartUpload(b.build());
              });
      uploadId = null;
    }

    private void putObject() {
      byte[] body = buffer;
      int length = filled;
      transfers.throttle(length);
      CompletableFuture<?> put =
          transfers.start(
              () ->
                  s3.calls()
                      .callTracked(
                          "PutObject",
                          s3.url(key),
                          () -> {
                            PutObjectRequest.Builder b =
                                s3.put(key)
                                    .contentLength((long) length)
                                    .contentType("application/octet-stream");
                            if (s3.legacyMd5()) {
                              b.contentMD5(S3Access.md5Base64(body, 0, length));
                            }
                            return s3.client()
                                .putObject(
                                    b.build(),
                                    AsyncRequestBody.fromRemainingByteBufferUnsafe(
                                        ByteBuffer.wrap(body, 0, length)));
                          }));
      S3Calls.await(put, "PutObject of " + s3.url(key));
      sentBytes += length;
      s3.metrics().uploaded(length);
    }

    private void createUpload() {
      uploadId =
          s3.calls()
              .join(
                  "CreateMultipartUpload",
                  s3.url(key),
                  () -> {
                    CreateMultipartUploadRequest.Builder b = s3.createUpload(key);
                    if (!s3.legacyMd5()) {
                      b.checksumAlgorithm(ChecksumAlgorithm.CRC32);
                    }
                    return s3.client().createMultipartUpload(b.build());
                  })
              .uploadId();
    }

    private PartInFlight uploadPart(int partNumber, byte[] body, int length) {
      transfers.throttle(length);
      String id = uploadId;
      CompletableFuture<UploadPartResponse> call =
          transfers.start(
              () ->
                  s3.calls()
                      .callTracked(
                          "UploadPart",
                          s3.url(key),
                          () -> {
                            UploadPartRequest.Builder b =
                                UploadPartRequest.builder()
                                    .bucket(s3.bucket())
                                    .key(key)
                                    .uploadId(id)
                                    .partNumber(partNumber)
                                    .contentLength((long) length);
                            if (s3.legacyMd5()) {
                              b.contentMD5(S3Access.md5Base64(body, 0, length));
                            } else {
                              b.checksumAlgorithm(ChecksumAlgorithm.CRC32);
                            }
                            s3.sseCustomerKey().ifPresent(k -> k.apply(b));
                            return s3.client()
                                .uploadPart(
                                    b.build(),
                                    AsyncRequestBody.fromRemainingByteBufferUnsafe(
                                        ByteBuffer.wrap(body, 0, length)));
                          }));
      return new PartInFlight(
          partNumber,
          call.thenApply(
              response -> {
                s3.metrics().uploaded(length);
                return CompletedPart.builder()
                    .partNumber(partNumber)
                    .eTag(response.eTag())
                    .checksumCRC32(response.checksumCRC32())
                    .build();
              }));
    }

    /** Cancels what is in flight and aborts the multipart upload, if one was started. */
    void abort() {
      failed = true;
      // A request already on the wire keeps its permit until it ends, so the bound holds.
      inFlight.forEach(part -> part.request().cancel(true));
      inFlight.clear();
      if (uploadId == null) {
        return;
      }
      String id = uploadId;
      uploadId = null;
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
                                .uploadId(id)
                                .build()));
      } catch (RuntimeException e) {
        LOG.warn(
            "Could not abort the multipart upload of {} ({}); a bucket lifecycle rule that "
                + "aborts incomplete multipart uploads removes its parts",
            s3.url(key),
            S3Errors.describe(e));
      }
    }
  }
}
