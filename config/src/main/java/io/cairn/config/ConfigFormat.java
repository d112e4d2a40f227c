package io.cairn.config;

import java.time.Duration;

/** Prints durations and sizes the way the configuration file writes them ("5m", "128MB"). */
public final class ConfigFormat {

  private static final String[] SIZE_UNITS = {"B", "KB", "MB", "GB", "TB"};

  private ConfigFormat() {}

  /** The shortest exact form: {@code 2500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 1d}. */
  public static String duration(final Duration duration) {
    final long millis = duration.toMillis();
    if (millis == 0) {
      return "0";
    }
    if (millis % 86_400_000L == 0) {
      return millis / 86_400_000L + "d";
    }
    if (millis % 3_600_000L == 0) {
      return millis / 3_600_000L + "h";
    }
    if (millis % 60_000L == 0) {
      return millis / 60_000L + "m";
    }
    if (millis % 1000L == 0) {
      return millis / 1000L + "s";
    }
    return millis + "ms";
  }

  /** The largest exact unit: {@code 128MB}, {@code 4KB}, {@code 1000B} (powers of 1024). */
  public static String size(final long bytes) {
    if (bytes == 0) {
      return "0";
    }
    long value = bytes;
    int unit = 0;
    while (unit < SIZE_UNITS.length - 1 && value % 1024 == 0) {
      value /= 1024;
      unit++;
    }
    return value + SIZE_UNITS[unit];
  }
}
