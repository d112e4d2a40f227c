package io.cairn.cli;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Human forms of sizes, instants and digests for tables. */
public final class Formats {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
  private static final int DIGEST_CHARS = 12;

  private Formats() {}

  /** {@code 512 B}, {@code 1.5 KiB}, {@code 12.3 MiB}, {@code 2.0 GiB}. */
  public static String bytes(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double value = bytes;
    int unit = -1;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
  }

  /** UTC, seconds precision; "-" when unknown. */
  public static String instant(Instant instant) {
    return instant == null || instant.equals(Instant.EPOCH) ? "-" : TIME.format(instant);
  }

  /** The first characters of a hex digest; "-" when empty. */
  public static String digest(String digest) {
    if (digest == null || digest.isEmpty()) {
      return "-";
    }
    return digest.length() <= DIGEST_CHARS ? digest : digest.substring(0, DIGEST_CHARS) + "…";
  }

  /** "-" for null or empty text. */
  public static String text(String text) {
    return text == null || text.isEmpty() ? "-" : text;
  }
}
