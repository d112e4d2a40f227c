package io.cairn.broker;

import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.util.function.Supplier;

/**
 * How the broker's meter registry is made and shared, and the broker's own meter, {@value #HEALTH}
 * (gauge, tag {@code node}: 0 healthy, 1 unhealthy, 2 failed). The meters of its parts are listed
 * by their {@code *Metrics} classes.
 */
public final class BrokerMetrics {

  /** Gauge; tag node: health of the broker, 0 healthy, 1 unhealthy, 2 failed. */
  public static final String HEALTH = "cairn.broker.health";

  private BrokerMetrics() {}

  /** Registers {@value #HEALTH}, which reads {@code code} when the registry is scraped. */
  static void registerHealth(MeterRegistry registry, int nodeId, Supplier<Number> code) {
    Gauge.builder(HEALTH, code)
        .description("Health of the broker: 0 healthy, 1 unhealthy, 2 failed")
        .tag("node", Integer.toString(nodeId))
        .register(registry);
  }

  /**
   * A view of {@code registry} whose meters carry {@code role=<role>}, so that a second scheduler's
   * meters do not share (and, when it closes, remove) the first one's.
   */
  static MeterRegistry roleView(MeterRegistry registry, String role) {
    CompositeMeterRegistry view = new CompositeMeterRegistry(registry.config().clock());
    view.config().commonTags("role", role);
    view.add(registry);
    return view;
  }

  /** Micrometer's clock on the broker's (the only place time comes from). */
  static io.micrometer.core.instrument.Clock clock(Clock clock) {
    return new io.micrometer.core.instrument.Clock() {
      @Override
      public long wallTime() {
        return clock.millis();
      }

      @Override
      public long monotonicTime() {
        return clock.nanos();
      }
    };
  }
}
