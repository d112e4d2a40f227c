package io.cairn.backups3.manifest;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestCodec;
import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3Calls;
import io.cairn.backups3.client.S3RequestException;
import io.cairn.backupstore.ManifestChange;
import io.cairn.scheduler.Futures;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * Manifests as S3 objects, and their conditional state changes.
 *
 * <p><b>With conditional writes</b> (the server honours them; see {@link ConditionalWriteProbe}), a
 * manifest is created with {@code If-None-Match: *} and replaced with {@code If-Match: <etag of the
 * manifest the decision was made on>}; the server arbitrates between writers in any number of
 * processes. Every write carries a unique {@value #WRITE_ID_METADATA} metadata value, so a write
 * whose response was lost and whose retry then met 412 is recognised as our own.
 *
 * <p><b>Without</b> them, each decision is read-check-write under a per-backup lock: atomic against
 * this process's other writers only. Two processes writing one backup id at once (an old leader
 * still saving while a new one marks it failed) can then race; the window is one request long. Use
 * a server with conditional writes where that matters.
 */
public final class ManifestObjects {

  /** User metadata naming the write that produced a manifest object. */
  public static final String WRITE_ID_METADATA = "cairn-write-id";

  private static final int TRANSITION_ATTEMPTS_MAX = 16;
  private static final int LOCK_STRIPES = 64;

  /**
   * A manifest as stored.
   *
   * @param etag the object's ETag, for {@code If-Match}
   * @param writeId the {@value #WRITE_ID_METADATA} it was written with, if any
   */
  public record Stored(Manifest manifest, String etag, Optional<String> writeId) {}

  private final S3Access s3;
  private final ManifestCodec codec;
  private final boolean conditional;
  private final String writerId;
  private final AtomicLong writes = new AtomicLong();
  private final ReentrantLock[] locks = new ReentrantLock[LOCK_STRIPES];

  /**
   * @param conditional whether the server honours {@code If-None-Match} and {@code If-Match}
   * @param writerId unique to this store instance (prefix of every write id)
   */
  public ManifestObjects(S3Access s3, ManifestCodec codec, boolean conditional, String writerId) {
    this.s3 = s3;
    this.codec = codec;
    this.conditional = conditional;
    this.writerId = Objects.requireNonNull(writerId, "writerId");
    for (int i = 0; i < locks.length; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  public boolean conditional() {
    return conditional;
  }

  /**
   * The stored manifest of {@code id}, or empty if there is none.
   *
   * @throws io.cairn.backupapi.ManifestException if it cannot be trusted
   */
  public Optional<Stored> read(BackupIdentifier id) {
    return read(id, s3.calls());
  }

  /** {@link #read} without waiting; fails with the same exceptions. */
  public CompletableFuture<Optional<Stored>> readAsync(BackupIdentifier id) {
    return readAsync(id, s3.calls());
  }

  private Optional<Stored> read(BackupIdentifier id, S3Calls calls) {
    return S3Calls.await(readAsync(id, calls), "reading the manifest of " + id);
  }

  private CompletableFuture<Optional<Stored>> readAsync(BackupIdentifier id, S3Calls calls) {
    String key = s3.layout().manifestKey(id);
    return calls
        .call(
            "GetObject",
            s3.url(key),
            () -> s3.client().getObject(s3.get(key).build(), AsyncResponseTransformer.toBytes()))
        .handle(
            (bytes, error) -> {
              if (error != null) {
                Throwable cause = Futures.unwrap(error);
                if (cause instanceof S3RequestException e && e.isNotFound()) {
                  return Optional.empty();
                }
                throw cause instanceof RuntimeException r ? r : new CompletionException(cause);
              }
              Manifest manifest = codec.decode(bytes.asByteArrayUnsafe(), s3.url(key), id);
              GetObjectResponse response = bytes.response();
              return Optional.of(
                  new Stored(
                      manifest,
                      response.eTag(),
                      Optional.ofNullable(response.metadata().get(WRITE_ID_METADATA))));
            });
  }

  /**
   * Reads the manifest, lets {@code decide} choose, and writes its choice only if the manifest did
   * not change since it was read; on a change, reads and decides again.
   *
   * @param decide sees the current manifest (empty = none); may throw to refuse
   * @return the decision's result once a write succeeded or it chose to keep the manifest
   */
  public <R> R transition(
      BackupIdentifier id, Function<Optional<Manifest>, ManifestChange<R>> decide) {
    return transition(id, decide, s3.calls());
  }

  /** {@link #transition} whose requests use {@code calls} (e.g. more attempts). */
  public <R> R transition(
      BackupIdentifier id, Function<Optional<Manifest>, ManifestChange<R>> decide, S3Calls calls) {
    ReentrantLock lock = conditional ? null : lockOf(id);
    if (lock != null) {
      lock.lock();
    }
    try {
      for (int attempt = 1; attempt <= TRANSITION_ATTEMPTS_MAX; attempt++) {
        Optional<Stored> current = read(id, calls);
        ManifestChange<R> decision = decide.apply(current.map(Stored::manifest));
        if (decision instanceof ManifestChange.Keep<R> keep) {
          return keep.result();
        }
        ManifestChange.Write<R> write = (ManifestChange.Write<R>) decision;
        boolean written =
            current.isEmpty()
                ? create(write.next(), calls)
                : replace(write.next(), current.get().etag(), calls);
        if (written) {
          return write.result();
        }
      }
      throw new S3ManifestContentionException(
          id, s3.url(s3.layout().manifestKey(id)), TRANSITION_ATTEMPTS_MAX);
    } finally {
      if (lock != null) {
        lock.unlock();
      }
    }
  }

  /** Deletes the manifest object (unconditionally); succeeds when there is none. */
  public void delete(BackupIdentifier id) {
    s3.delete(s3.layout().manifestKey(id));
  }

  /** Writes {@code manifest} iff its id has no manifest; false if one exists. */
  boolean create(Manifest manifest, S3Calls calls) {
    if (!conditional && read(manifest.id(), calls).isPresent()) {
      return false;
    }
    return write(
        manifest, conditional ? Optional.of("*") : Optional.empty(), Optional.empty(), calls);
  }

  /** Replaces the manifest iff its ETag is still {@code etag}; false if it changed or is gone. */
  boolean replace(Manifest manifest, String etag, S3Calls calls) {
    if (!conditional) {
      Optional<Stored> current = read(manifest.id(), calls);
      if (current.isEmpty() || !current.get().etag().equals(etag)) {
        return false;
      }
    }
    return write(
        manifest, Optional.empty(), conditional ? Optional.of(etag) : Optional.empty(), calls);
  }

  /**
   * Puts the manifest with a fresh write id. A refused condition (412, or 404 for If-Match on a
   * deleted manifest) and a write whose outcome is unknown (the retries ran out on a transient
   * error) are settled by reading the manifest back: if it carries our write id, the write landed
   * (its response was lost).
   *
   * @return true if the manifest is now ours, false if a condition did not hold
   */
  private boolean write(
      Manifest manifest, Optional<String> ifNoneMatch, Optional<String> ifMatch, S3Calls calls) {
    String writeId = nextWriteId();
    try {
      put(manifest, writeId, ifNoneMatch, ifMatch, calls);
      return true;
    } catch (S3RequestException e) {
      boolean refused = e.isPreconditionFailed() || (ifMatch.isPresent() && e.isNotFound());
      if (refused) {
        return isOurs(manifest.id(), writeId, calls);
      }
      if (e.isTransient()) {
        boolean landed;
        try {
          landed = isOurs(manifest.id(), writeId, calls);
        } catch (RuntimeException readFailed) {
          e.addSuppressed(readFailed);
          throw e;
        }
        if (landed) {
          return true;
        }
      }
      throw e;
    }
  }

  /** True when the stored manifest was written by the write {@code writeId} (a lost response). */
  private boolean isOurs(BackupIdentifier id, String writeId, S3Calls calls) {
    return read(id, calls).flatMap(Stored::writeId).map(writeId::equals).orElse(false);
  }

  private void put(
      Manifest manifest,
      String writeId,
      Optional<String> ifNoneMatch,
      Optional<String> ifMatch,
      S3Calls calls) {
    String key = s3.layout().manifestKey(manifest.id());
    byte[] json = codec.encode(manifest);
    calls.join(
        "PutObject",
        s3.url(key),
        () -> {
          PutObjectRequest.Builder b =
              s3.put(key)
                  .contentType("application/json")
                  .contentLength((long) json.length)
                  .metadata(Map.of(WRITE_ID_METADATA, writeId));
          ifNoneMatch.ifPresent(b::ifNoneMatch);
          ifMatch.ifPresent(b::ifMatch);
          if (s3.legacyMd5()) {
            b.contentMD5(S3Access.md5Base64(json, 0, json.length));
          }
          return s3.client().putObject(b.build(), AsyncRequestBody.fromBytesUnsafe(json));
        });
  }

  private String nextWriteId() {
    return writerId + "-" + writes.incrementAndGet();
  }

  private ReentrantLock lockOf(BackupIdentifier id) {
    return locks[Math.floorMod(id.hashCode(), locks.length)];
  }
}
