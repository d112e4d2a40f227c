package io.cairn.backup.schedule;

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
 *       superseded, failed</td><td>attempts of scheduled backups, by what came of them</td></tr>
 *   <tr><td>{@value #RUNNING}</td><td>gauge</td><td></td>
 *       <td>1 on the broker that runs the schedule, 0 on the others</td></tr>
 *   <tr><td>{@value #NEXT_RUN}</td><td>gauge (seconds since the epoch)</td><td></td>
 *       <td>when the next run is due (NaN where the schedule does not run)</td></tr>
 *   <tr><td>{@value #LAST_TAKEN}</td><td>gauge (seconds since the epoch)</td><td></td>
 *       <td>the slot of the newest scheduled backup this broker saw taken (NaN: none yet)</td></tr>
 * </table>
 */
public final class BackupScheduleMetrics implements AutoCloseable {

  public static final String RUNS = "cairn.backup.schedule.runs";
  public static final String RUNNING = "cairn.backup.schedule.running";
  public static final String NEXT_RUN = "cairn.backup.schedule.next.run";
  public static final String LAST_TAKEN = "cairn.backup.schedule.last.taken";

  private static final long NONE = Long.MIN_VALUE;

  private final MeterRegistry registry;
  private final Map<TakeOutcome.Kind, Counter> runs = new EnumMap<>(TakeOutcome.Kind.class);
  private final AtomicLong running = new AtomicLong();
  private final AtomicLong nextRunMillis = new AtomicLong(NONE);
  private final AtomicLong lastTakenMillis = new AtomicLong(NONE);
  private final List<Meter> meters = new ArrayList<>();

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

  void running(boolean value, long nextRun) {
    running.set(value ? 1 : 0);
    nextRunMillis.set(value ? nextRun : NONE);
  }

  @Override
  public void close() {
    meters.forEach(registry::remove);
  }
}
