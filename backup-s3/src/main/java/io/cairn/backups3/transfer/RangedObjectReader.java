package io.cairn.backups3.transfer;

import io.cairn.backupapi.BackupStoreException;
import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3Calls;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * Reads an object of known size as a stream, with plain or ranged GETs only — never {@code
 * partNumber}, which several S3-compatible servers cannot serve for multipart objects. An object of
 * at most one range is one GET; a larger one is fetched in ranges of {@code partSizeBytes}, up to
 * {@value #RANGES_IN_FLIGHT} at once (the first waits for a transfer permit, the others only take
 * free ones), and handed out in order. Every response is checked: its {@code Content-Range} and
 * length must be the requested ones (else the range is fetched again), and its ETag the one the
 * object had when it was looked up (else the object changed: {@link ObjectChangedException}). Not
 * thread-safe; one reader per object.
 */
public final class RangedObjectReader extends InputStream {

  static final int RANGES_IN_FLIGHT = 2;

  /** The object was replaced while it was being read. */
  public static final class ObjectChangedException extends BackupStoreException {
    ObjectChangedException(String message) {
      super(message);
    }
  }

  private final Transfers transfers;
  private final S3Access s3;
  private final String key;
  private final long sizeBytes;
  private final String etag;
  private final boolean throttled;
  private final long rangeBytes;
  private final Deque<CompletableFuture<byte[]>> pending = new ArrayDeque<>();
  private long nextRangeStart;
  private byte[] current = new byte[0];
  private int position;

  /**
   * @param etag the object's ETag from its lookup, or null to skip that check
   * @param throttled whether the bytes count against the bytes/s limit (verify; not restore)
   */
  public RangedObjectReader(
      Transfers transfers, String key, long sizeBytes, String etag, boolean throttled) {
    this.transfers = transfers;
    this.s3 = transfers.s3();
    this.key = key;
    this.sizeBytes = sizeBytes;
    this.etag = etag;
    this.throttled = throttled;
    this.rangeBytes = transfers.partSizeBytes();
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] bytes, int offset, int length) throws IOException {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    if (length == 0) {
      return 0;
    }
    while (position == current.length) {
      if (!nextRange()) {
        return -1;
      }
    }
    int n = Math.min(length, current.length - position);
    System.arraycopy(current, position, bytes, offset, n);
    position += n;
    return n;
  }

  private boolean nextRange() {
    if (pending.isEmpty()) {
      if (nextRangeStart >= sizeBytes) {
        return false;
      }
      pending.add(fetchNext(true));
    }
    while (pending.size() < RANGES_IN_FLIGHT && nextRangeStart < sizeBytes) {
      CompletableFuture<byte[]> more = fetchNext(false);
      if (more == null) {
        break;
      }
      pending.add(more);
    }
    current = S3Calls.await(pending.poll(), "GetObject of " + s3.url(key));
    position = 0;
    return true;
  }

  /** Starts the GET of the next range; null if {@code wait} is false and no permit is free. */
  private CompletableFuture<byte[]> fetchNext(boolean wait) {
    long first = nextRangeStart;
    long end = Math.min(sizeBytes, first + rangeBytes);
    boolean whole = first == 0 && end == sizeBytes;
    CompletableFuture<byte[]> future =
        wait
            ? transfers.start(() -> get(first, end, whole))
            : transfers.tryStart(() -> get(first, end, whole));
    if (future != null) {
      nextRangeStart = end;
    }
    return future;
  }

  /** Runs on the reading thread, holding a permit; only its retries run elsewhere. */
  private S3Calls.Call<byte[]> get(long first, long end, boolean whole) {
    if (throttled) {
      transfers.throttle(end - first);
    }
    String range = "bytes " + first + "-" + (end - 1) + "/" + sizeBytes;
    return s3.calls()
        .callTracked(
            "GetObject",
            s3.url(key),
            () -> {
              GetObjectRequest.Builder b = s3.get(key);
              if (!whole) {
                b.range("bytes=" + first + "-" + (end - 1));
              }
              return s3.client()
                  .getObject(b.build(), AsyncResponseTransformer.toBytes())
                  .thenApply(bytes -> check(bytes, first, end, whole, range));
            });
  }

  private byte[] check(
      ResponseBytes<GetObjectResponse> bytes, long first, long end, boolean whole, String range) {
    GetObjectResponse response = bytes.response();
    if (etag != null && response.eTag() != null && !etag.equals(response.eTag())) {
      throw new CompletionException(
          new ObjectChangedException(
              "Expected "
                  + s3.url(key)
                  + " to keep ETag "
                  + etag
                  + " while it is read, but it is now "
                  + response.eTag()
                  + "; the object was replaced"));
    }
    byte[] body = bytes.asByteArrayUnsafe();
    boolean rangeOk = whole || range.equals(response.contentRange());
    if (!rangeOk || body.length != end - first) {
      // A short or misplaced answer is retried like a dropped connection.
      throw new CompletionException(
          new IOException(
              "Expected "
                  + range
                  + " ("
                  + (end - first)
                  + " bytes) of "
                  + s3.url(key)
                  + ", but got "
                  + response.contentRange()
                  + " ("
                  + body.length
                  + " bytes)"));
    }
    s3.metrics().downloaded(body.length);
    return body;
  }

  /**
   * Stops fetching: ranges not yet answered are cancelled, so they are not retried. A GET already
   * sent still runs to its end and keeps its transfer permit until then ({@link Transfers}), so a
   * stopped restore or verify never lets more content requests than the bound be in flight.
   */
  @Override
  public void close() {
    for (CompletableFuture<byte[]> future : pending) {
      future.cancel(true);
    }
    pending.clear();
  }
}
