package io.cairn.benchmarks;

import io.cairn.scheduler.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;
import software.amazon.awssdk.core.interceptor.Context.AfterTransmission;
import software.amazon.awssdk.core.interceptor.Context.BeforeTransmission;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.transfer.s3.progress.TransferListener;

/**
 * Samples a bytes-moved counter every {@value #SAMPLE_MILLIS} ms while one step runs, to tell a
 * steady transfer from one with a slow tail: {@link #secondsTo(double)} is when the counter first
 * reached a number of bytes.
 */
final class TransferTimeline implements AutoCloseable {

  private static final long SAMPLE_MILLIS = 50;

  private final Clock clock;
  private final DoubleSupplier bytes;
  private final double startBytes;
  private final long startNanos;
  private final List<double[]> samples = new ArrayList<>();
  private final ScheduledExecutorService sampler;

  TransferTimeline(DoubleSupplier bytes, Clock clock) {
    this.clock = clock;
    this.bytes = bytes;
    this.startBytes = bytes.getAsDouble();
    this.startNanos = clock.nanos();
    this.sampler =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "s3-benchmark-timeline");
              thread.setDaemon(true);
              return thread;
            });
    sampler.scheduleAtFixedRate(this::sample, SAMPLE_MILLIS, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
  }

  private synchronized void sample() {
    samples.add(
        new double[] {(clock.nanos() - startNanos) / 1e9, bytes.getAsDouble() - startBytes});
  }

  /** Seconds from the start until {@code threshold} bytes were moved; NaN if never seen. */
  synchronized double secondsTo(double threshold) {
    for (double[] sample : samples) {
      if (sample[1] >= threshold) {
        return sample[0];
      }
    }
    return Double.NaN;
  }

  @Override
  public void close() {
    sampler.shutdownNow();
    sample();
  }

  /**
   * Bytes moved by a transfer manager's transfers, from each file's cumulative progress (one
   * listener shared by every file of a directory transfer).
   */
  static final class ProgressListener implements TransferListener {
    private final LongAdder total = new LongAdder();
    private final Map<Object, Long> perTransfer = new ConcurrentHashMap<>();

    @Override
    public void bytesTransferred(Context.BytesTransferred context) {
      long now = context.progressSnapshot().transferredBytes();
      Long before = perTransfer.put(context.request(), now);
      total.add(now - (before == null ? 0 : before));
    }

    double bytes() {
      return total.doubleValue();
    }
  }

  /**
   * The summed duration of upload requests ({@code PutObject}, {@code UploadPart}) from sending to
   * the response, per attempt; divided by a step's wall time it is the mean number of upload
   * requests in flight.
   */
  static final class UploadWireTime implements ExecutionInterceptor {
    private static final ExecutionAttribute<Long> START =
        new ExecutionAttribute<>("benchmarkStart");
    private final Clock clock;
    private final LongAdder nanos = new LongAdder();

    UploadWireTime(Clock clock) {
      this.clock = clock;
    }

    @Override
    public void beforeTransmission(BeforeTransmission context, ExecutionAttributes attributes) {
      if (context.request() instanceof PutObjectRequest
          || context.request() instanceof UploadPartRequest) {
        attributes.putAttribute(START, clock.nanos());
      }
    }

    @Override
    public void afterTransmission(AfterTransmission context, ExecutionAttributes attributes) {
      Long start = attributes.getAttribute(START);
      if (start != null) {
        nanos.add(clock.nanos() - start);
      }
    }

    double seconds() {
      return nanos.doubleValue() / 1e9;
    }
  }
}
