package io.cairn.backups3.manifest;

import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3RequestException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * What the store learns once, at start, by writing two small probe objects — by asking the server,
 * not by its name:
 *
 * <ol>
 *   <li>a plain write and a read-back (permissions; SSE-C when configured) — a failure is thrown;
 *   <li>a create with {@code If-None-Match: *} of a fresh key must succeed, a second one must fail
 *       with 412, and a write with {@code If-Match} of a wrong ETag must fail with 412. A server
 *       that accepts either second write ignores the condition; one that rejects the header (400,
 *       501) does not support it.
 * </ol>
 *
 * Both probe objects are deleted afterwards (with object lock, on a versioned bucket, every version
 * of them).
 */
public final class ConditionalWriteProbe {

  /** What the probe found. */
  public record Result(boolean ifNoneMatch, boolean ifMatch, String detail) {
    public boolean supported() {
      return ifNoneMatch && ifMatch;
    }
  }

  private static final String WRONG_ETAG = "\"00000000000000000000000000000000\"";

  private ConditionalWriteProbe() {}

  /** What a probe wrote and what the server gave back for it. */
  public record ReadBack(String url, byte[] written, byte[] read) {
    public boolean matches() {
      return Arrays.equals(written, read);
    }
  }

  /**
   * Writes and reads back a probe object; proves the store may write, read and delete objects (with
   * its SSE-C key, if one is configured).
   *
   * @param token unique to this store instance (the probe key's suffix)
   * @return the bytes written and read back, for the caller to compare
   * @throws S3RequestException if the server refuses any of it
   */
  public static ReadBack checkReadWrite(S3Access s3, String token) {
    String key = s3.layout().probeKey(token + "-rw");
    byte[] bytes = ("cairn probe " + token).getBytes(StandardCharsets.UTF_8);
    put(s3, key, bytes, Optional.empty(), Optional.empty(), false); // refused: nothing to remove
    try {
      byte[] read =
          s3.calls()
              .join(
                  "GetObject",
                  s3.url(key),
                  () ->
                      s3.client()
                          .getObject(s3.get(key).build(), AsyncResponseTransformer.toBytes()))
              .asByteArrayUnsafe();
      return new ReadBack(s3.url(key), bytes, read);
    } finally {
      delete(s3, key);
    }
  }

  /**
   * @param token unique to this store instance (the probe key's suffix)
   * @throws S3RequestException if the probe cannot be written at all
   */
  public static Result probe(S3Access s3, String token) {
    String key = s3.layout().probeKey(token);
    // Empty: a server may answer 412 as soon as it has read the headers and close the
    // connection without reading a body, and a client still sending one then sees a broken
    // pipe instead of the answer (seen with S3Proxy). Without a body there is nothing to race.
    byte[] body = new byte[0];
    try {
      Optional<Integer> first = put(s3, key, body, Optional.of("*"), Optional.empty(), true);
      if (first.isPresent()) {
        return new Result(
            false, false, "a create with If-None-Match: * was refused with HTTP " + first.get());
      }
      Optional<Integer> second = put(s3, key, body, Optional.of("*"), Optional.empty(), true);
      Optional<Integer> third = put(s3, key, body, Optional.empty(), Optional.of(WRONG_ETAG), true);
      boolean noneMatch = second.equals(Optional.of(412));
      boolean match = third.equals(Optional.of(412));
      return new Result(
          noneMatch,
          match,
          "If-None-Match on an existing object: "
              + second.map(s -> "HTTP " + s).orElse("accepted")
              + "; If-Match of a wrong ETag: "
              + third.map(s -> "HTTP " + s).orElse("accepted"));
    } finally {
      delete(s3, key);
    }
  }

  /** Empty when the write was accepted; the refusing status (400, 412, 501) if {@code soft}. */
  private static Optional<Integer> put(
      S3Access s3,
      String key,
      byte[] bytes,
      Optional<String> ifNoneMatch,
      Optional<String> ifMatch,
      boolean soft) {
    try {
      s3.calls()
          .join(
              "PutObject",
              s3.url(key),
              () -> {
                PutObjectRequest.Builder b = s3.putProbe(key).contentLength((long) bytes.length);
                ifNoneMatch.ifPresent(b::ifNoneMatch);
                ifMatch.ifPresent(b::ifMatch);
                if (s3.legacyMd5()) {
                  b.contentMD5(S3Access.md5Base64(bytes, 0, bytes.length));
                }
                return s3.client().putObject(b.build(), AsyncRequestBody.fromBytes(bytes));
              });
      return Optional.empty();
    } catch (S3RequestException e) {
      int status = e.statusCode();
      if (soft && (status == 412 || status == 400 || status == 501)) {
        return Optional.of(status);
      }
      throw e;
    }
  }

  private static void delete(S3Access s3, String key) {
    s3.delete(key);
    if (s3.objectLock().isPresent()) {
      deleteVersions(s3, key);
    }
  }

  /**
   * On a versioned bucket (object lock implies one) a delete leaves the probe's versions behind a
   * delete marker, a few more on every start: remove each version and marker of the probe's key.
   * Probes are written without a lock, so this is allowed.
   */
  private static void deleteVersions(S3Access s3, String key) {
    var listed =
        s3.calls()
            .join(
                "ListObjectVersions",
                s3.url(key),
                () -> s3.client().listObjectVersions(r -> r.bucket(s3.bucket()).prefix(key)));
    List<String> versionIds = new ArrayList<>();
    listed.versions().stream()
        .filter(v -> v.key().equals(key))
        .forEach(v -> versionIds.add(v.versionId()));
    listed.deleteMarkers().stream()
        .filter(m -> m.key().equals(key))
        .forEach(m -> versionIds.add(m.versionId()));
    for (String versionId : versionIds) {
      s3.deleteVersion(key, versionId);
    }
  }
}
