package io.cairn.backup.upload;

/**
 * Bounds the average rate of bytes a partition's backups copy into the store: after a backup that
 * started at {@code t} copied {@code n} bytes, the next backup starts no earlier than {@code t + n
 * / rate}. Pure: the caller passes the time in. A rate of 0 never delays.
 *
 * <p>The store reads each backup's files itself, so the pace inside one save is the store's; this
 * bounds the rate over a series of backups.
 */
public final class UploadThrottle {

  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private final long bytesPerSecond;
  private long nextStartNanos = Long.MIN_VALUE;

  /**
   * @param bytesPerSecond 0 for unlimited
   */
  public UploadThrottle(final long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException(
          "Expected bytesPerSecond >= 0, but was " + bytesPerSecond + " (upload throttle)");
    }
    this.bytesPerSecond = bytesPerSecond;
  }

  /** How long the next backup must wait at {@code nowNanos}; 0 if it may start. */
  public long delayNanos(final long nowNanos) {
    if (bytesPerSecond == 0 || nextStartNanos == Long.MIN_VALUE) {
      return 0;
    }
    return Math.max(0, nextStartNanos - nowNanos);
  }

  /** A backup that started at {@code startNanos} copied {@code bytes}. */
  public void charge(final long bytes, final long startNanos) {
    if (bytesPerSecond == 0 || bytes <= 0) {
      return;
    }
    final long base =
        nextStartNanos == Long.MIN_VALUE ? startNanos : Math.max(nextStartNanos, startNanos);
    final double seconds = (double) bytes / bytesPerSecond;
    nextStartNanos = base + (long) Math.ceil(seconds * NANOS_PER_SECOND);
  }
}
