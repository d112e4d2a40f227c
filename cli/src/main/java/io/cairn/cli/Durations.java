package io.cairn.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations on the command line: {@code 500ms}, {@code 20s}, {@code 5m}, {@code 2h}, ISO-8601. */
public final class Durations {
  private static final Pattern SIMPLE = Pattern.compile("(\\d{1,12})\\s*(ms|s|m|h|d)");

  private Durations() {}

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException "Expected a duration like 500ms, 20s, 5m, 2h or PT20S, but was
   *     '...'"
   */
  public static Duration parse(final String text) {
    final String trimmed = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    final Matcher m = SIMPLE.matcher(trimmed);
    if (m.matches()) {
      final long amount = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(amount);
        case "s" -> Duration.ofSeconds(amount);
        case "m" -> Duration.ofMinutes(amount);
        case "h" -> Duration.ofHours(amount);
        default -> Duration.ofDays(amount);
      };
    }
    if (trimmed.equals("0")) {
      return Duration.ZERO;
    }
    try {
      return Duration.parse(trimmed.toUpperCase(Locale.ROOT));
    } catch (final DateTimeParseException e) {
      throw new IllegalArgumentException(
          "Expected a duration like 500ms, 20s, 5m, 2h or PT20S, but was '" + text + "'");
    }
  }

  /** Short human form: {@code 850ms}, {@code 12.3s}, {@code 2m05s}. */
  public static String format(final Duration duration) {
    final long ms = duration.toMillis();
    if (ms < 1000) {
      return ms + "ms";
    }
    if (ms < 60_000) {
      return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }
    final long s = duration.toSeconds();
    return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
  }
}
