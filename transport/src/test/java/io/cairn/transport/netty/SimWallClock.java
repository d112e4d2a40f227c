package io.cairn.transport.netty;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A wall clock that moves only when told: the TLS material's clock, so that the interval between
 * checks for renewed files passes without waiting, and a certificate can be loaded at a time it was
 * valid.
 */
final class SimWallClock extends Clock {
  private volatile Instant now;

  SimWallClock(Instant start) {
    this.now = start;
  }

  void advance(Duration duration) {
    now = now.plus(duration);
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("UTC only");
  }
}
