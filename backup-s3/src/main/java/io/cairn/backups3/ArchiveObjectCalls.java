package io.cairn.backups3;

import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3RequestException;
import io.cairn.scheduler.Futures;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.ReentrantLock;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The log archive's objects in the bucket, under {@code {basePath}/archive/}. A create is a {@code
 * PutObject} with {@code If-None-Match: *} where the server honours conditions (the server
 * arbitrates between writers in any process); a refused condition, or a write whose outcome is
 * unknown, is settled by reading the object back: the same bytes mean our write landed. Without
 * conditions it is read-check-write under a lock: atomic against this process's writers only, as
 * manifests are then; two leaders racing in the short overlap of a leader change could both write
 * one link, which a restore then reports as a break in the chain. Use a server with conditional
 * writes where that matters.
 */
final class ArchiveObjectCalls {

  private final S3Access s3;
  private final boolean conditional;
  private final ReentrantLock[] locks = new ReentrantLock[64];

  ArchiveObjectCalls(S3Access s3, boolean conditional) {
    this.s3 = s3;
    this.conditional = conditional;
    for (int i = 0; i < locks.length; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  String url(String key) {
    return s3.url(s3.layout().archiveKey(key));
  }

  /**
   * Creates of one key are serialised within this process in both modes: some servers (S3Mock
   * 5.2.0) check {@code If-None-Match} and write non-atomically, so two concurrent conditional puts
   * can both succeed there. Between processes the server's condition is all there is.
   */
  boolean create(String key, byte[] content) {
    ReentrantLock lock = locks[Math.floorMod(key.hashCode(), locks.length)];
    lock.lock();
    try {
      return conditional ? createConditionally(key, content) : createIfRead(key, content);
    } finally {
      lock.unlock();
    }
  }

  private boolean createIfRead(String key, byte[] content) {
    if (read(key).isPresent()) {
      return false;
    }
    put(key, content);
    return true;
  }

  private boolean createConditionally(String key, byte[] content) {
    try {
      put(key, content);
      return true;
    } catch (S3RequestException e) {
      if (e.isPreconditionFailed() || e.isTransient()) {
        Optional<byte[]> stored;
        try {
          stored = read(key);
        } catch (RuntimeException readFailed) {
          e.addSuppressed(readFailed);
          throw e;
        }
        if (stored.isPresent()) {
          return Arrays.equals(stored.get(), content);
        }
      }
      throw e;
    }
  }

  private void put(String key, byte[] content) {
    String objectKey = s3.layout().archiveKey(key);
    s3.calls()
        .join(
            "PutObject",
            s3.url(objectKey),
            () -> {
              PutObjectRequest.Builder b = s3.put(objectKey).contentLength((long) content.length);
              if (conditional) {
                b.ifNoneMatch("*");
              }
              if (s3.legacyMd5()) {
                b.contentMD5(S3Access.md5Base64(content, 0, content.length));
              }
              return s3.client().putObject(b.build(), AsyncRequestBody.fromBytes(content));
            });
  }

  Optional<byte[]> read(String key) {
    String objectKey = s3.layout().archiveKey(key);
    try {
      return Optional.of(
          s3.calls()
              .join(
                  "GetObject",
                  s3.url(objectKey),
                  () ->
                      s3.client()
                          .getObject(s3.get(objectKey).build(), AsyncResponseTransformer.toBytes()))
              .asByteArray());
    } catch (S3RequestException e) {
      if (e.isNotFound()) {
        return Optional.empty();
      }
      throw e;
    } catch (CompletionException e) {
      Throwable cause = Futures.unwrap(e);
      if (cause instanceof S3RequestException s && s.isNotFound()) {
        return Optional.empty();
      }
      throw e;
    }
  }

  List<String> list(String directory, String startAfter, int limit) {
    String prefix = s3.layout().archiveKey(directory);
    String after = startAfter == null ? null : s3.layout().archiveKey(startAfter);
    ListObjectsV2Response page = s3.list(prefix, limit, null, after);
    return page.contents().stream()
        .map(S3Object::key)
        .filter(key -> key.indexOf('/', prefix.length()) < 0)
        .map(key -> directory + key.substring(prefix.length()))
        .toList();
  }

  void delete(String key) {
    s3.delete(s3.layout().archiveKey(key));
  }
}
