package io.cairn.broker;

import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

/** How the broker's meter registry is made and shared. */
final class BrokerMeters {

  private BrokerMeters() {}

  /**
   * A view of {@code registry} whose meters carry {@code role=<role>}, so that a second scheduler's
   * meters do not share (and, when it closes, remove) the first one's.
   */
  static MeterRegistry roleView(final MeterRegistry registry, final String role) {
    final CompositeMeterRegistry view = new CompositeMeterRegistry(registry.config().clock());
    view.config().commonTags("role", role);
    view.add(registry);
    return view;
  }

  /** Micrometer's clock on the broker's (the only place time comes from). */
  static io.micrometer.core.instrument.Clock clock(final Clock clock) {
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
