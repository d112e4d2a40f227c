package io.cairn.broker.partition;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The meters of one partition on one broker, all tagged {@code partition} and {@code node}:
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 *   <tr><td>{@value #ROLE}</td><td>gauge</td><td></td><td>{@link PartitionRole#code()}</td></tr>
 *   <tr><td>{@value #HEALTH}</td><td>gauge</td><td></td><td>{@link
 *       PartitionHealthStatus#code()}</td></tr>
 *   <tr><td>{@value #TRANSITION_DURATION}</td><td>timer</td><td>{@code role} (target), {@code
 *       result} = ok, failed</td><td>role transitions, from stopping the old processor to the
 *       new one running</td></tr>
 *   <tr><td>{@value #STATE_REBUILDS}</td><td>counter</td><td></td><td>states rebuilt from a
 *       snapshot (or from empty)</td></tr>
 *   <tr><td>{@value #COMPACTIONS}</td><td>counter</td><td>{@code result} = compacted, unchanged,
 *       failed</td><td>log compactions after persisted snapshots</td></tr>
 * </table>
 */
final class PartitionMetrics implements AutoCloseable {

  /** Gauge; tags partition, node: the partition's {@link PartitionRole#code()} on this broker. */
  public static final String ROLE = "cairn.broker.partition.role";

  /** Gauge; tags partition, node: 0 healthy, 1 unhealthy, 2 failed. */
  public static final String HEALTH = "cairn.broker.partition.health";

  /** Timer; tags partition, node, role, result: role transitions of the partition. */
  public static final String TRANSITION_DURATION = "cairn.broker.partition.transition.duration";

  /** Counter; tags partition, node: states rebuilt from a snapshot (or from empty). */
  public static final String STATE_REBUILDS = "cairn.broker.partition.state.rebuilds";

  /** Counter; tags partition, node, result: log compactions after persisted snapshots. */
  public static final String COMPACTIONS = "cairn.broker.partition.compactions";

  private final MeterRegistry registry;
  private final Tags tags;
  private final AtomicInteger role = new AtomicInteger(PartitionRole.INACTIVE.code());
  private final AtomicInteger health = new AtomicInteger(PartitionHealthStatus.HEALTHY.code());
  private final Counter rebuilds;
  private final Counter compacted;
  private final Counter unchanged;
  private final Counter compactionFailed;
  private final List<Meter> meters = new ArrayList<>();
  private final Map<String, Timer> transitionTimers = new HashMap<>();

  PartitionMetrics(MeterRegistry registry, int partitionId, int nodeId) {
    this.registry = registry;
    this.tags =
        Tags.of("partition", Integer.toString(partitionId), "node", Integer.toString(nodeId));
    meters.add(
        Gauge.builder(ROLE, role, AtomicInteger::get)
            .tags(tags)
            .description("The partition's role on this broker (PartitionRole code)")
            .register(registry));
    meters.add(
        Gauge.builder(HEALTH, health, AtomicInteger::get)
            .tags(tags)
            .description("0 healthy, 1 unhealthy, 2 failed")
            .register(registry));
    rebuilds =
        register(
            Counter.builder(STATE_REBUILDS)
                .tags(tags)
                .description("States rebuilt from a snapshot")
                .register(registry));
    compacted = compactions("compacted");
    unchanged = compactions("unchanged");
    compactionFailed = compactions("failed");
  }

  private Counter compactions(String result) {
    return register(
        Counter.builder(COMPACTIONS)
            .tags(tags.and("result", result))
            .description("Log compactions after persisted snapshots")
            .register(registry));
  }

  private <M extends Meter> M register(M meter) {
    meters.add(meter);
    return meter;
  }

  void role(PartitionRole value) {
    role.set(value.code());
  }

  void health(PartitionHealthStatus value) {
    health.set(value.code());
  }

  void transition(PartitionRole target, boolean ok, Duration duration) {
    String role = target.name().toLowerCase(Locale.ROOT);
    String result = ok ? "ok" : "failed";
    transitionTimers
        .computeIfAbsent(
            role + "/" + result,
            key ->
                register(
                    Timer.builder(TRANSITION_DURATION)
                        .tags(tags.and("role", role, "result", result))
                        .description("Role transitions of the partition")
                        .register(registry)))
        .record(duration);
  }

  void stateRebuilt() {
    rebuilds.increment();
  }

  void compaction(boolean deletedSegments) {
    (deletedSegments ? compacted : unchanged).increment();
  }

  void compactionFailed() {
    compactionFailed.increment();
  }

  @Override
  public void close() {
    meters.forEach(registry::remove);
    meters.clear();
  }
}
