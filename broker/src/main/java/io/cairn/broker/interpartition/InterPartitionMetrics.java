package io.cairn.broker.interpartition;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * Meters of inter-partition commands between brokers (tag {@code node} on all).
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th></tr>
 *   <tr><td>{@value #SENDS}</td><td>counter</td><td>{@code result} =
 *       written (the target's leader wrote it), local (handed to a partition on this broker),
 *       no_leader (no leader known: dropped), not_leader, backpressure, invalid, unreachable
 *       (transport failure or timeout), failed (encoding or local write failed)</td></tr>
 *   <tr><td>{@value #RECEIVES}</td><td>counter</td><td>{@code result}
 *       = written, not_leader, backpressure, invalid</td></tr>
 * </table>
 */
public final class InterPartitionMetrics {

  /** Counter; tags node, result: inter-partition commands sent, by outcome. */
  public static final String SENDS = "cairn.broker.interpartition.sends";

  /** Counter; tags node, result: inter-partition commands received, by outcome. */
  public static final String RECEIVES = "cairn.broker.interpartition.receives";

  private final MeterRegistry registry;
  private final Tags tags;

  public InterPartitionMetrics(MeterRegistry registry, int nodeId) {
    this.registry = registry;
    this.tags = Tags.of("node", Integer.toString(nodeId));
  }

  void sent(String result) {
    Counter.builder(SENDS)
        .description("Inter-partition commands sent, by outcome")
        .tags(tags)
        .tag("result", result)
        .register(registry)
        .increment();
  }

  void received(String result) {
    Counter.builder(RECEIVES)
        .description("Inter-partition commands received, by outcome")
        .tags(tags)
        .tag("result", result)
        .register(registry)
        .increment();
  }
}
