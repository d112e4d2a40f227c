package io.cairn.backup;

import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The meters of one partition's checkpoints and backups; every meter has the tag {@code partition}.
 * One instance per partition, shared by the checkpoint records of every processor the partition
 * runs and by its {@link BackupManager}; {@link #close()} removes the meters.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 *   <tr><td>{@value #OPERATIONS}</td><td>counter</td><td>{@code operation}, {@code result}</td>
 *       <td>{@code take}: completed, failed, no_op (the id is completed already), refused (the id
 *       exists failed or in progress); {@code mark_failed} (in-progress backups failed by a new
 *       leader or on leadership loss): success, failure; {@code confirm} (the
 *       {@code CONFIRM_BACKUP} command): written, failed; {@code delete} (a partition's backup
 *       deleted from the store as retention asked): success, failure (tried again)</td></tr>
 *   <tr><td>{@value #IN_PROGRESS}</td><td>gauge</td><td></td>
 *       <td>backups reserved and not finished (queued or uploading)</td></tr>
 *   <tr><td>{@value #DELETIONS_PENDING}</td><td>gauge</td><td></td>
 *       <td>deletions retention asked for that this leader has not finished (retried while the
 *       store refuses them; 0 on followers)</td></tr>
 *   <tr><td>{@value #DURATION}</td><td>timer</td><td>{@code result} = completed, failed</td>
 *       <td>from the reservation at the checkpoint to the end of the backup</td></tr>
 *   <tr><td>{@value #BYTES_WRITTEN}</td><td>counter (bytes)</td><td></td>
 *       <td>bytes copied into the store by completed backups (uncompressed)</td></tr>
 *   <tr><td>{@value #BYTES_REUSED}</td><td>counter (bytes)</td><td></td>
 *       <td>bytes taken from the previous backup without copying</td></tr>
 *   <tr><td>{@value #CHECKPOINT_ID}</td><td>gauge</td><td></td>
 *       <td>the latest checkpoint id applied to this member's state (-1: none)</td></tr>
 *   <tr><td>{@value #CHECKPOINT_POSITION}</td><td>gauge</td><td></td>
 *       <td>its position (-1: none)</td></tr>
 *   <tr><td>{@value #DIGEST_MISMATCHES}</td><td>counter</td><td></td>
 *       <td>{@code CREATED} events whose digest differed from this replica's state (each one
 *       fails the partition)</td></tr>
 *   <tr><td>{@value #LATEST_COMPLETED_AGE}</td><td>gauge (seconds)</td><td></td>
 *       <td>age of the newest backup this leader knows completed (NaN: none known)</td></tr>
 *   <tr><td>{@value #RESTORE_CHECKS}</td><td>counter</td><td>{@code result} = match, mismatch,
 *       invalid</td><td>state digest checks of a restored partition (see {@link
 *       io.cairn.backup.restore.RestoredCheckpointCheck}): the leader processed the kept {@code
 *       CHECKPOINT CREATE} and its digest matched the backup's, or differed, or the command there
 *       could not be checked (another command, or a state that holds the checkpoint already);
 *       mismatch and invalid fail the partition. Registered at the first check: a partition that
 *       was not restored, or whose check passed before this start, has none</td></tr>
 * </table>
 */
public final class BackupMetrics implements AutoCloseable {

  /** Counter; tags partition, operation, result: outcomes of backup operations. */
  public static final String OPERATIONS = "cairn.backup.operations";

  /** Gauge; tag partition: backups reserved and not finished. */
  public static final String IN_PROGRESS = "cairn.backup.in.progress";

  /** Gauge; tag partition: deletions retention asked for that this leader has not finished. */
  public static final String DELETIONS_PENDING = "cairn.backup.deletions.pending";

  /** Timer; tags partition, result = completed, failed: reservation to end of a backup. */
  public static final String DURATION = "cairn.backup.duration";

  /** Counter, bytes; tag partition: bytes copied into the store by completed backups. */
  public static final String BYTES_WRITTEN = "cairn.backup.bytes.written";

  /** Counter, bytes; tag partition: bytes taken from the previous backup. */
  public static final String BYTES_REUSED = "cairn.backup.bytes.reused";

  /** Gauge; tag partition: the latest checkpoint id applied to state (-1: none). */
  public static final String CHECKPOINT_ID = "cairn.backup.checkpoint.id";

  /** Gauge; tag partition: the latest checkpoint's position (-1: none). */
  public static final String CHECKPOINT_POSITION = "cairn.backup.checkpoint.position";

  /** Counter; tag partition: checkpoint digests that differ from the state. */
  public static final String DIGEST_MISMATCHES = "cairn.backup.checkpoint.digest.mismatches";

  /** Gauge, seconds; tag partition: age of the newest completed backup. */
  public static final String LATEST_COMPLETED_AGE = "cairn.backup.latest.completed.age";

  /** Counter; tags partition, result = match, mismatch, invalid: restore checks. */
  public static final String RESTORE_CHECKS = "cairn.backup.restore.checks";

  /** Values of the {@code operation} tag. */
  public enum Operation {
    TAKE,
    MARK_FAILED,
    CONFIRM,
    DELETE;

    String tag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Values of the {@code result} tag. */
  public enum Result {
    COMPLETED,
    FAILED,
    NO_OP,
    REFUSED,
    SUCCESS,
    FAILURE,
    WRITTEN;

    String tag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Values of the {@code result} tag of {@value #RESTORE_CHECKS}. */
  public enum RestoreCheckResult {
    /** The restored state reproduced the backup's digest. */
    MATCH,
    /** It has another digest. */
    MISMATCH,
    /** The command at the checkpoint position could not be checked. */
    INVALID;

    String tag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final MeterRegistry registry;
  private final Clock clock;
  private final Tags tags;
  private final List<Meter> meters = new ArrayList<>();
  private final ConcurrentHashMap<String, Counter> operations = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<RestoreCheckResult, Counter> restoreChecks =
      new ConcurrentHashMap<>();
  private final AtomicInteger inProgress = new AtomicInteger();
  private final AtomicInteger deletionsPending = new AtomicInteger();
  private final AtomicLong checkpointId = new AtomicLong(-1);
  private final AtomicLong checkpointPosition = new AtomicLong(-1);
  private final AtomicLong latestCompletedMillis = new AtomicLong(Long.MIN_VALUE);
  private final Timer completed;
  private final Timer failed;
  private final Counter bytesWritten;
  private final Counter bytesReused;
  private final Counter digestMismatches;

  /**
   * @param clock for the age of the newest completed backup
   */
  public BackupMetrics(MeterRegistry registry, int partitionId, Clock clock) {
    this.registry = registry;
    this.clock = clock;
    tags = Tags.of("partition", Integer.toString(partitionId));
    meters.add(
        Gauge.builder(IN_PROGRESS, inProgress, AtomicInteger::get)
            .tags(tags)
            .description("backups reserved and not finished")
            .register(registry));
    meters.add(
        Gauge.builder(DELETIONS_PENDING, deletionsPending, AtomicInteger::get)
            .tags(tags)
            .description("deletions asked for by retention and not finished by this leader")
            .register(registry));
    meters.add(
        Gauge.builder(CHECKPOINT_ID, checkpointId, AtomicLong::get)
            .tags(tags)
            .description("latest checkpoint id in state")
            .register(registry));
    meters.add(
        Gauge.builder(CHECKPOINT_POSITION, checkpointPosition, AtomicLong::get)
            .tags(tags)
            .description("position of the latest checkpoint")
            .register(registry));
    meters.add(
        Gauge.builder(LATEST_COMPLETED_AGE, this, BackupMetrics::latestCompletedAgeSeconds)
            .tags(tags)
            .baseUnit("seconds")
            .description("age of the newest completed backup")
            .register(registry));
    completed = timer(Result.COMPLETED);
    failed = timer(Result.FAILED);
    bytesWritten = counter(BYTES_WRITTEN, "bytes copied into the store", "bytes");
    bytesReused = counter(BYTES_REUSED, "bytes reused from the previous backup", "bytes");
    digestMismatches =
        counter(DIGEST_MISMATCHES, "checkpoint digests that differ from the state", null);
  }

  /** Counts one operation outcome. */
  public void operation(Operation operation, Result result) {
    String key = operation.tag() + "/" + result.tag();
    operations
        .computeIfAbsent(
            key,
            k -> {
              Counter counter =
                  Counter.builder(OPERATIONS)
                      .tags(tags)
                      .tag("operation", operation.tag())
                      .tag("result", result.tag())
                      .register(registry);
              synchronized (meters) {
                meters.add(counter);
              }
              return counter;
            })
        .increment();
  }

  /** How often {@code operation} ended with {@code result} so far. */
  public double operationCount(Operation operation, Result result) {
    Counter counter = operations.get(operation.tag() + "/" + result.tag());
    return counter == null ? 0 : counter.count();
  }

  public void backupStarted() {
    inProgress.incrementAndGet();
  }

  /** A backup ended after {@code durationNanos}; {@code success} picks the timer. */
  public void backupEnded(boolean success, long durationNanos) {
    inProgress.decrementAndGet();
    (success ? completed : failed).record(Math.max(0, durationNanos), TimeUnit.NANOSECONDS);
  }

  public int inProgress() {
    return inProgress.get();
  }

  /** The deletions this leader has under way (0 when it stops leading). */
  public void deletionsPending(int count) {
    deletionsPending.set(count);
  }

  public void bytes(long written, long reused) {
    bytesWritten.increment(written);
    bytesReused.increment(reused);
  }

  /** The newest completed backup known, completed at {@code completedAtMillis}. */
  public void latestCompleted(long completedAtMillis) {
    latestCompletedMillis.accumulateAndGet(completedAtMillis, Math::max);
  }

  public void checkpointApplied(Checkpoint checkpoint) {
    checkpointId.set(checkpoint.id());
    checkpointPosition.set(checkpoint.position());
  }

  public void digestMismatch() {
    digestMismatches.increment();
  }

  public double digestMismatchCount() {
    return digestMismatches.count();
  }

  /** Counts one state digest check of a restored partition. */
  public void restoreCheck(RestoreCheckResult result) {
    restoreChecks
        .computeIfAbsent(
            result,
            r -> {
              Counter counter =
                  Counter.builder(RESTORE_CHECKS)
                      .tags(tags)
                      .tag("result", r.tag())
                      .description("state digest checks of a restored partition")
                      .register(registry);
              synchronized (meters) {
                meters.add(counter);
              }
              return counter;
            })
        .increment();
  }

  /** How many restore checks ended with {@code result} so far. */
  public double restoreCheckCount(RestoreCheckResult result) {
    Counter counter = restoreChecks.get(result);
    return counter == null ? 0 : counter.count();
  }

  private double latestCompletedAgeSeconds() {
    long completedAt = latestCompletedMillis.get();
    return completedAt == Long.MIN_VALUE
        ? Double.NaN
        : Math.max(0, clock.millis() - completedAt) / 1000.0;
  }

  private Timer timer(Result result) {
    Timer timer =
        Timer.builder(DURATION)
            .tags(tags)
            .tag("result", result.tag())
            .description("backup duration from the checkpoint's reservation to the end")
            .register(registry);
    meters.add(timer);
    return timer;
  }

  private Counter counter(String name, String description, String baseUnit) {
    Counter counter =
        Counter.builder(name)
            .tags(tags)
            .baseUnit(baseUnit)
            .description(description)
            .register(registry);
    meters.add(counter);
    return counter;
  }

  /** Removes every meter from the registry. */
  @Override
  public void close() {
    synchronized (meters) {
      meters.forEach(registry::remove);
      meters.clear();
    }
    operations.clear();
    restoreChecks.clear();
  }
}
