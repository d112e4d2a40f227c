package io.cairn.units;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration grammar of Cairn, read the same way by the configuration files, the backup
 * stores' keys and the command line:
 *
 * <ul>
 *   <li>{@code <n><unit>}: up to 12 digits, optional blanks, a unit {@code ms}, {@code s}, {@code
 *       m}, {@code h} or {@code d} (any case): {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h},
 *       {@code 1d};
 *   <li>{@code 0};
 *   <li>ISO-8601, starting with {@code P} (any case): {@code PT1M30S}, {@code P1D}.
 * </ul>
 *
 * Ranges are the caller's: each says which durations its field allows.
 */
public final class Durations {

  /** Examples of the grammar, for messages: "Expected ... like {@value}, but was ...". */
  public static final String EXAMPLES = "500ms, 20s, 5m, 2h or PT20S";

  private static final Pattern WITH_UNIT = Pattern.compile("(\\d{1,12})\\s*(ms|s|m|h|d)");
  private static final long MILLIS_PER_DAY = 86_400_000L;
  private static final long MILLIS_PER_HOUR = 3_600_000L;
  private static final long MILLIS_PER_MINUTE = 60_000L;
  private static final long MILLIS_PER_SECOND = 1000L;

  private Durations() {}

  /**
   * The duration {@code text} names, or empty when it is not in the grammar (or too large for a
   * {@link Duration}).
   */
  public static Optional<Duration> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    String trimmed = text.trim().toLowerCase(Locale.ROOT);
    if (trimmed.equals("0")) {
      return Optional.of(Duration.ZERO);
    }
    Matcher matcher = WITH_UNIT.matcher(trimmed);
    if (matcher.matches()) {
      // 12 digits of days stay far below Duration's limit: no overflow here
      long amount = Long.parseLong(matcher.group(1));
      return Optional.of(
          switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
          });
    }
    if (trimmed.startsWith("p")) {
      try {
        return Optional.of(Duration.parse(trimmed.toUpperCase(Locale.ROOT)));
      } catch (DateTimeParseException e) { // also a value too large for a Duration
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  /**
   * Like {@link #parse}, for input whose only field is the text itself (a command-line value).
   *
   * @throws IllegalArgumentException "Expected a duration like 500ms, 20s, 5m, 2h or PT20S, but was
   *     '...'"
   */
  public static Duration parseOrThrow(String text) {
    return parse(text)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "Expected a duration like " + EXAMPLES + ", but was '" + text + "'"));
  }

  /**
   * The shortest exact form in the grammar, as configuration files write it: {@code 0}, {@code
   * 2500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 1d} (whole milliseconds).
   */
  public static String formatExact(Duration duration) {
    long millis = duration.toMillis();
    if (millis == 0) {
      return "0";
    }
    if (millis % MILLIS_PER_DAY == 0) {
      return millis / MILLIS_PER_DAY + "d";
    }
    if (millis % MILLIS_PER_HOUR == 0) {
      return millis / MILLIS_PER_HOUR + "h";
    }
    if (millis % MILLIS_PER_MINUTE == 0) {
      return millis / MILLIS_PER_MINUTE + "m";
    }
    if (millis % MILLIS_PER_SECOND == 0) {
      return millis / MILLIS_PER_SECOND + "s";
    }
    return millis + "ms";
  }

  /**
   * A short form for people, rounded: {@code 850ms}, {@code 12.3s}, {@code 2m05s} (not meant to be
   * read back).
   */
  public static String formatRounded(Duration duration) {
    long ms = duration.toMillis();
    if (ms < MILLIS_PER_SECOND) {
      return ms + "ms";
    }
    if (ms < MILLIS_PER_MINUTE) {
      return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }
    long s = duration.toSeconds();
    return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
  }
}
