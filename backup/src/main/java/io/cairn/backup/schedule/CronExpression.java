package io.cairn.backup.schedule;

import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.BitSet;
import java.util.Objects;

/**
 * A five-field cron expression in UTC — {@code minute hour day-of-month month day-of-week} — as
 * crontab reads it: each field a star (every value), a value, a range {@code a-b}, either of those
 * with a step ({@code a-b/n}; a star or a single value with a step counts from it to the field's
 * end), or a comma-separated list of them; day of week 0..7, 0 and 7 both Sunday. When both day
 * fields are restricted (neither starts with a star) a day matches either (crontab's rule). Fires
 * at the start of each matching minute. Names (JAN, MON) and the non-standard {@code L}, {@code W},
 * {@code #} are not read.
 */
public final class CronExpression {

  /** How far to look for a matching day: leap days come every four years, eight across 2100. */
  private static final int DAYS_SEARCHED = 8 * 366 + 1;

  private static final LocalDateTime REFERENCE = LocalDateTime.of(2001, 1, 1, 0, 0);

  /** Where {@link #shortestGap} looks besides {@link #REFERENCE}: around a leap day. */
  private static final LocalDateTime LEAP_REFERENCE = LocalDateTime.of(2028, 2, 1, 0, 0);

  /** The longest expression read (a schedule's status carries it). */
  public static final int LENGTH_MAX = 200;

  private static final long MINUTE_MILLIS = 60_000;

  private final String text;
  private final BitSet minutes;
  private final BitSet hours;
  private final BitSet daysOfMonth;
  private final BitSet months;
  private final BitSet daysOfWeek;
  private final boolean domRestricted;
  private final boolean dowRestricted;

  private CronExpression(String text, String[] fields) {
    this.text = text;
    this.minutes = field("minute", fields[0], 0, 59);
    this.hours = field("hour", fields[1], 0, 23);
    this.daysOfMonth = field("day-of-month", fields[2], 1, 31);
    this.months = field("month", fields[3], 1, 12);
    BitSet dow = field("day-of-week", fields[4], 0, 7);
    if (dow.get(7)) {
      dow.set(0);
    }
    this.daysOfWeek = dow;
    // crontab's rule: a day field starting with a star (*, */2) does not restrict
    this.domRestricted = !fields[2].startsWith("*");
    this.dowRestricted = !fields[4].startsWith("*");
  }

  /**
   * @throws IllegalArgumentException naming the field and the bad value, or saying that the
   *     expression never fires
   */
  public static CronExpression parse(String text) {
    Objects.requireNonNull(text, "text");
    if (text.length() > LENGTH_MAX) {
      throw new IllegalArgumentException(
          "Expected at most "
              + LENGTH_MAX
              + " characters, but the expression has "
              + text.length());
    }
    String[] fields = text.trim().split("\\s+");
    if (fields.length != 5) {
      throw new IllegalArgumentException(
          "Expected five fields (minute hour day-of-month month day-of-week, e.g. '0 2 * * *'),"
              + " but '"
              + text
              + "' has "
              + (text.isBlank() ? 0 : fields.length));
    }
    CronExpression cron = new CronExpression(text.trim(), fields);
    if (cron.nextMatch(REFERENCE) == null) {
      throw new IllegalArgumentException(
          "Expected '" + text + "' to fire at least once in eight years, but it never does");
    }
    return cron;
  }

  /** The latest firing at or before {@code epochMillis}. */
  public long previousOrSame(long epochMillis) {
    LocalDateTime at = minuteOf(epochMillis);
    LocalDate day = at.toLocalDate();
    for (int i = 0; i < DAYS_SEARCHED; i++, day = day.minusDays(1)) {
      if (!matches(day)) {
        continue;
      }
      boolean today = day.equals(at.toLocalDate());
      for (int h = today ? at.getHour() : 23; h >= 0; h--) {
        if (!hours.get(h)) {
          continue;
        }
        int last = today && h == at.getHour() ? at.getMinute() : 59;
        int m = minutes.previousSetBit(last);
        if (m >= 0) {
          return millis(day.atTime(h, m));
        }
      }
    }
    throw new IllegalStateException("Expected '" + text + "' to have fired before " + at);
  }

  /** The first firing after {@code epochMillis}. */
  public long next(long epochMillis) {
    LocalDateTime match = nextMatch(minuteOf(epochMillis).plusMinutes(1));
    if (match == null) {
      throw new IllegalStateException("Expected '" + text + "' to fire after " + epochMillis);
    }
    return millis(match);
  }

  /**
   * The shortest time between two consecutive firings, over a thousand from 2001 and a thousand
   * from February 2028 (a leap day's neighbours); an expression whose shortest gap occurs only
   * elsewhere is credited a longer one.
   */
  public Duration shortestGap() {
    return Duration.ofMillis(Math.min(shortestGapFrom(REFERENCE), shortestGapFrom(LEAP_REFERENCE)));
  }

  private long shortestGapFrom(LocalDateTime from) {
    long previous = millis(nextMatch(from));
    long shortest = Long.MAX_VALUE;
    for (int i = 0; i < 1000; i++) {
      long next = next(previous);
      shortest = Math.min(shortest, next - previous);
      previous = next;
    }
    return shortest;
  }

  /** The first matching minute at or after {@code from}, or null within the search horizon. */
  private LocalDateTime nextMatch(LocalDateTime from) {
    LocalDate day = from.toLocalDate();
    for (int i = 0; i < DAYS_SEARCHED; i++, day = day.plusDays(1)) {
      if (!matches(day)) {
        continue;
      }
      boolean first = day.equals(from.toLocalDate());
      for (int h = hours.nextSetBit(first ? from.getHour() : 0);
          h >= 0;
          h = hours.nextSetBit(h + 1)) {
        int m = minutes.nextSetBit(first && h == from.getHour() ? from.getMinute() : 0);
        if (m >= 0) {
          return day.atTime(h, m);
        }
      }
    }
    return null;
  }

  private boolean matches(LocalDate day) {
    if (!months.get(day.getMonthValue())) {
      return false;
    }
    boolean dom = daysOfMonth.get(day.getDayOfMonth());
    boolean dow = daysOfWeek.get(day.getDayOfWeek().getValue() % 7);
    if (domRestricted && dowRestricted) {
      return dom || dow;
    }
    return dom && dow;
  }

  private static LocalDateTime minuteOf(long epochMillis) {
    long minute = Math.floorDiv(epochMillis, MINUTE_MILLIS) * MINUTE_MILLIS;
    return LocalDateTime.ofEpochSecond(minute / 1000, 0, ZoneOffset.UTC);
  }

  private static long millis(LocalDateTime at) {
    return at.toEpochSecond(ZoneOffset.UTC) * 1000;
  }

  /** One field's values. */
  private static BitSet field(String name, String value, int min, int max) {
    BitSet set = new BitSet(max + 1);
    for (String item : value.split(",", -1)) {
      String range = item;
      int step = 1;
      int slash = item.indexOf('/');
      if (slash >= 0) {
        range = item.substring(0, slash);
        step = number(name, item, item.substring(slash + 1), 1, max - min + 1);
      }
      int from;
      int to;
      if (range.equals("*")) {
        from = min;
        to = max;
      } else if (range.contains("-")) {
        int dash = range.indexOf('-');
        from = number(name, item, range.substring(0, dash), min, max);
        to = number(name, item, range.substring(dash + 1), min, max);
        if (to < from) {
          throw bad(name, item, "a range from low to high");
        }
      } else {
        from = number(name, item, range, min, max);
        to = slash >= 0 ? max : from;
      }
      for (int v = from; v <= to; v += step) {
        set.set(v);
      }
    }
    return set;
  }

  private static int number(String name, String item, String text, int min, int max) {
    try {
      int value = Integer.parseInt(text);
      if (value < min || value > max) {
        throw bad(name, item, "values in " + min + ".." + max);
      }
      return value;
    } catch (NumberFormatException e) {
      throw bad(name, item, "*, a number, a-b, */n or a-b/n with numbers in " + min + ".." + max);
    }
  }

  private static IllegalArgumentException bad(String name, String item, String allowed) {
    return new IllegalArgumentException(
        "Expected the " + name + " field to hold " + allowed + ", but it has '" + item + "'");
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CronExpression cron && cron.text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  /** The expression as written (fields separated by single spaces). */
  @Override
  public String toString() {
    return String.join(" ", text.split("\\s+"));
  }
}
