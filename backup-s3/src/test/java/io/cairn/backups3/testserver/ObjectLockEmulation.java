package io.cairn.backups3.testserver;

import io.cairn.backups3.testserver.FaultInjectingProxy.Refusal;
import io.cairn.backups3.testserver.FaultInjectingProxy.Request;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;

/**
 * What S3Mock 5.2 lacks of S3 Object Lock, emulated in a {@link FaultInjectingProxy} in front of
 * it. S3Mock creates buckets with object lock and keeps versions (a delete leaves a delete marker),
 * but ignores the retention headers of PutObject and CreateMultipartUpload and lets any version be
 * deleted. This records the retention each request that creates an object asks for and, as S3 does,
 * refuses with 403 {@code AccessDenied} a {@code DELETE ?versionId=} of an object version while its
 * key's retention lasts. Removing a delete marker stays allowed (that is how a hidden object comes
 * back). Retention is kept per key, the latest date any of its versions got — stricter than S3 for
 * older versions, which the tests do not depend on. A {@code DeleteObjects} batch is not inspected
 * (its body is not seen here).
 */
public final class ObjectLockEmulation implements Function<Request, Optional<Refusal>> {

  private static final String UNTIL = "x-amz-object-lock-retain-until-date";

  private final S3AsyncClient direct;
  private final String bucket;
  private final Map<String, Instant> lockedUntil = new ConcurrentHashMap<>();

  /**
   * @param direct a client of the server itself (not through the proxy), to tell delete markers
   *     from object versions
   */
  public ObjectLockEmulation(S3AsyncClient direct, String bucket) {
    this.direct = direct;
    this.bucket = bucket;
  }

  @Override
  public Optional<Refusal> apply(Request request) {
    String key = key(request);
    if (key == null) {
      return Optional.empty();
    }
    boolean creates =
        (request.method().equals("PUT") && !request.query().contains("partNumber="))
            || (request.method().equals("POST") && request.query().contains("uploads"));
    if (creates && request.header(UNTIL) != null) {
      lockedUntil.merge(key, Instant.parse(request.header(UNTIL)), (a, b) -> a.isAfter(b) ? a : b);
      return Optional.empty();
    }
    String versionId = parameter(request.query(), "versionId");
    if (!request.method().equals("DELETE") || versionId == null) {
      return Optional.empty();
    }
    Instant until = lockedUntil.get(key);
    if (until == null || !until.isAfter(Instant.now()) || isDeleteMarker(key, versionId)) {
      return Optional.empty();
    }
    return Optional.of(
        new Refusal(
            403,
            "AccessDenied",
            "Access Denied because object protected by object lock (retained until "
                + until
                + ")"));
  }

  /** When the retention of {@code key} ends, as the requests that wrote it asked. */
  public Optional<Instant> lockedUntil(String key) {
    return Optional.ofNullable(lockedUntil.get(key));
  }

  private boolean isDeleteMarker(String key, String versionId) {
    try {
      ListObjectVersionsResponse versions =
          direct.listObjectVersions(r -> r.bucket(bucket).prefix(key)).get(30, TimeUnit.SECONDS);
      return versions.deleteMarkers().stream()
          .anyMatch(m -> m.key().equals(key) && m.versionId().equals(versionId));
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("Expected to list the versions of " + key, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The object key of a path-style request to this bucket, or null. */
  private String key(Request request) {
    String prefix = "/" + bucket + "/";
    String path = request.path();
    if (!path.startsWith(prefix) || path.length() == prefix.length()) {
      return null;
    }
    return URLDecoder.decode(path.substring(prefix.length()), StandardCharsets.UTF_8);
  }

  private static String parameter(String query, String name) {
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      String n = eq < 0 ? pair : pair.substring(0, eq);
      if (n.equals(name)) {
        return eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      }
    }
    return null;
  }
}
