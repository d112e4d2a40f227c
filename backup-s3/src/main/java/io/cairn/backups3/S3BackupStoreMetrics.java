package io.cairn.backups3;

import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Meters of the S3 store (Micrometer, injected registry; base units):
 *
 * <ul>
 *   <li>{@value #OPERATIONS} (timer; {@code operation} = save|status|list|delete|markFailed|
 *       restore|verify, {@code result} = success|failure): each store operation;
 *   <li>{@value #REQUESTS} (timer; {@code operation} = the S3 API call, e.g. PutObject, UploadPart,
 *       GetObject, ListObjectsV2; {@code result} = success|not_found|precondition_failed|
 *       transient_error|error): every HTTP attempt, so retried calls count once per attempt;
 *   <li>{@value #RETRIES} (counter; {@code operation}): attempts repeated after a transient error
 *       (5xx, throttling, timeout, connection reset);
 *   <li>{@value #UPLOADED} (counter, bytes): object bytes sent (compressed where they are);
 *   <li>{@value #DOWNLOADED} (counter, bytes): object bytes received by restore and verify;
 *   <li>{@value #COPIED} (counter, bytes): object bytes copied server-side from the previous backup
 *       (never sent over the network);
 *   <li>{@value #TRANSFERS} (timer; {@code operation} = upload|download|copy, {@code result} =
 *       success|failure): the duration of moving one whole object;
 *   <li>{@value #THROTTLED} (timer): time spent waiting on {@code maxBytesPerSecond}.
 * </ul>
 */
public final class S3BackupStoreMetrics {

  /** Timer; tags {@code operation}, {@code result}: each store operation. */
  public static final String OPERATIONS = "cairn.backups3.operations";

  /** Timer; tags {@code operation}, {@code result}: every HTTP attempt of an S3 call. */
  public static final String REQUESTS = "cairn.backups3.requests";

  /** Counter; tag {@code operation}: attempts repeated after a transient error. */
  public static final String RETRIES = "cairn.backups3.retries";

  /** Counter, bytes: object bytes sent (compressed where they are). */
  public static final String UPLOADED = "cairn.backups3.uploaded";

  /** Counter, bytes: object bytes received by restore and verify. */
  public static final String DOWNLOADED = "cairn.backups3.downloaded";

  /** Counter, bytes: object bytes copied server-side from the previous backup. */
  public static final String COPIED = "cairn.backups3.copied";

  /** Timer; tags {@code operation}, {@code result}: moving one whole object. */
  public static final String TRANSFERS = "cairn.backups3.transfers";

  /** Timer: time spent waiting on {@code maxBytesPerSecond}. */
  public static final String THROTTLED = "cairn.backups3.throttled";

  /** Values of the {@code result} tag of {@value #REQUESTS}. */
  public enum RequestResult {
    SUCCESS("success"),
    NOT_FOUND("not_found"),
    PRECONDITION_FAILED("precondition_failed"),
    TRANSIENT_ERROR("transient_error"),
    ERROR("error");

    private final String tag;

    RequestResult(String tag) {
      this.tag = tag;
    }

    public String tag() {
      return tag;
    }
  }

  private final MeterRegistry registry;
  private final Counter uploaded;
  private final Counter downloaded;
  private final Counter copied;
  private final Timer throttled;

  public S3BackupStoreMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.uploaded = bytes(UPLOADED, "Object bytes sent to the store");
    this.downloaded = bytes(DOWNLOADED, "Object bytes received by restore and verify");
    this.copied = bytes(COPIED, "Object bytes copied server-side from the previous backup");
    this.throttled =
        Timer.builder(THROTTLED)
            .description("Time spent waiting on the bytes/s limit")
            .register(registry);
  }

  private Counter bytes(String name, String description) {
    return Counter.builder(name).baseUnit("bytes").description(description).register(registry);
  }

  MeterRegistry registry() {
    return registry;
  }

  /** The registry's clock: the time base of the bytes/s limit (tests move it). */
  public Clock limiterClock() {
    return Clock.of(registry.config().clock());
  }

  /** The registry's clock, in nanoseconds, for measuring request durations. */
  public long monotonicNanos() {
    return registry.config().clock().monotonicTime();
  }

  /** One HTTP attempt of an S3 API call. */
  public void request(String operation, RequestResult result, long durationNanos) {
    Timer.builder(REQUESTS)
        .description("S3 requests, one per attempt")
        .tag("operation", operation)
        .tag("result", result.tag())
        .register(registry)
        .record(durationNanos, TimeUnit.NANOSECONDS);
  }

  public void retry(String operation) {
    Counter.builder(RETRIES)
        .description("S3 requests repeated after a transient error")
        .tag("operation", operation)
        .register(registry)
        .increment();
  }

  /** Starts timing the transfer of one object; stop it with {@link TransferTimer#stop}. */
  public TransferTimer startTransfer(String operation) {
    return new TransferTimer(operation, Timer.start(registry));
  }

  public void uploaded(long bytes) {
    uploaded.increment(bytes);
  }

  public void downloaded(long bytes) {
    downloaded.increment(bytes);
  }

  public void copied(long bytes) {
    copied.increment(bytes);
  }

  public void throttled(Duration waited) {
    throttled.record(waited);
  }

  /** Times one object's transfer. */
  public final class TransferTimer {
    private final String operation;
    private final Timer.Sample sample;

    private TransferTimer(String operation, Timer.Sample sample) {
      this.operation = operation;
      this.sample = sample;
    }

    public void stop(boolean success) {
      sample.stop(
          Timer.builder(TRANSFERS)
              .description("Duration of moving one whole object")
              .tag("operation", operation)
              .tag("result", success ? "success" : "failure")
              .register(registry));
    }
  }
}
