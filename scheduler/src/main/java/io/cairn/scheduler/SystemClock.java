package io.cairn.scheduler;

/** {@link Clock} backed by the JVM's clocks; the one place where they are read. */
final class SystemClock implements Clock {

  static final SystemClock INSTANCE = new SystemClock();

  private SystemClock() {}

  @Override
  public long millis() {
    return System.currentTimeMillis();
  }

  @Override
  public long nanos() {
    return System.nanoTime();
  }

  @Override
  public String toString() {
    return "SystemClock";
  }
}
