package io.cairn.backup.schedule;

import io.cairn.backup.retention.RetentionRun;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The meters of a broker's {@link BackupScheduler}; registered on every broker with a schedule,
 * moving only on the one that runs it (the leader of partition 1).
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 *   <tr><td>{@value #RUNS}</td><td>counter</td><td>{@code result} = taken, already_taken,
 *       superseded, failed; failed_in_store (a scheduled backup found FAILED before the next run,
 *       which then waits a backoff)</td><td>attempts of scheduled backups, by what came of
 *       them</td></tr>
 *   <tr><td>{@value #MARKERS}</td><td>counter</td><td>{@code result} = taken, already_taken,
 *       superseded, failed, merged (within half a marker interval of a backup, which stands for
 *       it)</td><td>scheduled markers (checkpoints without a backup: restore points of the log
 *       archive), by what came of them</td></tr>
 *   <tr><td>{@value #RUNNING}</td><td>gauge</td><td></td>
 *       <td>1 on the broker that runs the schedule, 0 on the others</td></tr>
 *   <tr><td>{@value #NEXT_RUN}</td><td>gauge (seconds since the epoch)</td><td></td>
 *       <td>when the next run is due (NaN where the schedule does not run)</td></tr>
 *   <tr><td>{@value #LAST_TAKEN}</td><td>gauge (seconds since the epoch)</td><td></td>
 *       <td>the slot of the newest scheduled backup this broker saw taken (NaN: none yet)</td></tr>
 *   <tr><td>{@value #RETENTION_DELETIONS}</td><td>counter</td><td></td>
 *       <td>backups whose deletion retention asked of every partition</td></tr>
 *   <tr><td>{@value #RETENTION_FAILURES}</td><td>counter</td><td></td>
 *       <td>retention passes that failed (listing the store, or a partition refusing)</td></tr>
 *   <tr><td>{@value #RETENTION_KEPT}</td><td>gauge</td><td></td>
 *       <td>backups the last retention pass kept (NaN before the first)</td></tr>
 * </table>
 */
public final class BackupScheduleMetrics implements AutoCloseable {

  public static final String RUNS = "cairn.backup.schedule.runs";
  public static final String MARKERS = "cairn.backup.schedule.markers";
  public static final String RUNNING = "cairn.backup.schedule.running";
  public static final String NEXT_RUN = "cairn.backup.schedule.next.run";
  public static final String LAST_TAKEN = "cairn.backup.schedule.last.taken";
  public static final String RETENTION_DELETIONS = "cairn.backup.retention.deletions";
  public static final String RETENTION_FAILURES = "cairn.backup.retention.failures";
  public static final String RETENTION_KEPT = "cairn.backup.retention.kept";

  private static final long NONE = Long.MIN_VALUE;

  private final MeterRegistry registry;
  private final Map<TakeOutcome.Kind, Counter> runs = new EnumMap<>(TakeOutcome.Kind.class);
  private final Counter failedInStore;
  private final AtomicLong running = new AtomicLong();
  private final AtomicLong nextRunMillis = new AtomicLong(NONE);
  private final AtomicLong lastTakenMillis = new AtomicLong(NONE);
  private final AtomicLong retentionKept = new AtomicLong(NONE);
  private final Counter retentionDeletions;
  private final Counter retentionFailures;
  private final List<Meter> meters = new ArrayList<>();
  private final Map<String, Counter> markers = new java.util.HashMap<>();

  public BackupScheduleMetrics(MeterRegistry registry) {
    this.registry = registry;
    for (TakeOutcome.Kind kind : TakeOutcome.Kind.values()) {
      Counter counter =
          Counter.builder(RUNS)
              .description("Attempts of scheduled backups, by outcome")
              .tag("result", kind.label())
              .register(registry);
      runs.put(kind, counter);
      meters.add(counter);
    }
    failedInStore =
        Counter.builder(RUNS)
            .description("Attempts of scheduled backups, by outcome")
            .tag("result", "failed_in_store")
            .register(registry);
    meters.add(failedInStore);
    for (String result : List.of("taken", "already_taken", "superseded", "failed", "merged")) {
      Counter counter =
          Counter.builder(MARKERS)
              .description("Scheduled markers, by outcome")
              .tag("result", result)
              .register(registry);
      markers.put(result, counter);
      meters.add(counter);
    }
    meters.add(
        Gauge.builder(RUNNING, running, AtomicLong::get)
            .description("1 on the broker that runs the backup schedule")
            .register(registry));
    meters.add(
        Gauge.builder(NEXT_RUN, nextRunMillis, BackupScheduleMetrics::seconds)
            .description("When the next scheduled backup is due")
            .baseUnit("seconds")
            .register(registry));
    meters.add(
        Gauge.builder(LAST_TAKEN, lastTakenMillis, BackupScheduleMetrics::seconds)
            .description("The slot of the newest scheduled backup taken")
            .baseUnit("seconds")
            .register(registry));
    retentionDeletions =
        Counter.builder(RETENTION_DELETIONS)
            .description("Backups whose deletion retention asked of every partition")
            .register(registry);
    retentionFailures =
        Counter.builder(RETENTION_FAILURES)
            .description("Retention passes that failed")
            .register(registry);
    meters.add(retentionDeletions);
    meters.add(retentionFailures);
    meters.add(
        Gauge.builder(
                RETENTION_KEPT, retentionKept, kept -> kept.get() == NONE ? Double.NaN : kept.get())
            .description("Backups the last retention pass kept")
            .register(registry));
  }

  void retention(RetentionRun run) {
    retentionDeletions.increment(run.requested().size());
    if (!run.failure().isEmpty()) {
      retentionFailures.increment();
    } else {
      retentionKept.set(run.kept());
    }
  }

  private static double seconds(AtomicLong millis) {
    long value = millis.get();
    return value == NONE ? Double.NaN : value / 1000.0;
  }

  void run(TakeOutcome outcome) {
    runs.get(outcome.kind()).increment();
    if (outcome.kind() == TakeOutcome.Kind.TAKEN
        || outcome.kind() == TakeOutcome.Kind.ALREADY_TAKEN) {
      lastTakenMillis.accumulateAndGet(outcome.highestId(), Math::max);
    }
  }

  void failedInStore() {
    failedInStore.increment();
  }

  void marker(String result) {
    Counter counter = markers.get(result);
    if (counter != null) {
      counter.increment();
    }
  }

  void running(boolean value, long nextRun) {
    running.set(value ? 1 : 0);
    nextRunMillis.set(value ? nextRun : NONE);
  }

  @Override
  public void close() {
    meters.forEach(registry::remove);
  }
}
