package io.cairn.backups3.client;

import io.cairn.backups3.S3BackupStoreMetrics;
import io.cairn.backups3.layout.S3ObjectLayout;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Error;

/**
 * What every part of the store needs to talk to the bucket: the client, the key layout, the
 * retrying call runner, the SSE-C key if any, whether to send {@code Content-MD5}, the object lock
 * headers if any, and metrics. Every request that creates an object is built here ({@link #put},
 * {@link #createUpload}, {@link #copy}), so none misses the SSE-C key or the lock.
 */
public record S3Access(
    S3AsyncClient client,
    S3ObjectLayout layout,
    S3Calls calls,
    Optional<SseCustomerKey> sseCustomerKey,
    boolean legacyMd5,
    Optional<ObjectLockHeaders> objectLock,
    S3BackupStoreMetrics metrics) {

  public String bucket() {
    return layout.bucket();
  }

  public String url(String key) {
    return layout.url(key);
  }

  /** A PutObject of a store object: with the SSE-C key and the object lock, if configured. */
  public PutObjectRequest.Builder put(String key) {
    PutObjectRequest.Builder b = putProbe(key);
    objectLock.ifPresent(lock -> lock.apply(b));
    return b;
  }

  /**
   * A PutObject of a probe object, which the startup check deletes again: with the SSE-C key but
   * never locked, so that probes do not pile up as locked versions.
   */
  public PutObjectRequest.Builder putProbe(String key) {
    PutObjectRequest.Builder b = PutObjectRequest.builder().bucket(bucket()).key(key);
    sseCustomerKey.ifPresent(k -> k.apply(b));
    return b;
  }

  /** A CreateMultipartUpload of a store object, like {@link #put}. */
  public CreateMultipartUploadRequest.Builder createUpload(String key) {
    CreateMultipartUploadRequest.Builder b =
        CreateMultipartUploadRequest.builder()
            .bucket(bucket())
            .key(key)
            .contentType("application/octet-stream");
    sseCustomerKey.ifPresent(k -> k.apply(b));
    objectLock.ifPresent(lock -> lock.apply(b));
    return b;
  }

  /** A CopyObject inside the bucket, like {@link #put}. */
  public CopyObjectRequest.Builder copy(String sourceKey, String targetKey) {
    CopyObjectRequest.Builder b =
        CopyObjectRequest.builder()
            .sourceBucket(bucket())
            .sourceKey(sourceKey)
            .destinationBucket(bucket())
            .destinationKey(targetKey);
    sseCustomerKey.ifPresent(k -> k.apply(b));
    objectLock.ifPresent(lock -> lock.apply(b));
    return b;
  }

  public GetObjectRequest.Builder get(String key) {
    GetObjectRequest.Builder b = GetObjectRequest.builder().bucket(bucket()).key(key);
    sseCustomerKey.ifPresent(k -> k.apply(b));
    return b;
  }

  /** The object's metadata; fails with an {@link S3RequestException} (404 when missing). */
  public HeadObjectResponse head(String key) {
    return S3Calls.await(headAsync(key), "HeadObject of " + url(key));
  }

  /** {@link #head} without waiting. */
  public CompletableFuture<HeadObjectResponse> headAsync(String key) {
    return calls.call(
        "HeadObject",
        url(key),
        () -> {
          HeadObjectRequest.Builder b = HeadObjectRequest.builder().bucket(bucket()).key(key);
          sseCustomerKey.ifPresent(k -> k.apply(b));
          return client.headObject(b.build());
        });
  }

  /** The object's metadata, or empty when it does not exist. */
  public Optional<HeadObjectResponse> headIfExists(String key) {
    try {
      return Optional.of(head(key));
    } catch (S3RequestException e) {
      if (e.isNotFound()) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /**
   * One {@code ListObjectsV2} page of the keys under {@code prefix}.
   *
   * @param continuation the previous page's token, or null
   * @param startAfter the key to list after, or null; used only without a continuation token
   */
  public ListObjectsV2Response list(
      String prefix, int maxKeys, String continuation, String startAfter) {
    return calls.join(
        "ListObjectsV2",
        url(prefix),
        () -> {
          ListObjectsV2Request.Builder b =
              ListObjectsV2Request.builder().bucket(bucket()).prefix(prefix).maxKeys(maxKeys);
          if (continuation != null) {
            b.continuationToken(continuation);
          } else if (startAfter != null) {
            b.startAfter(startAfter);
          }
          return client.listObjectsV2(b.build());
        });
  }

  /** Deletes {@code key} (its current version); succeeds when there is none. */
  public void delete(String key) {
    calls.join(
        "DeleteObject", url(key), () -> client.deleteObject(r -> r.bucket(bucket()).key(key)));
  }

  /**
   * Deletes {@code keys} (at most 1000, S3's limit) with one {@code DeleteObjects} call.
   *
   * @param where names the keys in messages (their common prefix)
   * @return the keys the server refused to delete, with its reasons; a key that is already gone is
   *     not refused
   */
  public List<S3Error> deleteAll(String where, List<String> keys) {
    List<ObjectIdentifier> objects =
        keys.stream().map(key -> ObjectIdentifier.builder().key(key).build()).toList();
    DeleteObjectsResponse response =
        calls.join(
            "DeleteObjects",
            url(where),
            () ->
                client.deleteObjects(
                    r -> r.bucket(bucket()).delete(d -> d.objects(objects).quiet(true))));
    return response.errors().stream().filter(e -> !"NoSuchKey".equals(e.code())).toList();
  }

  /** Deletes one version (or delete marker) of {@code key}, on a versioned bucket. */
  public void deleteVersion(String key, String versionId) {
    calls.join(
        "DeleteObject",
        url(key),
        () -> client.deleteObject(r -> r.bucket(bucket()).key(key).versionId(versionId)));
  }

  /** Base64 MD5 of a buffer region, for {@code Content-MD5}. */
  public static String md5Base64(byte[] bytes, int offset, int length) {
    try {
      MessageDigest md5 = MessageDigest.getInstance("MD5");
      md5.update(bytes, offset, length);
      return Base64.getEncoder().encodeToString(md5.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Expected the JDK to provide MD5", e);
    }
  }
}
