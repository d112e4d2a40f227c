package io.cairn.backups3.client;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * A customer-provided key (SSE-C) added to every request that writes or reads object content. The
 * key is never logged; {@link #toString()} hides it.
 */
public final class SseCustomerKey {

  private static final String ALGORITHM = "AES256";

  private final String keyBase64;
  private final String keyMd5Base64;

  private SseCustomerKey(String keyBase64, String keyMd5Base64) {
    this.keyBase64 = keyBase64;
    this.keyMd5Base64 = keyMd5Base64;
  }

  /** From the base64 of a 256-bit key (validated by the configuration). */
  public static SseCustomerKey of(String keyBase64) {
    byte[] key = Base64.getDecoder().decode(keyBase64);
    try {
      byte[] md5 = MessageDigest.getInstance("MD5").digest(key);
      return new SseCustomerKey(keyBase64, Base64.getEncoder().encodeToString(md5));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Expected the JDK to provide MD5", e);
    }
  }

  public PutObjectRequest.Builder apply(PutObjectRequest.Builder b) {
    return b.sseCustomerAlgorithm(ALGORITHM)
        .sseCustomerKey(keyBase64)
        .sseCustomerKeyMD5(keyMd5Base64);
  }

  public GetObjectRequest.Builder apply(GetObjectRequest.Builder b) {
    return b.sseCustomerAlgorithm(ALGORITHM)
        .sseCustomerKey(keyBase64)
        .sseCustomerKeyMD5(keyMd5Base64);
  }

  public HeadObjectRequest.Builder apply(HeadObjectRequest.Builder b) {
    return b.sseCustomerAlgorithm(ALGORITHM)
        .sseCustomerKey(keyBase64)
        .sseCustomerKeyMD5(keyMd5Base64);
  }

  public CreateMultipartUploadRequest.Builder apply(CreateMultipartUploadRequest.Builder b) {
    return b.sseCustomerAlgorithm(ALGORITHM)
        .sseCustomerKey(keyBase64)
        .sseCustomerKeyMD5(keyMd5Base64);
  }

  public UploadPartRequest.Builder apply(UploadPartRequest.Builder b) {
    return b.sseCustomerAlgorithm(ALGORITHM)
        .sseCustomerKey(keyBase64)
        .sseCustomerKeyMD5(keyMd5Base64);
  }

  public CompleteMultipartUploadRequest.Builder apply(CompleteMultipartUploadRequest.Builder b) {
    return b.sseCustomerAlgorithm(ALGORITHM)
        .sseCustomerKey(keyBase64)
        .sseCustomerKeyMD5(keyMd5Base64);
  }

  /** Source and destination are both encrypted with this key. */
  public CopyObjectRequest.Builder apply(CopyObjectRequest.Builder b) {
    return b.sseCustomerAlgorithm(ALGORITHM)
        .sseCustomerKey(keyBase64)
        .sseCustomerKeyMD5(keyMd5Base64)
        .copySourceSSECustomerAlgorithm(ALGORITHM)
        .copySourceSSECustomerKey(keyBase64)
        .copySourceSSECustomerKeyMD5(keyMd5Base64);
  }

  /** Source and destination are both encrypted with this key. */
  public UploadPartCopyRequest.Builder apply(UploadPartCopyRequest.Builder b) {
    return b.sseCustomerAlgorithm(ALGORITHM)
        .sseCustomerKey(keyBase64)
        .sseCustomerKeyMD5(keyMd5Base64)
        .copySourceSSECustomerAlgorithm(ALGORITHM)
        .copySourceSSECustomerKey(keyBase64)
        .copySourceSSECustomerKeyMD5(keyMd5Base64);
  }

  @Override
  public String toString() {
    return "SseCustomerKey{<redacted>}";
  }
}
