package io.cairn.backups3.testserver;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Object;

/** Plain, blocking object access for tests: what a store wrote, and tampering with it. */
public final class RawObjects {

  private final S3AsyncClient client;
  private final String bucket;

  public RawObjects(S3AsyncClient client, String bucket) {
    this.client = client;
    this.bucket = bucket;
  }

  public byte[] get(String key) {
    return join(client.getObject(
            GetObjectRequest.builder().bucket(bucket).key(key).build(),
            AsyncResponseTransformer.toBytes()))
        .asByteArray();
  }

  public void put(String key, byte[] bytes) {
    join(
        client.putObject(
            PutObjectRequest.builder()
                .bucket(bucket)
                .key(key)
                .contentLength((long) bytes.length)
                .build(),
            AsyncRequestBody.fromBytes(bytes)));
  }

  public void delete(String key) {
    join(client.deleteObject(DeleteObjectRequest.builder().bucket(bucket).key(key).build()));
  }

  /** Every key under {@code prefix} (at most 1000 are expected in tests). */
  public List<String> keys(String prefix) {
    return join(
            client.listObjectsV2(
                ListObjectsV2Request.builder().bucket(bucket).prefix(prefix).build()))
        .contents()
        .stream()
        .map(S3Object::key)
        .toList();
  }

  private static <T> T join(CompletableFuture<T> future) {
    try {
      return future.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("Expected the raw S3 request to succeed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("Expected the raw S3 request within 30 s", e);
    }
  }
}
