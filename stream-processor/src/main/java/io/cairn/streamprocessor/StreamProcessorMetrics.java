package io.cairn.streamprocessor;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The meters of one partition's stream processor; every meter has the tag {@code partition} and no
 * other (apart from {@code result} where listed).
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 *   <tr><td>{@value #RECORDS}</td><td>counter</td><td>result = processed | rejected | skipped</td>
 *       <td>records read while processing: commands processed without a rejection, commands
 *       rejected (by their processor, for a processing error, or for lack of a processor), and
 *       records that needed no processing (follow-ups already in state, commands processed
 *       before)</td></tr>
 *   <tr><td>{@value #REPLAYED_RECORDS}</td><td>counter</td><td></td>
 *       <td>events applied by replay (its rate is the replay rate)</td></tr>
 *   <tr><td>{@value #PROCESSING_LATENCY}</td><td>timer</td><td></td>
 *       <td>from reading a command to committing its transaction (batch handed to the log)</td></tr>
 *   <tr><td>{@value #WRITE_RETRIES}</td><td>counter</td><td></td>
 *       <td>commands rolled back to retry because the log answered backpressure</td></tr>
 *   <tr><td>{@value #SIDE_EFFECT_FAILURES}</td><td>counter</td><td></td>
 *       <td>side effects that threw</td></tr>
 *   <tr><td>{@value #RESPONSE_FAILURES}</td><td>counter</td><td></td>
 *       <td>responses the response writer failed to send</td></tr>
 *   <tr><td>{@value #LAST_PROCESSED_POSITION}</td><td>gauge</td><td></td>
 *       <td>last processed position in state</td></tr>
 *   <tr><td>{@value #LAST_WRITTEN_POSITION}</td><td>gauge</td><td></td>
 *       <td>last written position in state</td></tr>
 *   <tr><td>{@value #HEALTH}</td><td>gauge</td><td></td>
 *       <td>{@link HealthStatus#code()}: 0 healthy, 1 failed</td></tr>
 * </table>
 */
public final class StreamProcessorMetrics implements AutoCloseable {

  /** Counter; tags partition, result = processed, rejected, skipped: records read. */
  public static final String RECORDS = "cairn.streamprocessor.records";

  /** Counter; tag partition: events applied by replay. */
  public static final String REPLAYED_RECORDS = "cairn.streamprocessor.replayed.records";

  /** Timer; tag partition: from reading a command to committing its transaction. */
  public static final String PROCESSING_LATENCY = "cairn.streamprocessor.processing.latency";

  /** Counter; tag partition: commands retried because the log answered backpressure. */
  public static final String WRITE_RETRIES = "cairn.streamprocessor.write.retries";

  /** Counter; tag partition: side effects that threw. */
  public static final String SIDE_EFFECT_FAILURES = "cairn.streamprocessor.side.effect.failures";

  /** Counter; tag partition: responses the response writer failed to send. */
  public static final String RESPONSE_FAILURES = "cairn.streamprocessor.response.failures";

  /** Gauge; tag partition: last processed position in state. */
  public static final String LAST_PROCESSED_POSITION =
      "cairn.streamprocessor.last.processed.position";

  /** Gauge; tag partition: last written position in state. */
  public static final String LAST_WRITTEN_POSITION = "cairn.streamprocessor.last.written.position";

  /** Gauge; tag partition: health of the stream processor, 0 healthy, 1 failed. */
  public static final String HEALTH = "cairn.streamprocessor.health";

  private final MeterRegistry registry;
  private final List<Meter> meters = new ArrayList<>();
  private final Counter processed;
  private final Counter rejected;
  private final Counter skipped;
  private final Counter replayed;
  private final Timer processingLatency;
  private final Counter writeRetries;
  private final Counter sideEffectFailures;
  private final Counter responseFailures;
  private final AtomicLong lastProcessed = new AtomicLong(-1);
  private final AtomicLong lastWritten = new AtomicLong(-1);
  private final AtomicLong health = new AtomicLong(HealthStatus.HEALTHY.code());

  public StreamProcessorMetrics(MeterRegistry registry, int partitionId) {
    this.registry = registry;
    Tags tags = Tags.of("partition", Integer.toString(partitionId));
    processed = records(tags, "processed");
    rejected = records(tags, "rejected");
    skipped = records(tags, "skipped");
    replayed =
        register(
            Counter.builder(REPLAYED_RECORDS)
                .description("Events applied by replay")
                .tags(tags)
                .register(registry));
    processingLatency =
        register(
            Timer.builder(PROCESSING_LATENCY)
                .description("From reading a command to committing its transaction")
                .tags(tags)
                .register(registry));
    writeRetries =
        register(
            Counter.builder(WRITE_RETRIES)
                .description("Commands retried because the log answered backpressure")
                .tags(tags)
                .register(registry));
    sideEffectFailures =
        register(
            Counter.builder(SIDE_EFFECT_FAILURES)
                .description("Side effects that threw")
                .tags(tags)
                .register(registry));
    responseFailures =
        register(
            Counter.builder(RESPONSE_FAILURES)
                .description("Responses the response writer failed to send")
                .tags(tags)
                .register(registry));
    gauge(LAST_PROCESSED_POSITION, "Last processed position in state", tags, lastProcessed);
    gauge(LAST_WRITTEN_POSITION, "Last written position in state", tags, lastWritten);
    gauge(HEALTH, "Health of the stream processor: 0 healthy, 1 failed", tags, health);
  }

  public void processed() {
    processed.increment();
  }

  public void rejected() {
    rejected.increment();
  }

  public void skipped() {
    skipped.increment();
  }

  public void replayed(int events) {
    replayed.increment(events);
  }

  public void processingLatency(long nanos) {
    processingLatency.record(nanos, TimeUnit.NANOSECONDS);
  }

  public void writeRetry() {
    writeRetries.increment();
  }

  public void sideEffectFailed() {
    sideEffectFailures.increment();
  }

  public void responseFailed() {
    responseFailures.increment();
  }

  public void positions(long lastProcessedPosition, long lastWrittenPosition) {
    lastProcessed.set(lastProcessedPosition);
    lastWritten.set(lastWrittenPosition);
  }

  public void health(HealthStatus status) {
    health.set(status.code());
  }

  /** Removes the meters from the registry. */
  @Override
  public void close() {
    meters.forEach(registry::remove);
    meters.clear();
  }

  private Counter records(Tags tags, String result) {
    return register(
        Counter.builder(RECORDS)
            .description("Records read while processing, by outcome")
            .tags(tags.and("result", result))
            .register(registry));
  }

  private void gauge(String name, String description, Tags tags, AtomicLong value) {
    register(
        Gauge.builder(name, value, AtomicLong::get)
            .description(description)
            .tags(tags)
            .register(registry));
  }

  private <M extends Meter> M register(M meter) {
    meters.add(meter);
    return meter;
  }
}
