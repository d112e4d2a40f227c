package io.cairn.broker.api.limit;

import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The {@link CommandLimiter} of every partition a broker hosts, with their meters ({@link
 * CommandLimitMetrics}).
 */
public final class CommandLimiters {

  private final CommandLimitConfig config;
  private final Map<Integer, CommandLimiter> limiters;

  private CommandLimiters(CommandLimitConfig config, Map<Integer, CommandLimiter> limiters) {
    this.config = config;
    this.limiters = Map.copyOf(limiters);
  }

  /** One limiter for each of {@code partitionIds}, its meters registered in {@code registry}. */
  public static CommandLimiters open(
      Collection<Integer> partitionIds,
      CommandLimitConfig config,
      Clock clock,
      MeterRegistry registry,
      int nodeId) {
    Map<Integer, CommandLimiter> limiters = new TreeMap<>();
    for (int partitionId : partitionIds) {
      CommandLimiter limiter = new CommandLimiter(partitionId, config, clock);
      limiters.put(partitionId, limiter);
      CommandLimitMetrics.register(registry, nodeId, partitionId, limiter);
    }
    return new CommandLimiters(config, limiters);
  }

  /** The settings every limiter was made with. */
  public CommandLimitConfig config() {
    return config;
  }

  /** The limiter of {@code partitionId}, if this broker hosts it. */
  public Optional<CommandLimiter> of(int partitionId) {
    return Optional.ofNullable(limiters.get(partitionId));
  }
}
