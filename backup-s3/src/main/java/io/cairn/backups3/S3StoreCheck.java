package io.cairn.backups3;

import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3Calls;
import io.cairn.backups3.client.S3Errors;
import io.cairn.backups3.client.S3RequestException;
import io.cairn.backups3.manifest.ConditionalWriteProbe;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.zip.CRC32;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A conformance run against the configured S3 store ({@code cairn backup check-store}): what the
 * store relies on, each tried once under {@code <basePath>/.cairn/check-<id>/} and removed again —
 * write and read back, overwrite, a multipart upload read back by a range across its parts,
 * conditional writes, a listing across pages (and a page of one key), delete and batch delete, that
 * an upload with a wrong checksum is refused, and concurrent writers. Each check passes, fails
 * naming the setting that fixes it (if one does), or passes worked around. Anchored on
 * Elasticsearch's repository analysis and CockroachDB's {@code CHECK EXTERNAL CONNECTION}. The
 * multipart object is small: two parts, the first of {@code partSizeBytes}.
 */
public final class S3StoreCheck {

  /** How one check ended. */
  public enum Outcome {
    PASS,
    /** The server lacks it, and the store works around it. */
    WORKED_AROUND,
    FAIL
  }

  /**
   * @param fix the setting that fixes a failure ({@code key: value}), or empty
   */
  public record Check(String name, Outcome outcome, String detail, String fix) {
    public Check {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(detail, "detail");
      Objects.requireNonNull(fix, "fix");
    }
  }

  /** Every check, in order; the store can hold backups safely iff none failed. */
  public record Report(String location, List<Check> checks) {
    public Report {
      checks = List.copyOf(checks);
    }

    public boolean safe() {
      return checks.stream().noneMatch(check -> check.outcome() == Outcome.FAIL);
    }
  }

  private static final int LISTED_KEYS = 5;
  private static final int WRITERS = 8;
  private static final int BATCH_DELETED_KEYS = 3;

  private final S3BackupStoreConfig config;
  private final S3Access s3;
  private final String prefix;

  /** Whether checks past the first wrote objects that {@link #removeEverything} must remove. */
  private boolean wroteObjects;

  private final SplittableRandom random =
      new SplittableRandom(UUID.randomUUID().getLeastSignificantBits());

  private S3StoreCheck(S3BackupStoreConfig config, S3Access s3, String prefix) {
    this.config = config;
    this.s3 = s3;
    this.prefix = prefix;
  }

  /** Runs every check against {@code config}'s bucket; never throws for what the server answers. */
  public static Report run(S3BackupStoreConfig config, Clock clock) {
    try (S3Connection connection =
        S3Connection.open(config, clock, new S3BackupStoreMetrics(new SimpleMeterRegistry()))) {
      S3Access s3 = connection.s3();
      String prefix = s3.layout().probeKey("check-" + UUID.randomUUID()) + "/";
      S3StoreCheck check = new S3StoreCheck(config, s3, prefix);
      try {
        return new Report(config.location(), check.checks());
      } finally {
        if (check.wroteObjects) {
          check.removeEverything();
        }
      }
    }
  }

  private List<Check> checks() {
    List<Check> checks = new ArrayList<>();
    Check basic = attempt("write and read back", this::writeAndReadBack);
    checks.add(basic);
    if (basic.outcome() == Outcome.FAIL) {
      return checks; // the others need objects that can be written and read
    }
    wroteObjects = true;
    checks.add(attempt("overwrite", this::overwrite));
    checks.add(attempt("multipart upload, ranged read", this::multipart));
    checks.add(conditionalWrites());
    checks.add(attempt("listing across pages", this::listing));
    checks.add(attempt("delete", this::delete));
    checks.add(attempt("batch delete", this::batchDelete));
    checks.add(attempt("upload checksums", this::uploadChecksums));
    checks.add(attempt("concurrent writers", this::concurrentWriters));
    return checks;
  }

  /** A check's body: its outcome, or an {@link S3RequestException} for a refused request. */
  private interface Body {
    Check run(String name);
  }

  private Check attempt(String name, Body body) {
    try {
      return body.run(name);
    } catch (S3RequestException e) {
      String answer = S3Errors.describe(e.getCause() == null ? e : e.getCause());
      return new Check(name, Outcome.FAIL, "the server answered " + answer, fixFor(e));
    }
  }

  /** What an answer points at: the credentials, the bucket, or nothing a setting changes. */
  private static String fixFor(S3RequestException e) {
    if (e.statusCode() == 401 || e.statusCode() == 403) {
      return S3BackupStoreConfig.ACCESS_KEY_ID_KEY
          + ", "
          + S3BackupStoreConfig.SECRET_ACCESS_KEY_KEY;
    }
    if (e.errorCode().equals("NoSuchBucket")) {
      return S3BackupStoreConfig.BUCKET_KEY;
    }
    if (e.statusCode() < 0) {
      return S3BackupStoreConfig.ENDPOINT_KEY;
    }
    return "";
  }

  /** The start-up probe's write, read back and delete, judged as the store's start judges it. */
  private Check writeAndReadBack(String name) {
    ConditionalWriteProbe.ReadBack readBack =
        ConditionalWriteProbe.checkReadWrite(s3, "check-" + UUID.randomUUID());
    byte[] written = readBack.written();
    byte[] read = readBack.read();
    if (readBack.matches()) {
      return new Check(name, Outcome.PASS, written.length + " bytes", "");
    }
    if (!config.legacyMd5() && AwsChunkedFraming.wraps(read, written)) {
      return new Check(
          name,
          Outcome.FAIL,
          "read back "
              + read.length
              + " bytes for "
              + written.length
              + ": the data inside the SDK's aws-chunked upload framing (the server stores a"
              + " chunked upload's body instead of decoding it)",
          S3BackupStoreConfig.LEGACY_MD5_KEY + ": true");
    }
    return new Check(
        name,
        Outcome.FAIL,
        "read back " + read.length + " other bytes for " + written.length,
        config.legacyMd5() ? "" : S3BackupStoreConfig.LEGACY_MD5_KEY + ": true (try)");
  }

  private Check overwrite(String name) {
    String key = prefix + "overwrite";
    put(key, bytes(32));
    byte[] second = bytes(48);
    put(key, second);
    return Arrays.equals(get(key), second)
        ? new Check(name, Outcome.PASS, "the second write is read back", "")
        : new Check(name, Outcome.FAIL, "the first write was read back after the second", "");
  }

  private Check multipart(String name) {
    String key = prefix + "multipart";
    int partSize = (int) Math.min(config.partSizeBytes(), Integer.MAX_VALUE - 8);
    byte[] first = bytes(partSize);
    byte[] second = bytes(1024);
    S3MultipartProbe.upload(s3, key, first, second);
    int from = partSize - 16;
    byte[] range = S3MultipartProbe.range(s3, key, from, from + 31);
    byte[] expected = new byte[32];
    System.arraycopy(first, from, expected, 0, 16);
    System.arraycopy(second, 0, expected, 16, 16);
    long size = s3.head(key).contentLength();
    if (size != partSize + second.length) {
      return new Check(
          name,
          Outcome.FAIL,
          "the object holds " + size + " bytes, " + (partSize + second.length) + " were uploaded",
          "");
    }
    return Arrays.equals(range, expected)
        ? new Check(name, Outcome.PASS, "2 parts, " + size + " bytes; a range across them", "")
        : new Check(name, Outcome.FAIL, "a range across the two parts read other bytes", "");
  }

  private Check conditionalWrites() {
    String name = "conditional writes";
    try {
      ConditionalWriteProbe.Result result =
          ConditionalWriteProbe.probe(s3, "check-" + UUID.randomUUID());
      if (result.supported()) {
        return new Check(name, Outcome.PASS, "If-None-Match and If-Match honoured", "");
      }
      if (config.conditionalWrites() == ConditionalWrites.REQUIRED) {
        return new Check(
            name,
            Outcome.FAIL,
            result.detail(),
            S3BackupStoreConfig.CONDITIONAL_WRITES_KEY + ": auto");
      }
      return new Check(
          name,
          Outcome.WORKED_AROUND,
          result.detail() + "; manifest changes are read-check-write, atomic within one process",
          "");
    } catch (S3RequestException e) {
      return new Check(
          name,
          Outcome.FAIL,
          "the server answered " + S3Errors.describe(e.getCause() == null ? e : e.getCause()),
          fixFor(e));
    }
  }

  private Check listing(String name) {
    String directory = prefix + "list/";
    for (int i = 0; i < LISTED_KEYS; i++) {
      put(directory + i, bytes(8));
    }
    ListObjectsV2Response one = s3.list(directory, 1, null, null);
    if (one.contents().size() != 1 || !Boolean.TRUE.equals(one.isTruncated())) {
      return new Check(
          name,
          Outcome.FAIL,
          "a page of one key held "
              + one.contents().size()
              + " keys (truncated "
              + one.isTruncated()
              + ")",
          "");
    }
    List<String> keys = new ArrayList<>();
    String token = null;
    int page = 0;
    do {
      page++;
      ListObjectsV2Response response;
      try {
        response = s3.list(directory, 2, token, null);
      } catch (S3RequestException e) {
        return new Check(
            name,
            Outcome.FAIL,
            "the server failed page "
                + page
                + " of a listing ("
                + (token == null ? "the first" : "after a continuation token")
                + "): "
                + S3Errors.describe(e.getCause() == null ? e : e.getCause()),
            fixFor(e));
      }
      response.contents().stream().map(S3Object::key).forEach(keys::add);
      token = Boolean.TRUE.equals(response.isTruncated()) ? response.nextContinuationToken() : null;
    } while (token != null && page < 2 * LISTED_KEYS);
    if (keys.size() != LISTED_KEYS || keys.stream().distinct().count() != LISTED_KEYS) {
      return new Check(
          name, Outcome.FAIL, "pages of 2 listed " + keys + " for " + LISTED_KEYS + " keys", "");
    }
    return new Check(
        name, Outcome.PASS, LISTED_KEYS + " keys in " + page + " pages of 2; a page of 1", "");
  }

  private Check delete(String name) {
    String key = prefix + "delete";
    put(key, bytes(8));
    s3.delete(key);
    return s3.headIfExists(key).isEmpty()
        ? new Check(name, Outcome.PASS, "gone once deleted", "")
        : new Check(name, Outcome.FAIL, "still there after its delete", "");
  }

  /** Deleting a backup's contents and retention use DeleteObjects. */
  private Check batchDelete(String name) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < BATCH_DELETED_KEYS; i++) {
      keys.add(prefix + "batch-" + i);
      put(keys.get(i), bytes(8));
    }
    List<S3Error> refused = s3.deleteAll(prefix, keys);
    if (!refused.isEmpty()) {
      return new Check(
          name,
          Outcome.FAIL,
          "DeleteObjects refused "
              + refused.size()
              + " of "
              + keys.size()
              + " keys, e.g. "
              + refused.get(0).code()
              + " "
              + refused.get(0).message(),
          "");
    }
    List<String> left = keys.stream().filter(key -> s3.headIfExists(key).isPresent()).toList();
    return left.isEmpty()
        ? new Check(name, Outcome.PASS, keys.size() + " keys gone with one DeleteObjects", "")
        : new Check(name, Outcome.FAIL, "still there after DeleteObjects: " + left, "");
  }

  /**
   * An upload whose checksum does not match its body must be refused, so that a body damaged on its
   * way is never stored. Where the server stores it anyway, the store's own CRC32C of every file
   * still finds the damage, but only when the backup is verified or restored.
   */
  private Check uploadChecksums(String name) {
    String key = prefix + "checksum";
    byte[] content = bytes(64);
    byte[] other = bytes(64);
    String header;
    PutObjectRequest.Builder request = s3.putProbe(key).contentLength((long) content.length);
    if (config.legacyMd5()) {
      header = "Content-MD5";
      request.contentMD5(S3Access.md5Base64(other, 0, other.length));
    } else {
      header = "x-amz-checksum-crc32";
      CRC32 crc = new CRC32();
      crc.update(other);
      request.checksumCRC32(
          Base64.getEncoder()
              .encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array()));
    }
    PutObjectRequest wrong = request.build();
    try {
      S3Calls.await(
          s3.calls()
              .call(
                  "PutObject",
                  s3.url(key),
                  () -> s3.client().putObject(wrong, AsyncRequestBody.fromBytes(content))),
          "PutObject of " + s3.url(key));
    } catch (S3RequestException e) {
      if (e.statusCode() == 400) {
        return new Check(
            name,
            Outcome.PASS,
            "an upload whose "
                + header
                + " does not match its body is refused ("
                + e.errorCode()
                + ")",
            "");
      }
      throw e;
    }
    return new Check(
        name,
        Outcome.WORKED_AROUND,
        "the server stored an upload whose "
            + header
            + " does not match its body, so it does not check uploads; the CRC32C the store"
            + " records for every file finds a damaged upload when the backup is verified or"
            + " restored: verify backups ('cairn backup verify') and use an https endpoint",
        "");
  }

  private Check concurrentWriters(String name) {
    List<byte[]> contents = new ArrayList<>();
    List<CompletableFuture<?>> writes = new ArrayList<>();
    for (int i = 0; i < WRITERS; i++) {
      byte[] content = bytes(4096);
      contents.add(content);
      String key = prefix + "writer-" + i;
      writes.add(putAsync(key, content));
    }
    for (CompletableFuture<?> write : writes) {
      S3Calls.await(write, "a concurrent PutObject");
    }
    for (int i = 0; i < WRITERS; i++) {
      if (!Arrays.equals(get(prefix + "writer-" + i), contents.get(i))) {
        return new Check(
            name, Outcome.FAIL, "writer " + i + " of " + WRITERS + " read back other bytes", "");
      }
    }
    return new Check(name, Outcome.PASS, WRITERS + " writers at once, each read back", "");
  }

  private void put(String key, byte[] content) {
    S3Calls.await(putAsync(key, content), "PutObject of " + s3.url(key));
  }

  /** A PutObject without the object lock: the check deletes what it writes. */
  private CompletableFuture<?> putAsync(String key, byte[] content) {
    return s3.calls()
        .call(
            "PutObject",
            s3.url(key),
            () ->
                s3.client()
                    .putObject(
                        s3.putProbe(key).contentLength((long) content.length).build(),
                        AsyncRequestBody.fromBytes(content)));
  }

  private byte[] get(String key) {
    return s3.calls()
        .join(
            "GetObject",
            s3.url(key),
            () -> s3.client().getObject(s3.get(key).build(), AsyncResponseTransformer.toBytes()))
        .asByteArrayUnsafe();
  }

  private byte[] bytes(int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) random.nextInt(256);
    }
    return bytes;
  }

  /** Deletes whatever the checks left; a failure here is not a finding. */
  private void removeEverything() {
    try {
      String token = null;
      do {
        ListObjectsV2Response page = s3.list(prefix, 1000, token, null);
        for (S3Object object : page.contents()) {
          s3.delete(object.key());
        }
        token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
      } while (token != null);
    } catch (RuntimeException e) {
      // the server already failed a check, or refuses listing: nothing more to do
    }
  }
}
